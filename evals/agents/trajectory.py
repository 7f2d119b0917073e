"""Trajectory metrics from a transcript: how the agent got where it did, not whether it got there.

Cheap, deterministic signals that catch a change that keeps the score but breaks the process:
turns, tool calls, tool error rate, stuck loops (the same call three times in a row), and expected
tools never called.
"""

from __future__ import annotations

from typing import Any

from evals.agents.base import Transcript
from evals.core.jsonio import canonical


def refusal_category(transcript: Transcript) -> str | None:
    """The category the Messages API gave a refusal that ended the trial (`stop_details.category`),
    "unspecified" when it gave none; None when the trial did not end in a refusal."""
    if transcript.termination != "refusal":
        return None
    details = next(
        (c.get("stop_details") for c in reversed(transcript.model_calls) if c.get("stop_details")), None
    )
    category = details.get("category") if isinstance(details, dict) else None
    return str(category) if category else "unspecified"


def metrics(transcript: Transcript, expected_tools: list[str], cost_usd: float | None) -> dict[str, Any]:
    calls = transcript.tool_calls
    errors = sum(1 for c in calls if not c.result.get("successful", False))
    keys = [canonical([c.tool, c.args]) for c in calls]
    stuck = any(keys[i] == keys[i + 1] == keys[i + 2] for i in range(len(keys) - 2))
    used = {c.tool for c in calls}
    return {
        "turns": transcript.turns,
        "tool_calls": len(calls),
        "tool_errors": errors,
        "tool_error_rate": round(errors / len(calls), 4) if calls else 0.0,
        "stuck": stuck,
        "missing_tools": [t for t in expected_tools if t not in used],
        "termination": transcript.termination,
        "refusal_category": refusal_category(transcript),
        "latency_s": round(transcript.latency_s, 3),
        "cost_usd": cost_usd,
        **transcript.usage.model_dump(),
    }
