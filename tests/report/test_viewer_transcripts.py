"""A transcript shows what the agent was asked and what it said: the prompts (system, the agent's
addendum, task, personas) as the model received them, its thinking and the text between tool calls
each marked as such; a transcript written before prompts were recorded still loads and says so."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from evals.agents.base import ToolCall, Transcript
from evals.cli import main
from evals.report.viewer.timeline import prompts_view, timeline
from tests.support.stubs.anthropic_stub import StubAnthropic
from tests.support.stubs.reference_player import ReferencePlayer, is_judge


def test_a_claude_trial_records_the_prompts_the_model_received(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = project / "runs" / "claude"
    with StubAnthropic(default=ReferencePlayer(project / "scenario")) as stub:
        monkeypatch.setenv("ANTHROPIC_BASE_URL", stub.url)
        monkeypatch.setenv("ANTHROPIC_API_KEY", "stub-key-0123456789")
        main(["run", "--scenario", "trial-run", "--agent", "claude", "--out", str(out)])
    first = next(r for r in stub.requests if not is_judge(r))
    transcript = json.loads(
        (out / "trials" / "trial-run" / "0" / "transcript.json").read_text(encoding="utf-8")
    )
    prompts = transcript["prompts"]
    assert prompts["addendum"] == (project / "agent" / "prompt.md").read_text(encoding="utf-8").strip()
    assert first["system"][0]["text"] == prompts["system"].rstrip() + "\n\n" + prompts["addendum"]
    assert first["messages"][0]["content"][0]["text"] == prompts["task"]
    assert {p["id"] for p in prompts["personas"]} >= {"dev"} and all(
        "@" in p["address"] for p in prompts["personas"]
    )


def test_a_replay_records_the_scenarios_prompts_without_an_addendum(project: Path) -> None:
    out = project / "runs" / "replay"
    main(["run", "--agent", "replay:regressed", "--out", str(out)])
    transcript = json.loads(
        (out / "trials" / "trial-run" / "0" / "transcript.json").read_text(encoding="utf-8")
    )
    assert transcript["prompts"]["system"].startswith("You are a software engineer at Acme AI Labs.")
    assert transcript["prompts"]["addendum"] == ""


def _call(n: int, tool: str) -> ToolCall:
    return ToolCall(index=n, tool=tool, args={}, result={"data": {}, "successful": True}, latency_s=0.0)


def _transcript(content: list[dict[str, Any]], **extra: Any) -> Transcript:
    messages = [
        {"role": "user", "content": [{"type": "text", "text": "Check the latest task."}]},
        {"role": "assistant", "content": content},
    ]
    calls = [_call(n, b["name"]) for n, b in enumerate(c for c in content if c["type"] == "tool_use")]
    return Transcript.model_validate({"agent": "claude", "messages": messages, "tool_calls": calls, **extra})


def test_thinking_and_the_text_between_tool_calls_are_shown_and_marked() -> None:
    t = _transcript(
        [
            {"type": "thinking", "thinking": "The mail asks for 0.85.", "signature": "sig"},
            {"type": "text", "text": "Reading the inbox first."},
            {"type": "tool_use", "id": "t1", "name": "GMAIL_FETCH_EMAILS", "input": {}},
            {"type": "redacted_thinking", "data": "opaque"},
            {"type": "server_tool_use", "id": "s1", "name": "web_search", "input": {"q": "x"}},
            {"type": "text", "text": "Done: threshold raised."},
        ]
    )
    entries = timeline(t)
    assert [(e["kind"], e.get("said")) for e in entries] == [
        ("thinking", None),
        ("model", "between tool calls"),
        ("tool", None),
        ("thinking", None),
        ("other", None),
        ("model", "final answer"),
    ]
    assert entries[0]["text"] == "The mail asks for 0.85." and "redacted" in entries[3]["text"]
    assert entries[4]["type"] == "server_tool_use"


def test_a_transcript_from_before_prompts_were_recorded_loads_and_shows_its_task() -> None:
    t = _transcript([{"type": "text", "text": "ok"}])
    assert t.prompts is None
    shown = prompts_view(t)
    assert (
        shown is not None and shown["task"] == "Check the latest task." and "recorded before" in shown["note"]
    )
    assert prompts_view(Transcript(agent="replay:x")) is None
