"""What the judge costs is counted: tokens and USD per run, from the pricing file, never hard-coded."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from evals.cli import main
from evals.core.pricing import load_pricing
from evals.core.usage import Usage
from evals.grade.judge import Judgement
from evals.grade.judge.cost import judge_cost
from evals.grade.result import PartGrade, TrialGrade
from tests.support.judge import judge_server, run, verdict
from tests.support.project import read_summary


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


def last_metrics(out: Path) -> dict[str, Any]:
    """The metrics of the run's one trial as results.jsonl now says (a re-grade appends a line)."""
    return json.loads((out / "results.jsonl").read_text().splitlines()[-1])["metrics"]


def test_a_regrade_that_asks_the_model_records_what_it_cost_and_a_cached_one_records_nothing(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = project / "runs" / "offline"
    assert run(out) == 0  # no key: the labels judge, nothing paid
    offline = last_metrics(out)
    assert offline["judge_input_tokens"] == 0 and offline["tool_calls"] > 0
    price = yaml.safe_load((project / "pricing.yaml").read_text())["claude-haiku-4-5"]
    with judge_server(monkeypatch, lambda part: verdict(1)) as stub:
        assert main(["grade", "--run", str(out)]) == 0
        assert len(stub.requests) == 2  # T1b and T5, 100 input and 20 output tokens each
        paid = last_metrics(out)
        assert main(["grade", "--run", str(out)]) == 0  # the same questions: served from the cache
        assert len(stub.requests) == 2
    assert (paid["judge_input_tokens"], paid["judge_output_tokens"]) == (200, 40)
    assert paid["judge_cost_usd"] == pytest.approx((200 * price["input"] + 40 * price["output"]) / 1e6)
    assert paid["tool_calls"] == offline["tool_calls"]  # the agent's own metrics are kept
    cached = last_metrics(out)
    assert [cached[k] for k in ("judge_input_tokens", "judge_output_tokens", "judge_cost_usd")] == [0, 0, 0]
    assert read_summary(out)["scenarios"]["trial-run"]["usage"]["judge_input_tokens"] == 0


def _graded(*verdicts: Judgement | None) -> TrialGrade:
    parts = [
        PartGrade(
            id=f"P{i}",
            criterion="C",
            category="c",
            max_points=1,
            score=None,
            status="unscored",
            layer=2,
            reason="",
            judge=v,
        )
        for i, v in enumerate(verdicts)
    ]
    return TrialGrade(
        scenario="s",
        trial=0,
        parts=parts,
        total=0,
        max_scored=0,
        unscored=[],
        criteria={},
        categories={},
        passed=None,
    )


def test_each_verdict_is_priced_at_the_model_that_gave_it_and_an_unpriced_model_is_unknown(
    project: Path,
) -> None:
    pricing = load_pricing(project / "pricing.yaml")
    haiku = Judgement(
        status="scored",
        source="model",
        score=1,
        model="claude-haiku-4-5",
        usage={"input_tokens": 1000, "output_tokens": 100},
    )
    hit = Judgement(status="scored", source="cache", score=1, model="claude-haiku-4-5")
    label = Judgement(status="scored", source="label", score=1)
    cost = judge_cost(_graded(haiku, hit, label, None), pricing)
    assert (cost.judge_input_tokens, cost.judge_output_tokens) == (1000, 100)
    assert cost.judge_cost_usd == pricing.cost(
        "claude-haiku-4-5", Usage(input_tokens=1000, output_tokens=100)
    )
    assert cost.judge_cost_usd is not None and cost.judge_cost_usd > 0
    unpriced = haiku.model_copy(update={"model": "a-model-with-no-price"})
    assert judge_cost(_graded(haiku, unpriced), pricing).judge_cost_usd is None
    assert judge_cost(_graded(hit, label), pricing).model_dump() == {
        "judge_input_tokens": 0,
        "judge_output_tokens": 0,
        "judge_cost_usd": 0.0,
    }
