"""A run killed after some trials finished keeps them; `run --resume DIR` runs only what is missing."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from evals.cli import main
from tests.support.agents import AGENT, DyingAgent, lines
from tests.support.project import read_summary


@pytest.fixture(autouse=True)
def _reset(monkeypatch: pytest.MonkeyPatch) -> None:
    DyingAgent.kill_at[0], DyingAgent.flaky_at[0] = None, None
    DyingAgent.ran.clear()
    # in-process: a loaded machine must never let Ctrl-C's grace watchdog end the test process itself
    monkeypatch.setattr("evals.run.interrupt.GRACE_S", 600.0)


def test_a_run_killed_midway_and_resumed_ends_with_every_trial_done_exactly_once(project: Path) -> None:
    out = project / "runs" / "killed"
    DyingAgent.kill_at[0] = 2
    code = main(["run", "--agent", AGENT, "--trials", "5", "--concurrency", "1", "--out", str(out)])
    assert code == 130  # interrupted (SIGINT), never a verdict
    # what finished before the kill is kept; the trial in progress is recorded as interrupted
    assert [(r["trial"], r["status"]) for r in lines(out)] == [(0, "ok"), (1, "ok"), (2, "error")]
    assert not (out / "summary.json").exists()

    assert main(["run", "--resume", str(out)]) in (0, 1)  # a verdict, not an error
    assert Counter(r["trial"] for r in lines(out)) == {0: 1, 1: 1, 2: 1, 3: 1, 4: 1}
    assert DyingAgent.ran == [0, 1, 2, 3, 4]  # finished trials were not run again
    summary = read_summary(out)
    assert len(summary["trials"]["trial-run"]) == 5
    meta = json.loads((out / "run.json").read_text())
    assert meta["trials"] == 5 and len(meta["resumed"]) == 1


def test_resume_reruns_a_trial_that_failed_for_infrastructure_reasons(project: Path) -> None:
    out = project / "runs" / "flaky"
    DyingAgent.flaky_at[0] = 1
    main(["run", "--agent", AGENT, "--trials", "3", "--concurrency", "1", "--out", str(out)])
    assert [r["status"] for r in lines(out)] == ["ok", "error", "ok"]
    main(["run", "--resume", str(out)])
    assert DyingAgent.ran == [0, 1, 2, 1]
    assert read_summary(out)["scenarios"]["trial-run"]["errored"] == 0


def test_resume_refuses_a_directory_that_is_not_a_run(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (project / "runs" / "empty").mkdir(parents=True)
    assert main(["run", "--resume", str(project / "runs" / "empty")]) == 2
    assert "not a run directory" in capsys.readouterr().err
    assert not (project / "runs" / "empty" / "results.jsonl").exists()


def test_resume_uses_the_runs_own_settings_and_refuses_others(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = project / "runs" / "settings"
    main(["run", "--agent", AGENT, "--trials", "1", "--out", str(out)])
    assert main(["run", "--resume", str(out), "--agent", "replay:reference", "--trials", "3"]) == 2
    assert "drop --agent, --trials" in capsys.readouterr().err


def test_resume_refuses_a_run_whose_agent_changed_since(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = project / "runs" / "changed"
    DyingAgent.kill_at[0] = 1
    main(["run", "--agent", AGENT, "--trials", "2", "--concurrency", "1", "--out", str(out)])
    prompt = project / "agent" / "prompt.md"
    prompt.write_text(prompt.read_text() + "\nAlso be brief.\n")
    assert main(["run", "--resume", str(out)]) == 2
    assert "agent changed since this run started" in capsys.readouterr().err
    assert [(r["trial"], r["status"]) for r in lines(out)] == [(0, "ok"), (1, "error")]  # 1: interrupted
