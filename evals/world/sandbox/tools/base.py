"""What the agent sees: Composio-shaped tools over a world.

A tool is a typed function whose docstring is its description and whose pydantic parameter model is
its JSON schema (the tau2 pattern), under its Composio slug. Each service module collects its tools
in its own `Toolkit` (`TOOLS`), and `evals.world.sandbox.tools.catalogue.build()` joins them: no module-wide
registry filled by import side effects. Every result is the Composio envelope
`{"data": ..., "successful": bool, "error": str | None}`; bad arguments or a refused operation give
an error envelope, as the real service would, and the trial goes on.

This module is the contract (tool, toolkit, envelope, toolset protocol); it needs the sandbox World
only as a type, so agents and the live backend can import it without loading the sandbox.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from pydantic import BaseModel, ValidationError

from evals.core.model import StrictModel

if TYPE_CHECKING:
    from evals.world.sandbox.model import World

Envelope = dict[str, Any]
P = TypeVar("P", bound=BaseModel)


class ToolError(Exception):
    """Raised inside a tool for a refusal the real service would give (not found, stale sha...)."""


class Params(StrictModel):
    """Base for tool parameter models: unknown parameters are an error, as a typo should be."""


@dataclass(frozen=True)
class Tool:
    slug: str
    description: str
    params: type[BaseModel]
    run: Callable[[World, Any], Any]

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


class Toolkit:
    """The tools one service module defines, by slug in definition order."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.tools: dict[str, Tool] = {}

    def tool(
        self, slug: str, params: type[P]
    ) -> Callable[[Callable[[World, P], Any]], Callable[[World, P], Any]]:
        """Add a sandbox tool: its parameters are Composio's at the pinned toolkit version."""

        def add(fn: Callable[[World, P], Any]) -> Callable[[World, P], Any]:
            if slug in self.tools:
                raise ValueError(f"tool {slug} defined twice in the {self.name} toolkit")
            self.tools[slug] = Tool(slug=slug, description=inspect.getdoc(fn) or slug, params=params, run=fn)
            return fn

        return add


def ok(data: Any) -> Envelope:
    return {"data": data, "successful": True, "error": None}


def fail(message: str) -> Envelope:
    return {"data": {}, "successful": False, "error": message}


def describe(exc: ValidationError) -> str:
    parts = []
    for err in exc.errors():
        where = ".".join(str(p) for p in err["loc"]) or "arguments"
        parts.append(f"{where}: {err['msg']}")
    return "Invalid arguments: " + "; ".join(parts)


class Toolset(Protocol):
    """The contract an agent gets: tool definitions, and `call(slug, args) -> envelope`."""

    def schemas(self) -> list[dict[str, Any]]: ...

    async def call(self, slug: str, args: dict[str, Any]) -> Envelope: ...
