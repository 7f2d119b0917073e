"""Blessing one scenario of a run updates that scenario's baseline and keeps the others."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from evals.cli import main


def _baseline(project: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((project / "baseline" / "baseline.json").read_text(encoding="utf-8"))
    return data


def _regressed_run(project: Path) -> Path:
    out = project / "runs" / "bad"
    assert main(["run", "--scenario", "trial-run", "--agent", "replay:regressed", "--out", str(out)]) == 1
    return out


def test_blessing_one_scenario_keeps_the_others_and_their_fingerprints(project: Path) -> None:
    before = _baseline(project)
    assert "nightshift" in before["scenarios"]
    out = _regressed_run(project)
    assert main(["baseline", "bless", "--run", str(out), "--scenario", "trial-run", "--force"]) == 0
    after = _baseline(project)
    assert after["scenarios"]["trial-run"]["total_mean"] == 2
    assert after["scenarios"]["nightshift"] == before["scenarios"]["nightshift"]
    assert after["fingerprint"]["scenarios"]["nightshift"] == before["fingerprint"]["scenarios"]["nightshift"]
    again = project / "runs" / "again"
    assert main(["run", "--scenario", "trial-run", "--agent", "replay:regressed", "--out", str(again)]) == 0


def test_blessing_a_scenario_the_run_does_not_have_is_bad_input(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = _regressed_run(project)
    before = (project / "baseline" / "baseline.json").read_text(encoding="utf-8")
    assert main(["baseline", "bless", "--run", str(out), "--scenario", "nightshift", "--force"]) == 2
    assert "nightshift" in capsys.readouterr().err
    assert (project / "baseline" / "baseline.json").read_text(encoding="utf-8") == before


def test_a_partial_bless_under_another_judge_model_is_refused(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = project / "evals.yaml"
    config.write_text(re.sub(r"model: claude-haiku-4-5", "model: another-judge", config.read_text()))
    out = project / "runs" / "other-judge"
    assert main(["run", "--scenario", "trial-run", "--agent", "replay:reference", "--out", str(out)]) == 4
    assert main(["baseline", "bless", "--run", str(out), "--scenario", "trial-run", "--force"]) == 2
    assert "judge model" in capsys.readouterr().err
