"""Composio-shaped tools the agent calls: same slugs, JSON-schema inputs, `{data, successful, error}`."""

from evals.tools.base import CATALOGUE, SandboxToolset, Tool, Toolset

__all__ = ["CATALOGUE", "SandboxToolset", "Tool", "Toolset"]
