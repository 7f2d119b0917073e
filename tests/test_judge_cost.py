"""What the judge costs is counted: tokens and USD per run, from the pricing file, never hard-coded."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from tests.conftest import read_summary
from tests.test_judge_live import judge_server, run, verdict


def test_judge_tokens_and_cost_are_summed_and_reported(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = project / "runs" / "judged"
    with judge_server(monkeypatch, lambda part: verdict(1)) as stub:
        assert run(out) == 0
    assert len(stub.requests) == 2  # T1b and T5; the stub reports 100 input and 20 output tokens each
    usage = read_summary(out)["scenarios"]["trial-run"]["usage"]
    assert usage["judge_input_tokens"] == 200 and usage["judge_output_tokens"] == 40
    price = yaml.safe_load((project / "pricing.yaml").read_text())["claude-haiku-4-5"]
    assert usage["judge_cost_usd"] == pytest.approx((200 * price["input"] + 40 * price["output"]) / 1e6)
    assert "Judge cost, all trials (USD)" in (out / "report.md").read_text()


def test_a_cached_regrade_costs_nothing(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = project / "runs" / "judged"
    with judge_server(monkeypatch, lambda part: verdict(1)):
        assert run(out) == 0
        again = project / "runs" / "again"
        assert run(again) == 0
    record = json.loads((again / "results.jsonl").read_text().splitlines()[0])
    assert record["metrics"]["judge_input_tokens"] == 0 and record["metrics"]["judge_cost_usd"] == 0
