"""`replay:NAME`: re-execute a recorded or scripted tool-call sequence against a fresh world.

Fixtures live in `scenario/<name>/replays/NAME.yaml`. Arguments may refer to earlier results with
`${step.path.to.value}`; a path segment `?TEXT` picks the first list item whose JSON contains TEXT,
so a fixture finds "the Sprint 4 row for #131" without hard-coding ids that differ between the
sandbox and live backends. `{$base64: TEXT}` encodes file content as GitHub expects.
"""

from __future__ import annotations

import base64
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pydantic import Field

from evals.agents.base import AgentPrompts, AgentResult
from evals.core.errors import BadInputError
from evals.core.loading import load_model
from evals.core.model import StrictModel
from evals.scenario.folder import ScenarioFolder
from evals.scenario.params import instance_zero
from evals.world.toolset import Toolset

REF = re.compile(r"\$\{([^}]+)\}")


class Step(StrictModel):
    tool: str
    args: dict[str, Any] = Field(default_factory=dict)
    save: str | None = None


class ReplayFixture(StrictModel):
    description: str
    notes: str = ""
    steps: list[Step]
    final_text: str = ""
    expect_lost: list[str] | None = Field(
        default=None,
        description="a wrong replay's promise: exactly these rubric parts fall short of full marks "
        "(`python -m evals check-scenario` holds it to that)",
    )


def fixture_path(scenario_dir: Path, name: str) -> Path:
    return ScenarioFolder(scenario_dir).replay(name)


def load_fixture(scenario_dir: Path, name: str, render: Callable[[str], str] | None = None) -> ReplayFixture:
    """A replay fixture; `render` fills a parameterised task's placeholders (its instance; default:
    instance 0) first, so each instance's reference replay writes that instance's values."""
    path = fixture_path(scenario_dir, name)
    if not path.is_file():
        known = ScenarioFolder(scenario_dir).replays()
        raise BadInputError(f"{path}: no such replay (known: {', '.join(known) or 'none'})")
    return load_model(ReplayFixture, path, render or instance_zero(scenario_dir).render)


def lookup(context: dict[str, Any], dotted: str) -> Any:
    value: Any = context
    for part in dotted.split("."):
        if isinstance(value, list) and part.startswith("?"):
            needle = part[1:]
            value = next((item for item in value if needle in json.dumps(item, ensure_ascii=False)), None)
        elif isinstance(value, list) and part.lstrip("-").isdigit():
            index = int(part)
            value = value[index] if -len(value) <= index < len(value) else None
        elif isinstance(value, dict):
            value = value.get(part)
        else:
            value = None
        if value is None:
            raise KeyError(dotted)
    return value


def render(value: Any, context: dict[str, Any]) -> Any:
    if isinstance(value, dict):
        if set(value) == {"$base64"}:
            text = render(value["$base64"], context)
            return base64.b64encode(str(text).encode()).decode()
        return {k: render(v, context) for k, v in value.items()}
    if isinstance(value, list):
        return [render(v, context) for v in value]
    if isinstance(value, str):
        whole = REF.fullmatch(value)
        if whole:
            return lookup(context, whole.group(1))
        return REF.sub(lambda m: str(lookup(context, m.group(1))), value)
    return value


class ReplayAgent:
    def __init__(self, fixture: ReplayFixture, name: str, variables: dict[str, Any]) -> None:
        self.fixture = fixture
        self.name = name
        self.variables = variables

    async def __call__(self, prompts: AgentPrompts, toolset: Toolset) -> AgentResult:
        context: dict[str, Any] = dict(self.variables)
        for number, step in enumerate(self.fixture.steps):
            try:
                args = render(step.args, context)
            except KeyError as exc:
                raise BadInputError(
                    f"replay {self.name}: step {number} ({step.tool}): unknown reference ${{{exc.args[0]}}}"
                ) from exc
            result = await toolset.call(step.tool, args)
            if step.save:
                context[step.save] = result
        return AgentResult(
            termination="replay_end", turns=len(self.fixture.steps), final_text=self.fixture.final_text
        )
