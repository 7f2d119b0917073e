"""The gate inside `run` and `compare`: comparability, adaptive trials, job summary and annotations."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from evals.cli import main
from tests.conftest import read_summary


def test_changing_a_judge_prompt_after_blessing_makes_compare_not_comparable(project: Path) -> None:
    out = project / "runs" / "ref"
    assert main(["run", "--scenario", "trial-run", "--agent", "replay:reference", "--out", str(out)]) == 0
    assert main(["baseline", "bless", "--run", str(out)]) == 0
    prompt = project / "scenario" / "trial-run" / "judge" / "T5.md"
    prompt.write_text(prompt.read_text(encoding="utf-8") + "\nAlso judge the tone.\n", encoding="utf-8")
    assert main(["compare", "--run", str(out)]) == 4
    report = (out / "report.md").read_text(encoding="utf-8")
    assert report.splitlines()[1] == "## 🚫 Agent evals: **not-comparable**"
    assert "trial-run: judge prompt judge/T5.md changed" in report
    assert read_summary(out)["verdict"] == "not-comparable"


def test_a_noisy_baseline_makes_run_top_up_trials_before_deciding(project: Path) -> None:
    baseline_path = project / "baseline" / "baseline.json"
    baseline = json.loads(baseline_path.read_text(encoding="utf-8"))
    scenario = baseline["scenarios"]["trial-run"]
    dropped: list[list[str]] = [[], ["T4", "T5"], ["T5"], []]  # trial totals 7, 5, 6, 7
    for trial, lost in zip(scenario["trials"], dropped, strict=True):
        for part in lost:
            trial["parts"][part] = 0.0
        trial["total"] = sum(trial["parts"].values())
    for part in ("T4", "T5"):
        scores = [t["parts"][part] for t in scenario["trials"]]
        scenario["parts"][part] = sum(scores) / len(scores)
    scenario["total_mean"] = 6.25
    baseline_path.write_text(json.dumps(baseline), encoding="utf-8")
    config = project / "evals.yaml"
    config.write_text(re.sub(r"min_trials: \d+", "min_trials: 2", config.read_text(encoding="utf-8")))
    out = project / "runs" / "noisy"
    assert main(["run", "--scenario", "trial-run", "--agent", "replay:reference", "--out", str(out)]) == 0
    assert len((out / "results.jsonl").read_text().splitlines()) == 2
    meta = json.loads((out / "run.json").read_text())
    assert meta["trials"] == 2 and meta["trials_started"] == 1
    summary = read_summary(out)
    assert summary["adaptive"] == {"started_with": 1, "trials": 2, "budget": 15}
    assert summary["gate"]["k"] == 2 and summary["gate"]["ci"][0] < summary["gate"]["delta"]
    assert (
        "(started with 1; 1 added before deciding, because the scores are noisy)"
        in (out / "report.md").read_text()
    )


def test_in_actions_the_report_goes_to_the_job_summary_and_regressions_become_annotations(
    project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    step_summary = project / "step-summary.md"
    step_summary.write_text("# earlier step\n", encoding="utf-8")
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(step_summary))
    out = project / "runs" / "bad"
    assert main(["run", "--scenario", "trial-run", "--agent", "replay:regressed", "--out", str(out)]) == 1
    written = step_summary.read_text(encoding="utf-8")
    assert written.startswith("# earlier step\n")
    assert (out / "report.md").read_text(encoding="utf-8") in written
    printed = capsys.readouterr().out
    errors = [
        line for line in printed.splitlines() if line.startswith("::error title=Agent evals - regression::")
    ]
    assert len(errors) == 1 and "Δ -5.00" in errors[0]


def test_outside_actions_nothing_is_annotated(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = project / "runs" / "bad"
    assert main(["run", "--scenario", "trial-run", "--agent", "replay:regressed", "--out", str(out)]) == 1
    assert "::error" not in capsys.readouterr().out
