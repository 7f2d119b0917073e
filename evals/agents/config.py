"""`agent/agent.yaml`: the Claude agent's model, limits, sampling and tool allowlist.

This file (with the prompt it points to) is what a pull request changes and what the gate judges,
so it is validated strictly: a misspelt `max_turn` silently ignored would run a different agent
from the one the reviewer read.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import Field

from evals.core.errors import BadInputError
from evals.core.loading import load_model
from evals.core.model import FrozenModel

AGENT_FILE = "agent.yaml"


class Thinking(FrozenModel):
    """`thinking` as the Messages API takes it (sent only when configured; unset: the model's default,
    adaptive on Claude Sonnet 5.5). `display: summarized` returns the thinking text, and on Sonnet 5.5
    the notes written between tool calls, which come back as thinking blocks (empty when omitted)."""

    type: Literal["adaptive", "between_tools", "enabled", "disabled"] = "adaptive"
    display: Literal["summarized", "omitted"] | None = None
    budget_tokens: int | None = Field(default=None, ge=1024, description="only with type enabled")


class AgentConfig(FrozenModel):
    model: str = Field(min_length=1, description="model id; also the key into the pricing file")
    max_turns: int = Field(default=60, gt=0, description="model calls per trial before it is stopped")
    max_tokens: int = Field(
        default=16_000,
        gt=0,
        description="output tokens per model response, thinking included (the Messages API docs' "
        "thinking examples use 16000; a reply cut off here ends the trial)",
    )
    max_total_tokens: int | None = Field(
        default=None, gt=0, description="input + output tokens per trial before it is stopped (none: no cap)"
    )
    temperature: float | None = Field(
        default=None,
        ge=0,
        le=1,
        description="none: the model's default. Set, it is sent with anthropic-version 2023-06-01, "
        "because version 2026-10-21 (anthropic SDK 2.x) rejects sampling parameters",
    )
    effort: Literal["low", "medium", "high", "xhigh", "max"] | None = Field(
        default=None, description="output_config.effort; none: the model's default"
    )
    thinking: Thinking | None = Field(default=None, description="none: the model's default thinking")
    tools: list[str] = Field(default_factory=list, description="allowlist of tool slugs; empty: every tool")
    max_tool_result_chars: int | None = Field(
        default=40_000,
        gt=0,
        description="a longer tool result reaches the model cut to this many characters, with a note "
        "saying how much was left out and how to ask for less (the transcript keeps it whole); "
        "none: never cut. Live results (mail with payloads) can be tens of thousands of tokens",
    )
    system_addendum: str | None = Field(
        default=None,
        description="file (relative to the project root) appended to the scenario's system prompt",
    )
    max_retries: int = Field(
        default=4, ge=0, le=20, description="SDK retries on 429, 529, 5xx, lost connections"
    )
    timeout_s: float = Field(default=600.0, gt=0, description="per model request, retries excluded")


def load_agent_config(agent_dir: Path) -> tuple[AgentConfig, str]:
    """The config and the text of its system addendum (empty when it has none)."""
    config = load_model(AgentConfig, agent_dir / AGENT_FILE)
    addendum = ""
    if config.system_addendum:
        path = agent_dir.parent / config.system_addendum
        if not path.is_file():
            raise BadInputError(f"{agent_dir / AGENT_FILE}: system_addendum: {path} not found")
        addendum = path.read_text(encoding="utf-8").strip()
    return config, addendum
