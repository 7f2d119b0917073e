"""The agent under test: `claude` (the Messages API loop), `replay:NAME`, and `module:callable`.

    base        the contract: `Agent` is `async (AgentPrompts, Toolset) -> AgentResult`; `Transcript`
    claude      the Messages API tool-use loop, with prompt caching and retries
    replay      replay fixtures: scripted tool calls re-executed against a fresh world
    resolve     an agent spec (`auto`, `claude`, `replay:NAME`, `module:callable`) to an agent
    config      agent/agent.yaml: model, limits, prompt addendum
    trajectory  how the agent got where it did: turns, tool errors, stuck

This package's face is what a `module:callable` agent needs, and nothing else: `AgentPrompts`,
`AgentResult`, `Transcript` and the `Toolset` it calls.
"""

from evals.agents.base import AgentPrompts, AgentResult, Transcript
from evals.world.toolset import Toolset

__all__ = ["AgentPrompts", "AgentResult", "Toolset", "Transcript"]
