"""The simulated world's tools: Composio-shaped, typed functions over a `World`.

A tool is a typed function whose docstring is its description and whose pydantic parameter model is
its JSON schema (the tau2 pattern), under its Composio slug. Each service module collects its tools
in its own `Toolkit` (`TOOLS`), and `evals.world.sandbox.tools.catalogue.build()` joins them: no module-wide
registry filled by import side effects. Every result is the Composio envelope
`{"data": ..., "successful": bool, "error": str | None}`; bad arguments or a refused operation give
an error envelope, as the real service would, and the trial goes on.

The contract every world serves the agent (envelope, toolset, tool error) is `evals.world.toolset`;
this module is how the sandbox defines its tools (tool, toolkit, parameter base). It needs the
sandbox World only as a type.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from pydantic import BaseModel, ValidationError

from evals.core.model import StrictModel

if TYPE_CHECKING:
    from evals.world.sandbox.model import World

P = TypeVar("P", bound=BaseModel)


class Params(StrictModel):
    """Base for tool parameter models: unknown parameters are an error, as a typo should be."""


@dataclass(frozen=True)
class Tool:
    slug: str
    description: str
    params: type[BaseModel]
    run: Callable[[World, Any], Any]
    # How refused arguments read: None is Composio's "Invalid arguments: ..."; a toolkit whose
    # service checks the nested content itself (Notion's blocks) answers in that service's words.
    describe: Callable[[ValidationError], str] | None = None
    # A service's refusal of the raw request before its parameters are validated (Notion's request
    # size limits), or None when it takes any request its parameter model takes.
    admit: Callable[[object], str | None] | None = None

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

    def __init__(
        self,
        name: str,
        describe: Callable[[ValidationError], str] | None = None,
        admit: Callable[[object], str | None] | None = None,
    ) -> None:
        self.name = name
        self.describe = describe
        self.admit = admit
        self.tools: dict[str, Tool] = {}

    def tool(
        self, slug: str, params: type[P]
    ) -> Callable[[Callable[[World, P], Any]], Callable[[World, P], Any]]:
        """Add a sandbox tool: its parameters are Composio's at the pinned toolkit version."""

        def add(fn: Callable[[World, P], Any]) -> Callable[[World, P], Any]:
            if slug in self.tools:
                raise ValueError(f"tool {slug} defined twice in the {self.name} toolkit")
            self.tools[slug] = Tool(
                slug=slug,
                description=inspect.getdoc(fn) or slug,
                params=params,
                run=fn,
                describe=self.describe,
                admit=self.admit,
            )
            return fn

        return add
