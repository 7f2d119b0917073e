"""A team's own agent, the smallest useful one: the `--agent module:callable` interface in use.

`python -m evals run --agent tests.support.example_agent:agent` runs it. It reads the inbox and acknowledges
the newest email in its thread. It talks to no model, so it only earns the points an acknowledgement
can; what it shows is the contract: prompts and a toolset in, tool calls through the toolset, return
when done (a string summary, None, or an AgentResult with usage and a termination reason).
"""

from __future__ import annotations

from typing import Any

from evals.agents import AgentPrompts, AgentResult
from evals.world.toolset import Toolset


async def agent(prompts: AgentPrompts, toolset: Toolset) -> str | None:
    inbox = await toolset.call("GMAIL_FETCH_EMAILS", {"query": "in:inbox", "max_results": 5})
    if not inbox["successful"] or not inbox["data"]["messages"]:
        return None
    newest = inbox["data"]["messages"][0]
    await toolset.call(
        "GMAIL_REPLY_TO_THREAD",
        {
            "thread_id": newest["threadId"],
            "recipient_email": newest["sender"],
            "message_body": "Thanks, I have your request and am on it.",
        },
    )
    return f"acknowledged: {newest['subject']}"


class CountingAgent:
    """A class-based agent: the harness makes one instance per trial, so `calls` never leaks across."""

    instances = 0

    def __init__(self) -> None:
        CountingAgent.instances += 1
        self.calls = 0

    async def __call__(self, prompts: AgentPrompts, toolset: Toolset) -> AgentResult:
        tools: list[dict[str, Any]] = toolset.schemas()
        for _ in range(2):
            self.calls += 1
            await toolset.call("GMAIL_FETCH_EMAILS", {"max_results": 1})
        return AgentResult(final_text=f"{len(tools)} tools, {self.calls} calls", turns=self.calls)
