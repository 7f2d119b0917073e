"""The sandbox toolset: every catalogued tool bound to one trial's World, Composio envelopes out, with
the scenario's injected faults (evals/world/sandbox/tools/faults.py) answered in place of the call."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pydantic import ValidationError

from evals.scenario.model import Fault
from evals.world.sandbox.model import World
from evals.world.sandbox.tools import catalogue
from evals.world.sandbox.tools.faults import FaultPlan
from evals.world.toolset import Envelope, ToolError, describe, fail, ok


class SandboxToolset:
    """Tools bound to one trial's world. Nothing is shared between trials."""

    def __init__(self, world: World, allow: list[str] | None = None, faults: Sequence[Fault] = ()) -> None:
        tools = catalogue.build()
        self.world = world
        self.faults = FaultPlan(faults)
        slugs = sorted(tools) if not allow else [s for s in sorted(tools) if s in set(allow)]
        self.tools = {slug: tools[slug] for slug in slugs}

    def schemas(self) -> list[dict[str, Any]]:
        return [t.schema() for t in self.tools.values()]

    def execute(self, slug: str, args: dict[str, Any]) -> Envelope:
        found = self.tools.get(slug)
        if found is None:
            return fail(f"Unknown tool {slug!r}")
        refused = found.admit(args) if found.admit is not None else None
        if refused is not None:
            return fail(refused)
        try:
            params = found.params.model_validate(args if isinstance(args, dict) else {})
        except ValidationError as exc:
            return fail((found.describe or describe)(exc))
        strike = self.faults.strike(slug)
        if strike is not None and not strike.applied:
            return fail(strike.error)
        try:
            result = ok(found.run(self.world, params))
        except ToolError as exc:
            return fail(str(exc))
        return fail(strike.error) if strike is not None else result

    async def call(self, slug: str, args: dict[str, Any]) -> Envelope:
        return self.execute(slug, args)
