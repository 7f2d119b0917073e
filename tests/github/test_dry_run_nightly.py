"""Dry run of the nightly workflow: plan, two shards, fan-in, on the sandbox with offline replays."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.support.actions import NOT_CHECKED_OUT, Runner
from tests.support.paths import FIXTURES, ROOT
from tests.support.stubs.anthropic_stub import StubAnthropic, text

DISPATCH = FIXTURES / "webhooks" / "workflow_dispatch.json"


def dispatch(tmp_path: Path, suite: str, trials: str) -> Runner:
    event = json.loads(DISPATCH.read_text(encoding="utf-8"))
    event["inputs"] = {"suite": suite, "trials": trials}
    # No model key here: replays on purpose (without EVALS_AGENT, `auto` is refused in Actions).
    return Runner(
        tmp_path,
        "workflow_dispatch",
        event,
        event["repository"]["full_name"],
        inputs=event["inputs"],
        vars={"EVALS_AGENT": "replay:reference"},
    )


def test_the_nightly_merges_two_shards_into_one_report_with_every_trial_counted_once(tmp_path: Path) -> None:
    runner = dispatch(tmp_path, suite="trial-run", trials="5")
    jobs = runner.run("evals-nightly.yml")

    (plan,) = jobs["plan"]
    assert plan.result == "success", plan.log()
    assert [m["slice"] for m in json.loads(plan.outputs["matrix"])["include"]] == ["0/2", "1/2"]

    shards = jobs["shard"]
    assert len(shards) == 2 and all(s.result == "success" for s in shards), [s.log() for s in shards]
    shard_trials = []
    for name in ("shard-trial-run-0-of-2", "shard-trial-run-1-of-2"):
        lines = (runner.artifacts / name / "results.jsonl").read_text(encoding="utf-8").splitlines()
        shard_trials.append(sorted(json.loads(line)["trial"] for line in lines))
    assert shard_trials == [[0, 1], [2, 3, 4]]

    (fan_in,) = jobs["fan-in"]
    assert fan_in.result == "success", fan_in.log()
    merged = runner.artifacts / "nightly-run"
    results = [
        json.loads(line) for line in (merged / "results.jsonl").read_text(encoding="utf-8").splitlines()
    ]
    assert sorted((r["scenario"], r["trial"]) for r in results) == [("trial-run", t) for t in range(5)]
    summary = json.loads((merged / "summary.json").read_text(encoding="utf-8"))
    assert summary["scenarios"]["trial-run"]["k"] == 5
    assert summary["scenarios"]["trial-run"]["errored"] == 0
    assert [t["trial"] for t in summary["trials"]["trial-run"]] == [0, 1, 2, 3, 4]
    assert summary["verdict"] == "pass"
    assert "Agent evals" in fan_in.summary  # the report went to the job summary

    candidate = runner.artifacts / "candidate-baseline"
    baseline = json.loads((candidate / "baseline.json").read_text(encoding="utf-8"))
    assert baseline["scenarios"]["trial-run"]["k"] == 5
    assert sorted(t["trial"] for t in baseline["scenarios"]["trial-run"]["trials"]) == [0, 1, 2, 3, 4]
    history = (candidate / "history.jsonl").read_text(encoding="utf-8").splitlines()
    assert json.loads(history[-1])  # one line appended for this run
    assert f"carries the verdict **{summary['verdict']}**" in fan_in.summary  # said, whatever it is
    assert fan_in.step("Compare with the current baseline (the gate)").returncode == 0

    # the gate's own record (#30): tonight's A/A check and the canary job's run, in the candidate
    (canary,) = jobs["canary"]
    assert canary.result == "success", canary.log()
    assert (runner.artifacts / "canary-run" / "run.json").is_file()
    lines = (candidate / "operating.jsonl").read_text(encoding="utf-8").splitlines()
    records = {r["kind"]: r for r in map(json.loads, lines)}
    assert len(lines) == 2 and set(records) == {"aa", "canary"}
    assert records["aa"]["halves"] == {"trial-run": [3, 2]}  # five trials split alternately
    assert records["canary"]["verdict"] == "regression"  # the planted regression was caught

    # the judge job ran its measurement step, and without a key said so rather than passing (#42)
    (judge,) = jobs["judge"]
    assert judge.result == "success", judge.log()
    assert "agreement not measured tonight: no ANTHROPIC_API_KEY" in judge.summary
    assert not (candidate / "judge.jsonl").exists()  # nothing measured, ever: no record to hand on


def test_the_scheduled_nightly_plans_every_scenario_with_the_default_trials(tmp_path: Path) -> None:
    event = json.loads(DISPATCH.read_text(encoding="utf-8"))
    del event["inputs"]  # a schedule event has no inputs
    runner = Runner(tmp_path, "schedule", event, event["repository"]["full_name"])
    (plan,) = runner.run("evals-nightly.yml", only=["plan"])["plan"]
    assert plan.result == "success", plan.log()
    assert plan.outputs["trials"] == "6"
    matrix = json.loads(plan.outputs["matrix"])["include"]
    scenarios = sorted(p.name for p in (ROOT / "scenario").iterdir() if (p / "scenario.yaml").is_file())
    assert sorted({m["scenario"] for m in matrix}) == scenarios
    assert sorted(m["slice"] for m in matrix) == sorted(["0/2", "1/2"] * len(scenarios))


def _night(n: int, mean: float) -> dict[str, object]:
    """A history line as nights before per-category means were recorded wrote it."""
    return {
        "run": f"nightly-{1000 + n}",
        "started": f"2026-11-{n + 1:02d}T03:23:00Z",
        "verdict": "pass",
        "total": {"mean": mean, "max": 7, "baseline": 7.0, "delta": mean - 7, "ci": None},
        "scenarios": {"trial-run": {"k": 5, "errored": 0, "mean": mean, "stdev": 0.5}},
    }


def judged_nights(tmp_path: Path, project: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Two nights of the judge job alone, with a model key (the stub Messages server as a judge that
    always answers 1)
    and one Actions cache between them: the first asks the judge and records, the second is
    answered from the restored cache, asks nothing and records again. The record it uploads."""
    for extra in (project / "scenario" / "trial-run" / "replays").glob("*.yaml"):
        if extra.stem not in {"reference", "regressed"}:  # the two that carry trial-run's labels
            extra.unlink()
    answer = text('Critique.\n{"critique": "reads it", "score": 1}')
    with StubAnthropic(default=lambda body: answer) as stub:
        monkeypatch.setenv("ANTHROPIC_BASE_URL", stub.url)
        asked = []
        for night in ("1", "2"):
            runner = dispatch(tmp_path / f"judge-{night}", suite="trial-run", trials="2")
            runner.project, runner.caches, runner.run_id = project, tmp_path / "caches", f"70{night}"
            runner.secrets = {"ANTHROPIC_API_KEY": "sk-test-nightly-judge"}
            (judge,) = runner.run("evals-nightly.yml", only=["judge"])["judge"]
            assert judge.result == "success", judge.log()
            assert "The judge against people (tonight's measurement)" in judge.summary
            asked.append(len(stub.requests))
            (project / "baseline" / "judge.jsonl").unlink(missing_ok=True)  # each night from the checkout
            shutil.copy(runner.artifacts / "judge-record" / "judge.jsonl", project / "baseline")
    assert asked[0] > 0 and asked[1] == asked[0]  # an unchanged judge costs nothing the second night
    return project / "baseline" / "judge.jsonl"


def test_the_nightly_summary_shows_the_trend_chart_and_a_drift_notice(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Seven steady nights, then six low ones: tonight's run (7 / 7) cannot lift the 7-night mean
    back within the threshold, so the fan-in's job summary and report carry a drift notice. Before
    it, the judge job measured the judge with a key two nights running: its record reaches the
    report's judge line and the candidate baseline."""
    project = tmp_path / "repo"
    shutil.copytree(ROOT, project, ignore=NOT_CHECKED_OUT)
    record = judged_nights(tmp_path, project, monkeypatch)
    lines = [json.loads(line) for line in record.read_text(encoding="utf-8").splitlines()]
    assert [(x["kind"], x["source"]) for x in lines] == [("judge", "the bundled replays")] * 2
    assert lines[1]["overall"]["raw"] < lines[1]["min_agreement"] and lines[1]["alarms"]
    monkeypatch.delenv("ANTHROPIC_BASE_URL")
    history = project / "baseline" / "history.jsonl"
    nights = [_night(n, 7.0) for n in range(7)] + [_night(n, 4.0) for n in range(7, 13)]
    history.write_text("".join(json.dumps(n) + "\n" for n in nights), encoding="utf-8")

    runner = dispatch(tmp_path, suite="trial-run", trials="2")
    runner.project = project
    (fan_in,) = runner.run("evals-nightly.yml")["fan-in"]
    assert fan_in.result == "success", fan_in.log()

    assert "### Nightly trend (last 14 nights)" in fan_in.summary
    assert "```mermaid\nxychart-beta" in fan_in.summary
    assert "line [7.00, 7.00, 7.00, 7.00, 7.00, 7.00, 7.00, 4.00" in fan_in.summary
    assert "> ⚠️ **Drift:** the 7-night mean fell by 2.57 points" in fan_in.summary
    # tonight's line has category means; the old lines have none and are left out of that chart
    assert (
        "Categories, % of their points" in fan_in.summary and "| 2 | Communication | 100% |" in fan_in.summary
    )
    trend = (runner.artifacts / "nightly-run" / "trend.md").read_text(encoding="utf-8")
    assert "**Drift:**" in trend
    assert (runner.artifacts / "evals-viewer" / "viewer.html").is_file()

    # tonight's keyless judge job handed on the record it holds; the fan-in reported with it and put
    # it beside the candidate, where a person's `baseline bless` reads it
    (judge,) = runner.jobs["judge"]
    assert "not measured tonight" in judge.summary
    assert (runner.artifacts / "candidate-baseline" / "judge.jsonl").read_text(encoding="utf-8") == (
        record.read_text(encoding="utf-8")
    )
    # the stub judge always answers 1: no better than a constant judge, so the report raises the alarm
    assert "🚨 **Judge drift:** agreement below the floor: 67% < 80% on 3 labelled parts" in fan_in.summary


def test_a_shard_under_an_unchanged_judge_asks_nothing_the_judge_job_already_asked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The judge job judged the reference replay's labelled evidence last night and saved its cache;
    tonight's shards, with the model key, play the same replay: every judged part is answered from
    the restored cache, no call. Without the restore step each shard would ask again."""
    project = tmp_path / "repo"
    shutil.copytree(ROOT, project, ignore=NOT_CHECKED_OUT)
    judged_nights(tmp_path, project, monkeypatch)  # leaves its cache in tmp_path / "caches"
    answer = text('Critique.\n{"critique": "reads it", "score": 1}')
    with StubAnthropic(default=lambda body: answer) as stub:
        monkeypatch.setenv("ANTHROPIC_BASE_URL", stub.url)
        runner = dispatch(tmp_path / "tonight", suite="trial-run", trials="2")
        runner.project, runner.caches, runner.run_id = project, tmp_path / "caches", "703"
        runner.secrets = {"ANTHROPIC_API_KEY": "sk-test-nightly-judge"}
        jobs = runner.run("evals-nightly.yml", only=["plan", "shard"])
    shards = jobs["shard"]
    assert len(shards) == 2 and all(s.result == "success" for s in shards), [s.log() for s in shards]
    assert stub.requests == []  # an unchanged judge: no new call in any shard
    assert all("Restore the judge cache" in s.log() for s in shards)
    graded = [
        json.loads(line)
        for name in ("shard-trial-run-0-of-2", "shard-trial-run-1-of-2")
        for line in (runner.artifacts / name / "results.jsonl").read_text(encoding="utf-8").splitlines()
    ]
    sources = {p["judge"]["source"] for r in graded for p in r["grade"]["parts"] if p.get("judge")}
    assert sources == {"cache"}  # judged by the model's cached verdicts, not the offline labels
