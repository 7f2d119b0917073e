"""Turn an `--agent` spec into one agent per trial.

Specs: `replay:NAME`, `claude`, `package.module:callable` (a team's own agent), and `auto`
(claude when ANTHROPIC_API_KEY is set, otherwise the scenario's offline replays, one per trial in turn).

A team's own agent is `async def agent(prompts, toolset) -> AgentResult | str | None`, or a class
whose instances are such callables: the class is instantiated (without arguments) once per trial,
so no state leaks from one trial into another. The module is imported from the project root.
"""

from __future__ import annotations

import importlib
import inspect
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, cast

from evals.agents.base import Agent
from evals.agents.replay import ReplayAgent, load_fixture
from evals.core.errors import BadInputError
from evals.core.suggest import did_you_mean
from evals.scenario.folder import ScenarioFolder
from evals.scenario.model import Scenario

if TYPE_CHECKING:
    from evals.core.config import AgentLimits


@dataclass(frozen=True)
class AgentChoice:
    """A resolved spec: its label for reports and a factory for one trial's agent.

    `deterministic`: the same trial always does the same thing (replays), so more trials of it tell
    nothing new and the gate never adds any (evals/gate/sequential.py)."""

    spec: str
    label: str
    make: Callable[[int], Agent]
    deterministic: bool = False
    addendum: str = ""  # what the agent appends to the system prompt (the Claude agent's prompt.md)


def _replay(scenario: Scenario, scenario_dir: Path, names: list[str]) -> Callable[[int], Agent]:
    known = ScenarioFolder(scenario_dir).replays()
    for name in names:
        if name not in known:
            raise BadInputError(
                f"--agent replay:{name}: scenario {scenario.name} has no replays/{name}.yaml"
                f"{did_you_mean(name, known)} (known: {', '.join(known) or 'none'})"
            )
    # validate before any trial runs, each rendered for the scenario's instance
    fixtures = {name: load_fixture(scenario_dir, name, scenario.instance.render) for name in names}

    def make(trial: int) -> Agent:
        name = names[trial % len(names)]
        variables = {
            "repo": {"owner": scenario.repo.owner, "name": scenario.repo_name(trial)},
            "agent": {"address": scenario.agent_address},
            "persona": {p.id: p.address for p in scenario.personas},
        }
        return ReplayAgent(fixtures[name], name, variables)

    return make


def _custom(spec: str, project: Path) -> Callable[[int], Agent]:
    module_name, _, attr = spec.partition(":")
    if str(project) not in sys.path:
        sys.path.append(str(project))  # the team's agent lives in their repo, next to evals.yaml
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise BadInputError(f"--agent {spec}: cannot import {module_name}: {exc}") from exc
    target = getattr(module, attr, None)
    if target is None or not callable(target):
        raise BadInputError(f"--agent {spec}: {module_name} has no callable {attr!r}")
    if inspect.isclass(target):
        if not inspect.iscoroutinefunction(vars(target).get("__call__")):
            raise BadInputError(
                f"--agent {spec}: class {attr} needs an `async def __call__(prompts, toolset)`"
            )
        cls = cast(Callable[[], Agent], target)
        return lambda trial: cls()
    method = vars(type(target)).get("__call__")
    if not inspect.iscoroutinefunction(target) and not inspect.iscoroutinefunction(method):
        raise BadInputError(f"--agent {spec}: {attr} must be an async function (prompts, toolset)")
    agent: Agent = target
    return lambda trial: agent


NO_KEY_IN_ACTIONS = (
    "agent: auto found no ANTHROPIC_API_KEY in GitHub Actions: the run would replay recorded runs and "
    "compare them with recorded runs, measuring nothing of the agent. Add the ANTHROPIC_API_KEY secret "
    "to the `evals` environment (and pass it to the reusable workflow), or set the repository variable "
    "EVALS_AGENT=replay:NAME to run replays on purpose"
)


def auto_spec(scenario: Scenario) -> str:
    """`auto`: Claude with a key; without one, the scenario's offline replays, but never silently in
    GitHub Actions, where a green check from replays would read as the agent having passed."""
    if os.environ.get("ANTHROPIC_API_KEY"):
        return "claude"
    if os.environ.get("GITHUB_ACTIONS") == "true":
        raise BadInputError(NO_KEY_IN_ACTIONS)
    return "replay:" + ",".join(scenario.offline_replays)


def resolve_agent(
    spec: str, scenario: Scenario, scenario_dir: Path, agent_dir: Path, floors: AgentLimits | None = None
) -> AgentChoice:
    """The agent `spec` names for this scenario; `floors` are the loaded definition's `agent_limits`
    (None: the evals.yaml beside `agent_dir`, read when a Claude agent needs them)."""
    if spec == "auto":
        spec = auto_spec(scenario)
    if spec.startswith("replay:"):
        names = [n for n in spec[len("replay:") :].split(",") if n]
        if not names:
            raise BadInputError("--agent replay:NAME needs a replay name")
        return AgentChoice(spec, spec, _replay(scenario, scenario_dir, names), deterministic=True)
    if spec == "claude":
        from evals.agents.claude import claude_agent_factory

        label, make, addendum = claude_agent_factory(agent_dir, floors)
        return AgentChoice(spec, label, make, addendum=addendum)
    if ":" in spec:
        return AgentChoice(spec, spec, _custom(spec, agent_dir.parent))
    replays = [f"replay:{name}" for name in ScenarioFolder(scenario_dir).replays()]
    raise BadInputError(
        f"--agent {spec!r}: expected auto, claude, replay:NAME or module:callable"
        f"{did_you_mean(spec, ['auto', 'claude', *replays])}"
    )
