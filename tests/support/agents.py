"""Agents written for tests (`--agent tests.support.agents:NAME`), and small helpers for their runs."""

from __future__ import annotations

import asyncio
import json
import re
import signal
from pathlib import Path
from typing import Any, ClassVar

import yaml

from evals.agents import AgentPrompts
from evals.core.errors import InfrastructureError
from evals.world.toolset import Toolset


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


class DyingAgent:
    """Presses Ctrl-C when trial `kill_at` starts, once: a real SIGINT, delivered as Python 3.11's
    `asyncio.run` delivers it (the running task is cancelled, then KeyboardInterrupt is raised)."""

    kill_at: ClassVar[list[int | None]] = [None]
    flaky_at: ClassVar[list[int | None]] = [None]
    ran: ClassVar[list[int]] = []

    async def __call__(self, prompts: AgentPrompts, toolset: Toolset) -> str:
        trial = trial_of(prompts)
        if trial == DyingAgent.kill_at[0]:
            DyingAgent.kill_at[0] = None
            signal.raise_signal(signal.SIGINT)
            await asyncio.sleep(0)  # the cancellation lands at the next suspension point
        DyingAgent.ran.append(trial)
        await toolset.call("GMAIL_FETCH_EMAILS", {"max_results": 1})
        if trial == DyingAgent.flaky_at[0]:
            DyingAgent.flaky_at[0] = None
            raise InfrastructureError("Messages API overloaded after retries")
        return "done"


AGENT = "tests.support.agents:DyingAgent"


def lines(out: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]


async def _signalled_at_trial_1(signum: signal.Signals, prompts: AgentPrompts, toolset: Toolset) -> str:
    """Has the process signalled when trial 1 starts: what a cancelled CI job (SIGTERM) or Ctrl-C
    (SIGINT) does to a run, delivered at a known point so nothing depends on timing."""
    if trial_of(prompts) == 1:
        signal.raise_signal(signum)
        await asyncio.sleep(0)  # where asyncio delivers a SIGINT's cancellation
    await toolset.call("GMAIL_FETCH_EMAILS", {"max_results": 1})
    return "done"


class SigtermAgent:
    async def __call__(self, prompts: AgentPrompts, toolset: Toolset) -> str:
        return await _signalled_at_trial_1(signal.SIGTERM, prompts, toolset)


class SigintAgent:
    async def __call__(self, prompts: AgentPrompts, toolset: Toolset) -> str:
        return await _signalled_at_trial_1(signal.SIGINT, prompts, toolset)


class HangingAgent:
    """Says it started (one line on stdout, for the test to signal after), then waits forever: a
    trial in progress when Ctrl-C comes."""

    async def __call__(self, prompts: AgentPrompts, toolset: Toolset) -> str:
        print(f"agent started trial {trial_of(prompts)}", flush=True)
        await asyncio.Event().wait()
        return "never"


class StubbornAgent:
    """As HangingAgent, but ignores being cancelled: a trial that would hold the run past Ctrl-C
    (as a grading thread does), so only a second Ctrl-C or the grace period ends it."""

    async def __call__(self, prompts: AgentPrompts, toolset: Toolset) -> str:
        print(f"agent started trial {trial_of(prompts)}", flush=True)
        while True:
            try:
                await asyncio.Event().wait()
            except asyncio.CancelledError:
                print("agent ignored the cancellation", flush=True)
