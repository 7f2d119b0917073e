"""The agent contract: `async agent(prompts, toolset) -> AgentResult | str | None`.

An agent gets the scenario's prompts and a toolset, does its work through tool calls, and returns
when done. The harness records every tool call itself (RecordingToolset), so a team's own agent gets
a full transcript without doing anything; agents that talk to a model return an AgentResult with
their messages, usage and termination reason on top.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, Literal

from pydantic import Field

from evals.core.model import StrictModel
from evals.core.usage import Usage
from evals.scenario.model import Persona
from evals.world.toolset import Envelope, Toolset

# How a trial ended. A model-driven agent ends on the model's stop reason (`end_turn`, `stop_sequence`,
# `refusal`, `model_context_window_exceeded`, `max_tokens` for a reply cut off) or on a limit of the
# harness (`max_turns`, and `max_tokens` for the per-trial token budget).
Termination = Literal[
    "end_turn",
    "stop_sequence",
    "refusal",
    "model_context_window_exceeded",
    "max_turns",
    "max_tokens",
    "replay_end",
    "returned",
    "error",
    "interrupted",
]


class AgentPrompts(StrictModel):
    system: str
    task: str


class PersonaShown(StrictModel):
    id: str
    name: str
    role: str
    address: str


class PromptsShown(StrictModel):
    """The prompts a trial's agent was given, kept in its transcript so a reader sees what it was
    asked: the scenario's system prompt and task (rendered for the trial), the agent's system
    addendum (a model agent appends it), and the personas who appear in the world."""

    system: str
    addendum: str = ""
    task: str
    personas: list[PersonaShown] = Field(default_factory=list)


def prompts_shown(prompts: AgentPrompts, addendum: str, personas: Sequence[Persona]) -> PromptsShown:
    people = [PersonaShown(id=p.id, name=p.name, role=p.role, address=p.address) for p in personas]
    return PromptsShown(system=prompts.system, addendum=addendum, task=prompts.task, personas=people)


class ToolCall(StrictModel):
    index: int
    tool: str
    args: dict[str, Any]
    result: dict[str, Any]
    latency_s: float


class AgentResult(StrictModel):
    """What a model-driven agent reports beyond its tool calls."""

    model: str | None = None
    messages: list[dict[str, Any]] = Field(default_factory=list)
    usage: Usage = Field(default_factory=Usage)
    turns: int = 0
    termination: Termination = "returned"
    final_text: str = ""
    model_calls: list[dict[str, Any]] = Field(default_factory=list, description="per call: usage, latency")


class Transcript(AgentResult):
    """Everything that happened in one trial, as the harness saw it."""

    agent: str
    tool_calls: list[ToolCall] = Field(default_factory=list)
    latency_s: float = 0.0
    error: str | None = None
    prompts: PromptsShown | None = Field(default=None, description="absent from transcripts written before")


Agent = Callable[[AgentPrompts, Toolset], Awaitable[AgentResult | str | None]]


class RecordingToolset:
    """Wraps a toolset and records each call, in order, with its latency."""

    def __init__(self, inner: Toolset) -> None:
        self.inner = inner
        self.calls: list[ToolCall] = []

    def schemas(self) -> list[dict[str, Any]]:
        return self.inner.schemas()

    async def call(self, slug: str, args: dict[str, Any]) -> Envelope:
        started = time.perf_counter()
        result = await self.inner.call(slug, args)
        self.calls.append(
            ToolCall(
                index=len(self.calls),
                tool=slug,
                args=args,
                result=result,
                latency_s=round(time.perf_counter() - started, 6),
            )
        )
        return result
