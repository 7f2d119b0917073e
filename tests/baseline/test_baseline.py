"""Blessing a baseline, recording nightly history, and what a missing or corrupt baseline does."""

from __future__ import annotations

import json
import statistics
from pathlib import Path

import pytest

from evals.cli import main
from tests.support.agents import FailingTrialsAgent, set_config
from tests.support.project import read_summary


def run_reference(project: Path, name: str = "ref", agent: str = "replay:reference") -> Path:
    out = project / "runs" / name
    main(["run", "--scenario", "trial-run", "--agent", agent, "--out", str(out)])
    return out


def test_blessing_keeps_per_trial_points_spread_provenance_and_fingerprint(project: Path) -> None:
    out = run_reference(project)
    assert main(["baseline", "bless", "--run", str(out)]) == 0
    blessed = json.loads((project / "baseline" / "baseline.json").read_text())
    scenario = blessed["scenarios"]["trial-run"]
    assert scenario["trials"][0]["parts"]["T3a"] == 1 and scenario["trials"][0]["total"] == 7
    assert scenario["criteria_pass_rate"]["T3"] == 1 and scenario["categories_pass_rate"]["code"] == 1
    assert scenario["pass_at_k"] == 1 and scenario["pass_pow_k"] == 1
    assert blessed["source"]["run"] == "ref" and blessed["source"]["date"]
    assert blessed["agent"]["config_hash"] and "judge/T5.md" in json.dumps(blessed["fingerprint"])
    assert [p.name for p in (project / "baseline").iterdir() if p.name.startswith(".")] == []


def run_with_verdict(project: Path, verdict: str) -> Path:
    """A run whose verdict, recomputed from its records by `bless` (which never trusts summary.json),
    is `verdict`: each made the way a real run gets there."""
    if verdict == "regression":
        return run_reference(project, agent="replay:regressed")
    if verdict == "error":  # two trials of three failed for infrastructure reasons
        FailingTrialsAgent.down = {0, 1}
        out = project / "runs" / "ref"
        try:
            main(
                [
                    "run",
                    "--agent",
                    "tests.support.agents:FailingTrialsAgent",
                    "--trials",
                    "3",
                    "--out",
                    str(out),
                ]
            )
        finally:
            FailingTrialsAgent.down = set()
        return out
    if verdict == "not-comparable":  # the judge model changed after the run
        out = run_reference(project)
        set_config(project, judge={"model": "claude-another-judge"})
        return out
    assert verdict == "inconclusive"  # a 2.5-point drop against a baseline too noisy to call it
    path = project / "baseline" / "baseline.json"
    baseline = json.loads(path.read_text())
    entry = baseline["scenarios"]["trial-run"]
    for trial in entry["trials"][1::2]:  # totals 7, 2, 7, 2: what the regressed replay loses
        trial["parts"] = {p: 0.0 if p in ("T1b", "T3a", "T3b", "T4", "T5") else 1.0 for p in trial["parts"]}
        trial["total"] = 2.0
    totals = [t["total"] for t in entry["trials"]]
    entry["total_mean"], entry["total_stdev"] = statistics.mean(totals), statistics.stdev(totals)
    entry["parts"] = {p: statistics.mean(t["parts"][p] for t in entry["trials"]) for p in entry["parts"]}
    path.write_text(json.dumps(baseline))
    return run_reference(project, agent="replay:regressed")


def test_an_errored_or_unfinished_run_is_not_blessed(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = (project / "baseline" / "baseline.json").read_text()
    unfinished = project / "runs" / "unfinished"
    unfinished.mkdir(parents=True)
    assert main(["baseline", "bless", "--run", str(unfinished)]) == 2
    out = run_with_verdict(project, "error")
    assert main(["baseline", "bless", "--run", str(out)]) == 2
    died = run_reference(project, name="died")
    (died / "results.jsonl").write_text("")  # the agent step died before its first trial finished
    capsys.readouterr()
    assert main(["baseline", "bless", "--run", str(died), "--force"]) == 3
    assert "no trial finished" in capsys.readouterr().err
    assert (project / "baseline" / "baseline.json").read_text() == before


def test_a_corrupt_baseline_is_bad_input_and_starts_no_run(project: Path) -> None:
    (project / "baseline" / "baseline.json").write_text('{"version": 1, "scenarios": ')
    out = project / "runs" / "never"
    assert main(["run", "--scenario", "trial-run", "--agent", "replay:reference", "--out", str(out)]) == 2
    assert not out.exists()


def test_a_missing_baseline_is_a_notice_not_a_failure(project: Path) -> None:
    (project / "baseline" / "baseline.json").unlink()
    out = run_reference(project, agent="replay:regressed")
    summary = read_summary(out)
    assert summary["verdict"] == "pass"
    assert "no baseline" in (out / "report.md").read_text()


def test_history_gets_one_line_per_run_however_often_the_job_reruns(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = run_reference(project)
    assert main(["baseline", "history", "--run", str(out)]) == 0
    assert main(["baseline", "history", "--run", str(out)]) == 0
    lines = (project / "baseline" / "history.jsonl").read_text().splitlines()
    assert len(lines) == 1
    entry = json.loads(lines[0])
    assert entry["run"] == "ref" and entry["verdict"] == "pass"
    assert entry["scenarios"]["trial-run"]["per_trial"] == [7.0] and entry["total"]["mean"] == 7
    assert entry["total"]["ci"] == [0, 0]  # a deterministic replay against a spread-free baseline
    assert "Already recorded" in capsys.readouterr().out


@pytest.mark.parametrize("verdict", ["regression", "inconclusive", "not-comparable", "error"])
def test_a_run_that_did_not_pass_is_refused_unless_forced(
    project: Path, capsys: pytest.CaptureFixture[str], verdict: str
) -> None:
    out = run_with_verdict(project, verdict)
    baseline = project / "baseline" / "baseline.json"
    before = baseline.read_text()
    summary = read_summary(out)
    summary["verdict"] = "pass"  # a summary.json that says otherwise changes nothing: bless recomputes
    (out / "summary.json").write_text(json.dumps(summary))
    capsys.readouterr()
    assert main(["baseline", "bless", "--run", str(out)]) == 2
    err = capsys.readouterr().err
    assert f"verdict {verdict}" in err and ("--force" in err or "--resume" in err)  # the next step
    assert baseline.read_text() == before
    assert main(["baseline", "bless", "--run", str(out), "--force"]) == 0
    said = capsys.readouterr().out
    assert f"verdict {verdict}" in said and f"carries a {verdict} verdict" in said
    assert baseline.read_text() != before


def test_blessing_says_the_verdict_and_delta_of_what_it_blesses(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = project / "runs" / "bad"
    assert main(["run", "--scenario", "trial-run", "--agent", "replay:regressed", "--out", str(bad)]) == 1
    capsys.readouterr()
    assert main(["baseline", "bless", "--run", str(bad)]) == 2
    err = capsys.readouterr().err
    summary = read_summary(bad)
    assert f"Δ {summary['total']['delta']:+.2f}" in err and "verdict regression" in err
    ok = run_reference(project, "ok")
    capsys.readouterr()
    assert main(["baseline", "bless", "--run", str(ok)]) == 0
    assert "verdict pass" in capsys.readouterr().out
