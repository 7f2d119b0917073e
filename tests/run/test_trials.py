"""k trials per scenario: concurrent up to a limit, each in its own world, errors kept out of scores."""

from __future__ import annotations

import asyncio
import io
import json
from pathlib import Path

import pytest
from rich.console import Console

from evals.cli import main
from tests.support.agents import FailingTrialsAgent, InFlightAgent, results, set_config
from tests.support.project import read_summary


@pytest.fixture(autouse=True)
def _reset() -> None:
    InFlightAgent.running, InFlightAgent.most[0] = 0, 0
    FailingTrialsAgent.down = set()


def test_trials_run_concurrently_up_to_the_limit_and_never_beyond(project: Path) -> None:
    out = project / "runs" / "limit"
    agent = "tests.support.agents:InFlightAgent"
    main(["run", "--agent", agent, "--trials", "5", "--concurrency", "2", "--out", str(out)])
    assert InFlightAgent.most[0] == 2
    assert sorted(r["trial"] for r in results(out)) == [0, 1, 2, 3, 4]


def test_the_concurrency_limit_comes_from_evals_yaml_without_the_flag(project: Path) -> None:
    set_config(project, concurrency=1)
    agent = "tests.support.agents:InFlightAgent"
    main(["run", "--agent", agent, "--trials", "3", "--out", str(project / "r")])
    assert InFlightAgent.most[0] == 1


def test_every_trial_has_its_own_world_nothing_leaks_between_trials(project: Path) -> None:
    out = project / "runs" / "isolated"
    agent = "tests.support.example_agent:agent"
    main(["run", "--agent", agent, "--trials", "3", "--concurrency", "3", "--out", str(out)])
    for trial in range(3):
        outcome = json.loads((out / "trials" / "trial-run" / str(trial) / "outcome.json").read_text())
        assert outcome["trial"] == trial
        assert len(outcome["sent"]) == 1  # its own reply only, never another trial's
        world = json.loads((out / "trials" / "trial-run" / str(trial) / "world.json").read_text())
        assert f"demo-repo-{trial}" in json.dumps(world["repos"])


def test_an_infrastructure_error_is_recorded_and_excluded_from_scores(project: Path) -> None:
    FailingTrialsAgent.down = {1}
    out = project / "runs" / "one-down"
    agent = "tests.support.agents:FailingTrialsAgent"
    main(["run", "--agent", agent, "--trials", "3", "--out", str(out)])
    by_trial = {r["trial"]: r for r in results(out)}
    assert by_trial[1]["status"] == "error" and by_trial[1]["grade"] is None
    assert "unreachable in trial 1" in by_trial[1]["error"]
    assert by_trial[0]["status"] == by_trial[2]["status"] == "ok"
    summary = read_summary(out)
    assert summary["verdict"] != "error"  # 1 of 3 is within the default share of 0.5
    assert summary["scenarios"]["trial-run"]["errored"] == 1


def test_more_errored_trials_than_the_configured_share_makes_the_verdict_error(project: Path) -> None:
    set_config(project, max_error_share=0.2)
    FailingTrialsAgent.down = {1}
    out = project / "runs" / "too-many"
    code = main(
        ["run", "--agent", "tests.support.agents:FailingTrialsAgent", "--trials", "3", "--out", str(out)]
    )
    assert code == 3
    assert read_summary(out)["verdict"] == "error"


def test_the_progress_bar_counts_trials_done_running_and_failed(project: Path) -> None:
    from evals.core.config import load_config
    from evals.records.rundir import RunDir
    from evals.run.runner import plan, progress_bar, run_trials

    FailingTrialsAgent.down = {0, 2}
    config, root = load_config(project)
    p = plan(
        root, config, scenarios=None, agent="tests.support.agents:FailingTrialsAgent", trials=3, baseline=None
    )
    bar = progress_bar(Console(file=io.StringIO(), width=120))
    with bar:
        asyncio.run(run_trials(p, RunDir(project / "runs" / "bar"), bar))
    task = bar.tasks[0]
    assert (task.completed, task.total) == (3, 3)
    assert task.fields == {"running": 0, "failed": 2}
    printed = bar.console.file.getvalue()  # type: ignore[attr-defined]
    assert "trial-run#0 errored" in printed and "trial-run#2 errored" in printed
