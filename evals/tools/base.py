"""What the agent sees: Composio-shaped tools over a world.

A tool is a typed function whose docstring is its description and whose pydantic parameter model is
its JSON schema (the tau2 pattern), registered under its Composio slug. Every result is the Composio
envelope `{"data": ..., "successful": bool, "error": str | None}`; bad arguments or a refused
operation give an error envelope, as the real service would, and the trial goes on.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError

from evals.world.model import World

Envelope = dict[str, Any]
P = TypeVar("P", bound=BaseModel)


class ToolError(Exception):
    """Raised inside a tool for a refusal the real service would give (not found, stale sha...)."""


class Params(BaseModel):
    """Base for tool parameter models: unknown parameters are an error, as a typo should be."""

    model_config = ConfigDict(extra="forbid")


@dataclass(frozen=True)
class Tool:
    slug: str
    description: str
    params: type[BaseModel]
    run: Callable[[World, Any], Any]
    confirmed: bool

    @property
    def toolkit(self) -> str:
        return self.slug.split("_", 1)[0].lower()

    def schema(self) -> dict[str, Any]:
        """Anthropic tool definition: name, description, input_schema."""
        return {
            "name": self.slug,
            "description": self.description,
            "input_schema": self.params.model_json_schema(),
        }


CATALOGUE: dict[str, Tool] = {}


def tool(
    slug: str, params: type[P], *, confirmed: bool = True
) -> Callable[[Callable[[World, P], Any]], Callable[[World, P], Any]]:
    """Register a sandbox tool. `confirmed=False` marks a schema not confirmed against Composio's."""

    def register(fn: Callable[[World, P], Any]) -> Callable[[World, P], Any]:
        if slug in CATALOGUE:
            raise ValueError(f"tool {slug} registered twice")
        CATALOGUE[slug] = Tool(
            slug=slug, description=inspect.getdoc(fn) or slug, params=params, run=fn, confirmed=confirmed
        )
        return fn

    return register


def ok(data: Any) -> Envelope:
    return {"data": data, "successful": True, "error": None}


def fail(message: str) -> Envelope:
    return {"data": {}, "successful": False, "error": message}


def _describe(exc: ValidationError) -> str:
    parts = []
    for err in exc.errors():
        where = ".".join(str(p) for p in err["loc"]) or "arguments"
        parts.append(f"{where}: {err['msg']}")
    return "Invalid arguments: " + "; ".join(parts)


class Toolset(Protocol):
    """The contract an agent gets: tool definitions, and `call(slug, args) -> envelope`."""

    def schemas(self) -> list[dict[str, Any]]: ...

    async def call(self, slug: str, args: dict[str, Any]) -> Envelope: ...


class SandboxToolset:
    """Tools bound to one trial's world. Nothing is shared between trials."""

    def __init__(self, world: World, allow: list[str] | None = None) -> None:
        from evals.tools import catalogue  # noqa: F401  (registers every tool)

        self.world = world
        slugs = sorted(CATALOGUE) if not allow else [s for s in sorted(CATALOGUE) if s in set(allow)]
        self.tools = {slug: CATALOGUE[slug] for slug in slugs}

    def schemas(self) -> list[dict[str, Any]]:
        return [t.schema() for t in self.tools.values()]

    def execute(self, slug: str, args: dict[str, Any]) -> Envelope:
        found = self.tools.get(slug)
        if found is None:
            return fail(f"Unknown tool {slug!r}")
        try:
            params = found.params.model_validate(args if isinstance(args, dict) else {})
        except ValidationError as exc:
            return fail(_describe(exc))
        try:
            return ok(found.run(self.world, params))
        except ToolError as exc:
            return fail(str(exc))

    async def call(self, slug: str, args: dict[str, Any]) -> Envelope:
        return self.execute(slug, args)
