"""The contract between the agent and any world: the tools it is offered and what a call returns.

Both worlds implement it, the simulated one (`evals.world.sandbox`) and the real services
(`evals.world.live`); agents, the runner and the graders import only this module, never a backend's
internals, so an agent written against the sandbox runs unchanged on live services. It is the
Composio shape, because that is what the live agent gets: every call answers the envelope
`{"data": ..., "successful": bool, "error": str | None}`, and a refusal the real service would give
(bad arguments, not found, a stale sha) is an error envelope the trial goes on after, never an
exception the agent has to catch.
"""

from __future__ import annotations

from typing import Any, Protocol

from pydantic import ValidationError

Envelope = dict[str, Any]


class ToolError(Exception):
    """Raised inside a tool for a refusal the real service would give (not found, stale sha...):
    the toolset turns it into an error envelope."""


class Toolset(Protocol):
    """What an agent gets: tool definitions, and `call(slug, args) -> envelope`."""

    def schemas(self) -> list[dict[str, Any]]: ...

    async def call(self, slug: str, args: dict[str, Any]) -> Envelope: ...


class ToolSpec(Protocol):
    """One tool of the catalogue every world serves: its Composio slug and Anthropic definition."""

    @property
    def slug(self) -> str: ...

    @property
    def description(self) -> str: ...

    def schema(self) -> dict[str, Any]: ...


def ok(data: Any) -> Envelope:
    return {"data": data, "successful": True, "error": None}


def fail(message: str) -> Envelope:
    return {"data": {}, "successful": False, "error": message}


def describe(exc: ValidationError) -> str:
    """Pydantic's complaint about a call's arguments, as the one-line error an agent can act on."""
    parts = []
    for err in exc.errors():
        where = ".".join(str(p) for p in err["loc"]) or "arguments"
        parts.append(f"{where}: {err['msg']}")
    return "Invalid arguments: " + "; ".join(parts)
