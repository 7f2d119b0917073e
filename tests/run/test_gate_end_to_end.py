"""The whole gate on the trial run, offline: seed, replay, grade, compare, report, exit code."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from evals.cli import main
from evals.core.jsonio import sha256_text
from evals.gate.part_fingerprint import part_fingerprints
from evals.grade.rubric import load_rubric
from tests.support.paths import ROOT
from tests.support.project import read_summary


def test_reference_replay_scores_seven_of_seven_and_passes(project: Path) -> None:
    out = project / "runs" / "ref"
    assert main(["run", "--scenario", "trial-run", "--agent", "replay:reference", "--out", str(out)]) == 0
    summary = read_summary(out)
    assert summary["verdict"] == "pass"
    assert summary["total"]["mean"] == 7
    assert summary["total"]["baseline"] == 7
    assert set(summary["criteria"]) == {"T1", "T2", "T3", "T4", "T5"}
    assert all(c["mean"] == c["max"] for c in summary["criteria"].values())
    assert set(summary["categories"]) == {"communication", "code", "documentation"}
    assert summary["trials"]["trial-run"][0]["total"] == 7
    lines = (out / "results.jsonl").read_text().splitlines()
    assert len(lines) == 1 and json.loads(lines[0])["status"] == "ok"
    for name in ("world.json", "outcome.json", "transcript.json", "grade.json"):
        assert (out / "trials" / "trial-run" / "0" / name).is_file()


def test_regressed_replay_fails_the_gate_and_names_what_dropped(project: Path) -> None:
    out = project / "runs" / "bad"
    assert main(["run", "--scenario", "trial-run", "--agent", "replay:regressed", "--out", str(out)]) == 1
    summary = read_summary(out)
    assert summary["verdict"] == "regression"
    assert summary["total"]["mean"] == 2
    assert summary["total"]["delta"] == -5
    report = (out / "report.md").read_text()
    assert report.splitlines()[1].startswith("## ❌ Agent evals: **regression**")
    what_dropped = report.split("**What dropped**")[1].split("<details>")[0]
    for criterion in ("T3", "T4", "T5"):
        assert f"**{criterion}**" in what_dropped
    assert "FLAG_THRESHOLD = 0.8" in what_dropped
    assert "**T2**" not in what_dropped


def test_no_arguments_runs_the_default_suite_offline(
    full_project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`make run` (`evals run`) on a fresh clone: the smoke suite, Nightshift replaying the three
    published runs."""
    assert main(["run"]) == 0
    printed = capsys.readouterr().out
    readme = (ROOT / "README.md").read_text(encoding="utf-8").split("## Quickstart", 1)[1]
    shown = next(line for line in readme.splitlines() if line.startswith("Verdict: "))
    assert shown in printed.splitlines()  # what the quickstart says `make run` ends with
    report = Path(printed.split("Report: ")[1].strip())
    assert report.is_file() and report.parent.parent == full_project / "runs"
    summary = read_summary(report.parent)
    assert summary["verdict"] == "pass"
    assert summary["scenarios"]["trial-run"]["total"]["mean"] == 7
    assert summary["scenarios"]["nightshift"]["total"]["per_trial"][:3] == [16, 19, 20]
    assert summary["scenarios"]["nightshift"]["total"]["mean"] == pytest.approx(55 / 3, abs=1e-3)
    # the smoke suite spans every tier: pass rates per tier, tasks as the units
    tiers = summary["tiers"]
    assert set(tiers) == {"L1", "L2", "L3"} and tiers["L3"]["tasks"] == ["nightshift", "log-retention"]
    # tasks are the units: Nightshift passes 2 of its 3 published runs, log-retention's replays all three
    assert tiers["L3"]["pass_at_1"] == pytest.approx((2 / 3 + 1) / 2, abs=1e-3)
    assert tiers["L3"]["pass_pow_k"] == pytest.approx((0 + 1) / 2)
    assert tiers["L1"]["pass_pow_k"] == 1 and len(tiers["L1"]["tasks"]) == 6
    assert "**By tier**" in report.read_text(encoding="utf-8")


def test_help_exits_zero(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--help"]) == 0
    assert "run" in capsys.readouterr().out


def test_evals_alone_prints_help_and_runs_nothing(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: evals") and "Exit codes" in out
    assert not (project / "runs").exists()


def test_unknown_option_is_a_usage_error() -> None:
    assert main(["run", "--no-such-flag"]) == 2


def test_regrading_a_stored_run_gives_the_same_scores(project: Path) -> None:
    out = project / "runs" / "ref"
    main(["run", "--scenario", "trial-run", "--agent", "replay:regressed", "--out", str(out)])
    before = read_summary(out)["criteria"]
    assert main(["grade", "--run", str(out)]) == 1
    assert read_summary(out)["criteria"] == before
    # the re-grade replaced the trial's line: one line per trial, always (records/validate.py)
    assert len((out / "results.jsonl").read_text().splitlines()) == 1


def test_blessing_a_run_makes_it_the_baseline(project: Path) -> None:
    bad = project / "runs" / "bad"
    main(["run", "--scenario", "trial-run", "--agent", "replay:regressed", "--out", str(bad)])
    assert main(["baseline", "bless", "--run", str(bad), "--force"]) == 0
    blessed = json.loads((project / "baseline" / "baseline.json").read_text())
    assert blessed["scenarios"]["trial-run"]["total_mean"] == 2
    assert blessed["scenarios"]["trial-run"]["trials"][0]["parts"]["T3a"] == 0
    again = project / "runs" / "again"
    assert main(["run", "--scenario", "trial-run", "--agent", "replay:regressed", "--out", str(again)]) == 0


def without_labels(project: Path) -> None:
    """No key and no labels: the judge cannot decide. The labels are part of the fingerprint (of the
    scenario and of each judged part), so the baseline is told about the new (empty) file; only the
    judge's inability is under test here."""
    folder = project / "scenario" / "trial-run"
    labels = folder / "labels.yaml"
    labels.write_text("labels: []\n")
    path = project / "baseline" / "baseline.json"
    baseline = json.loads(path.read_text())
    baseline["fingerprint"]["scenarios"]["trial-run"]["labels"] = sha256_text(labels.read_text())
    baseline["fingerprint"]["scenarios"]["trial-run"].update(part_fingerprints(load_rubric(folder), folder))
    path.write_text(json.dumps(baseline))


def test_a_judge_that_cannot_decide_is_neither_a_regression_nor_a_pass(project: Path) -> None:
    """Without a key or labels the judged parts are unscored: not a regression (the parts both sides
    scored did not drop), and not a pass either (#38): the baseline measured them and this run could
    not, so the verdict is `error` (exit 3), naming them first."""
    without_labels(project)
    out = project / "runs" / "nojudge"
    assert main(["run", "--scenario", "trial-run", "--agent", "replay:reference", "--out", str(out)]) == 3
    summary = read_summary(out)
    assert summary["verdict"] == "error"
    assert summary["reasons"][0].startswith("trial-run: unmeasured: T1b, T5 scored in the baseline")
    assert summary["scenarios"]["trial-run"]["unscored"] == {"T1b": 1, "T5": 1}
    assert summary["comparison"]["trial-run"]["excluded_parts"] == ["T1b", "T5"]
    assert summary["comparison"]["trial-run"]["delta"] == 0
    assert any("T1b, T5" in notice for notice in summary["notices"])


def test_a_real_drop_is_still_caught_while_judged_parts_are_unscored(project: Path) -> None:
    without_labels(project)
    out = project / "runs" / "nojudge-bad"
    assert main(["run", "--scenario", "trial-run", "--agent", "replay:regressed", "--out", str(out)]) == 1
    summary = read_summary(out)
    assert summary["comparison"]["trial-run"]["delta"] == -4
    assert summary["verdict"] == "regression"
    assert any(r.startswith("trial-run: unmeasured: T1b scored in the baseline") for r in summary["reasons"])
