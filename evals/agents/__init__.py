"""Agents under test: `claude`, `replay:NAME`, and `module:callable`."""

from evals.agents.base import AgentPrompts, AgentResult, RecordingToolset, Transcript
from evals.agents.resolve import AgentChoice, resolve_agent

__all__ = ["AgentChoice", "AgentPrompts", "AgentResult", "RecordingToolset", "Transcript", "resolve_agent"]
