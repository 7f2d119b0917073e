"""`--agent claude`: the anthropic Messages API tool-use loop (see issue: the Claude agent under test)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from evals.agents.base import Agent
from evals.errors import BadInputError


def claude_agent_factory(agent_dir: Path) -> tuple[str, Callable[[int], Agent]]:
    raise BadInputError("--agent claude is not available yet in this version; use --agent replay:NAME")
