"""k trials per scenario: concurrent up to a limit, each in its own world, errors kept out of scores."""

from __future__ import annotations

import asyncio
import io
import json
import re
from pathlib import Path
from typing import Any, ClassVar

import pytest
import yaml
from rich.console import Console

from evals.agents import AgentPrompts
from evals.cli import main
from evals.errors import InfrastructureError
from evals.tools.base import Toolset
from tests.conftest import read_summary


def trial_of(prompts: AgentPrompts) -> int:
    """The trial number, from the per-trial repository the system prompt names."""
    found = re.search(r"demo-repo-(\d+)", prompts.system)
    assert found is not None
    return int(found.group(1))


class InFlightAgent:
    """Counts how many trials are inside their agent at once; yields so others can start."""

    running = 0
    most: ClassVar[list[int]] = [0]

    async def __call__(self, prompts: AgentPrompts, toolset: Toolset) -> str:
        InFlightAgent.running += 1
        InFlightAgent.most[0] = max(InFlightAgent.most[0], InFlightAgent.running)
        for _ in range(5):
            await asyncio.sleep(0)
        await toolset.call("GMAIL_FETCH_EMAILS", {"max_results": 1})
        InFlightAgent.running -= 1
        return "looked"


class FailingTrialsAgent:
    """The API is 'down' for the trials listed in `down`: an infrastructure error, not a bad score."""

    down: ClassVar[set[int]] = set()

    async def __call__(self, prompts: AgentPrompts, toolset: Toolset) -> str:
        trial = trial_of(prompts)
        await toolset.call("GMAIL_FETCH_EMAILS", {"max_results": 1})
        if trial in FailingTrialsAgent.down:
            raise InfrastructureError(f"Messages API unreachable in trial {trial}")
        return "fine"


def results(out: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]


def set_config(project: Path, **changes: Any) -> None:
    path = project / "evals.yaml"
    data = yaml.safe_load(path.read_text())
    data.update(changes)
    path.write_text(yaml.safe_dump(data))


@pytest.fixture(autouse=True)
def _reset() -> None:
    InFlightAgent.running, InFlightAgent.most[0] = 0, 0
    FailingTrialsAgent.down = set()


def test_trials_run_concurrently_up_to_the_limit_and_never_beyond(project: Path) -> None:
    out = project / "runs" / "limit"
    agent = "tests.test_trials:InFlightAgent"
    main(["run", "--agent", agent, "--trials", "5", "--concurrency", "2", "--out", str(out)])
    assert InFlightAgent.most[0] == 2
    assert sorted(r["trial"] for r in results(out)) == [0, 1, 2, 3, 4]


def test_the_concurrency_limit_comes_from_evals_yaml_without_the_flag(project: Path) -> None:
    set_config(project, concurrency=1)
    main(["run", "--agent", "tests.test_trials:InFlightAgent", "--trials", "3", "--out", str(project / "r")])
    assert InFlightAgent.most[0] == 1


def test_every_trial_has_its_own_world_nothing_leaks_between_trials(project: Path) -> None:
    out = project / "runs" / "isolated"
    agent = "tests.example_agent:agent"
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
    agent = "tests.test_trials:FailingTrialsAgent"
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
        ["run", "--agent", "tests.test_trials:FailingTrialsAgent", "--trials", "3", "--out", str(out)]
    )
    assert code == 3
    assert read_summary(out)["verdict"] == "error"


def test_the_progress_bar_counts_trials_done_running_and_failed(project: Path) -> None:
    from evals.config import load_config
    from evals.rundir import RunDir
    from evals.runner import plan, progress_bar, run_trials

    FailingTrialsAgent.down = {0, 2}
    config, root = load_config(project)
    p = plan(
        root, config, scenarios=None, agent="tests.test_trials:FailingTrialsAgent", trials=3, baseline=None
    )
    bar = progress_bar(Console(file=io.StringIO(), width=120))
    with bar:
        asyncio.run(run_trials(p, RunDir(project / "runs" / "bar"), bar))
    task = bar.tasks[0]
    assert (task.completed, task.total) == (3, 3)
    assert task.fields == {"running": 0, "failed": 2}
    printed = bar.console.file.getvalue()  # type: ignore[attr-defined]
    assert "trial-run#0 errored" in printed and "trial-run#2 errored" in printed
