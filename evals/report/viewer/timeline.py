"""A transcript as the viewer's timeline: the model's turns (its thinking and the text it wrote
between tool calls, each marked), and each tool call with its arguments and result drawn as what
they are (`evals.report.viewer.results`) and their raw JSON without base64; and the prompts it was
given.

Bounded so any 100-trial run fits one page: long strings are cut (`MAX_STRING`), a large tool result
is shown as its first `MAX_VALUE` characters (the whole is in the trial's transcript.json).
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import orjson

from evals.report.viewer.results import present
from evals.report.viewer.results.raw import elided, is_base64_blob
from evals.report.viewer.results.shapes import Seen

if TYPE_CHECKING:
    from evals.agents.base import ToolCall, Transcript

MAX_STRING = 2_000
MAX_VALUE = 20_000


def clip(value: Any, limit: int = MAX_STRING) -> Any:
    """A JSON value with every string cut to `limit` characters (saying how much was cut)."""
    if isinstance(value, str):
        return value if len(value) <= limit else f"{value[:limit]}… [{len(value) - limit} more characters]"
    if isinstance(value, list):
        return [clip(v, limit) for v in value]
    if isinstance(value, dict):
        return {str(k): clip(v, limit) for k, v in value.items()}
    return value


def bounded(value: Any, where: str) -> Any:
    """A tool call's arguments or result as the raw view shows it, base64 elided: whole when
    small, a large one as the first `MAX_VALUE` characters of its indented JSON, saying where the
    rest is. A value with nothing elided is returned as it is, not parsed back from its text (a
    27-task run's viewer parsed 3,000 such texts: a tenth of `compare`'s CPU)."""
    text, replaced = elided(value)
    if len(text) <= MAX_VALUE:
        return orjson.loads(text) if replaced else value
    return f"{text[:MAX_VALUE]}\n… [{len(text) - MAX_VALUE} more characters in {where}]"


def brief(args: Any) -> str:
    """The call's short arguments on one line (`query="in:inbox" max_results=20`): what a reader
    scans a timeline by; long values (bodies, contents) are in the views below it."""
    if not isinstance(args, dict):
        return ""
    shown = []
    for key, value in args.items():
        short = isinstance(value, str) and len(value) <= 60 and not is_base64_blob(value)
        if short or isinstance(value, bool | int | float):
            shown.append(f"{key}={json.dumps(value, ensure_ascii=False)}")
    return " ".join(shown)[:240]


def _tool_entry(
    call: ToolCall | None, name: str, args: Any, seen: Seen, where: str = "transcript.json"
) -> dict[str, Any]:
    if call is None:  # the model asked for a tool the harness did not run (not on the allow-list)
        return {
            "kind": "tool",
            "tool": name,
            "brief": brief(args),
            "args": bounded(args, where),
            "ok": False,
            "result": None,
            "index": None,
            "args_view": [],
            "view": [],
        }
    args_view, view = present(call.tool, call.args, call.result, seen)
    return {
        "kind": "tool",
        "index": call.index,
        "tool": call.tool,
        "brief": brief(call.args),
        "args": bounded(call.args, where),
        "result": bounded(call.result, where),
        "args_view": args_view,
        "view": view,
        "ok": bool(call.result.get("successful", True)) and not call.result.get("error"),
        "latency_s": round(call.latency_s, 4),
    }


def _said(entries: list[dict[str, Any]]) -> None:
    """Mark the model's last text as its final answer; the rest it said between tool calls."""
    texts = [e for e in entries if e["kind"] == "model"]
    for e in texts:
        e["said"] = "between tool calls"
    if texts and entries[-1] is texts[-1]:
        texts[-1]["said"] = "final answer"


def _content_entry(block: dict[str, Any], turn: int) -> dict[str, Any] | None:
    """An assistant content block other than a tool call: text, thinking (marked), or any other
    kind by its type."""
    kind = block.get("type")
    if kind == "text":
        text = str(block.get("text", ""))
        return {"kind": "model", "turn": turn, "text": clip(text, 8_000)} if text.strip() else None
    if kind == "thinking":
        return {"kind": "thinking", "turn": turn, "text": clip(str(block.get("thinking", "")), 8_000)}
    if kind == "redacted_thinking":
        return {"kind": "thinking", "turn": turn, "text": "(redacted by the API: encrypted thinking)"}
    return {
        "kind": "other",
        "turn": turn,
        "type": str(kind),
        "text": clip(json.dumps(block, ensure_ascii=False)),
    }


def timeline(transcript: Transcript) -> list[dict[str, Any]]:
    """Model turns and tool calls in order. A model agent's messages give the turns (thinking and
    text, then the tool calls it asked for, matched in order to the calls the harness recorded); an
    agent without messages (a replay, a custom agent) has its tool calls and final text. Each call
    has its views (`evals.report.viewer.results`), read in order so a write is seen against the read
    before it."""
    calls = list(transcript.tool_calls)
    seen = Seen()
    entries: list[dict[str, Any]] = []
    turn = 0
    for message in transcript.messages:
        if message.get("role") != "assistant" or not isinstance(message.get("content"), list):
            continue
        turn += 1
        for block in message["content"]:
            if not isinstance(block, dict):
                continue
            if block.get("type") == "tool_use":
                name = str(block.get("name", ""))
                call = calls.pop(0) if calls and calls[0].tool == name else None
                entries.append({**_tool_entry(call, name, block.get("input") or {}, seen), "turn": turn})
            elif (entry := _content_entry(block, turn)) is not None:
                entries.append(entry)
    entries += [_tool_entry(call, call.tool, call.args, seen) for call in calls]
    if not transcript.messages and transcript.final_text:
        entries.append({"kind": "model", "turn": None, "text": clip(transcript.final_text, 8_000)})
    _said(entries)
    return entries


def prompts_view(transcript: Transcript) -> dict[str, Any] | None:
    """The prompts the agent was given: system, the agent's addendum, task and personas. A
    transcript written before they were recorded has, at most, the task as the first user message."""
    if transcript.prompts is not None:
        return clip(transcript.prompts.model_dump(mode="json"), 20_000)  # type: ignore[no-any-return]
    first = next((m for m in transcript.messages if m.get("role") == "user"), None)
    if first is None:
        return None
    content = first.get("content")
    text = (
        content
        if isinstance(content, str)
        else "".join(
            str(b.get("text", "")) for b in content or [] if isinstance(b, dict) and b.get("type") == "text"
        )
    )
    return {
        "task": clip(text, 20_000),
        "note": "recorded before prompts were: the task from the first message only",
    }
