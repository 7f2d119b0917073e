"""`--agent claude` drives the real anthropic SDK against the local stub Messages server."""

from __future__ import annotations

import json
import socket
from pathlib import Path
from typing import Any

import pytest
import yaml

from evals.cli import main
from evals.core.pricing import load_pricing
from evals.core.usage import Usage
from tests.support.claude_runs import (
    RUN,
    agent_requests,
    every_trial,
    read_json,
    results,
    scripted,
    set_agent,
    use_stub,
)
from tests.support.project import read_summary
from tests.support.stubs.anthropic_stub import StubAnthropic, error, message, text, tool_uses
from tests.support.stubs.reference_player import ReferencePlayer, flaky, is_judge


def test_a_correct_claude_run_completes_through_the_stub_and_scores_seven_of_seven(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    every_trial(project)
    out = project / "runs" / "claude"
    player = ReferencePlayer(project / "scenario")
    with StubAnthropic(default=player) as stub:
        use_stub(monkeypatch, stub.url)
        code = main([*RUN, "--trials", "2", "--out", str(out)])
    assert code == 0
    summary = read_summary(out)
    assert summary["verdict"] == "pass"
    assert summary["total"]["mean"] == 7
    assert [r["status"] for r in results(out)] == ["ok", "ok"]
    assert player.agent_calls == 12 and player.judge_calls > 0  # 6 model calls per trial


def test_every_tool_use_block_of_a_turn_is_answered_in_one_user_turn_in_order(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = project / "runs" / "order"
    with StubAnthropic(default=ReferencePlayer(project / "scenario")) as stub:
        use_stub(monkeypatch, stub.url)
        main([*RUN, "--out", str(out)])
    second = agent_requests(stub)[1]
    asked = second["messages"][1]["content"]
    answered = second["messages"][2]["content"]
    uses = [b["id"] for b in asked if b["type"] == "tool_use"]
    assert len(uses) == 5
    assert second["messages"][2]["role"] == "user"
    assert [b["tool_use_id"] for b in answered] == uses
    assert all(b["type"] == "tool_result" and b["is_error"] is False for b in answered)
    # the next turn creates a branch and commits to it in the same turn: order is what makes it work
    third_results = agent_requests(stub)[2]["messages"][4]["content"]
    assert len(third_results) == 7 and not any(b["is_error"] for b in third_results)


def test_tools_and_system_prompt_are_marked_for_prompt_caching_and_config_comes_from_agent_yaml(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    set_agent(project, max_tokens=777, model="claude-haiku-4-5", thinking=None)
    with StubAnthropic(default=ReferencePlayer(project / "scenario")) as stub:
        use_stub(monkeypatch, stub.url)
        main([*RUN, "--out", str(project / "runs" / "cache")])
    first, later = agent_requests(stub)[0], agent_requests(stub)[3]
    assert first["model"] == "claude-haiku-4-5" and first["max_tokens"] == 777
    assert "temperature" not in first  # unset: API version 2026-10-21 rejects sampling parameters
    agent_headers = [h for r, h in zip(stub.requests, stub.headers, strict=True) if not is_judge(r)]
    assert all(h["anthropic-version"] != "2023-06-01" for h in agent_headers)
    assert first["tools"][-1]["cache_control"] == {"type": "ephemeral"}
    assert all("cache_control" not in t for t in first["tools"][:-1])
    assert first["system"][-1]["cache_control"] == {"type": "ephemeral"}
    addendum = (project / "agent" / "prompt.md").read_text().strip()
    assert first["system"][0]["text"].endswith(addendum)
    assert "GitHub repository for this work is" in first["system"][0]["text"]
    # one moving breakpoint on the conversation: only the newest block is marked
    marked = [b for m in later["messages"] for b in m["content"] if "cache_control" in b]
    assert marked == [later["messages"][-1]["content"][-1]]


def test_the_transcript_holds_messages_tool_calls_usage_latency_cost_and_termination(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = project / "runs" / "transcript"
    with StubAnthropic(default=ReferencePlayer(project / "scenario")) as stub:
        use_stub(monkeypatch, stub.url)
        main([*RUN, "--out", str(out)])
    t = read_json(out / "trials" / "trial-run" / "0" / "transcript.json")
    assert t["termination"] == "end_turn" and t["turns"] == 6
    assert t["messages"][0]["role"] == "system" and t["messages"][1]["role"] == "user"
    assert [m["role"] for m in t["messages"][1:]] == ["user", "assistant"] * 6  # task, then 5 tool turns
    assert len(t["tool_calls"]) == 16
    pr = next(c for c in t["tool_calls"] if c["tool"] == "GITHUB_CREATE_A_PULL_REQUEST")
    assert pr["args"]["head"] == "fix/moderation-threshold" and pr["result"]["successful"] is True
    assert len(t["model_calls"]) == 6
    for call in t["model_calls"]:
        assert call["latency_s"] >= 0 and set(call["usage"]) == set(Usage.model_fields)
    assert t["usage"]["cache_read_input_tokens"] == 6 * 900
    assert t["final_text"].startswith("Fixed the threshold")
    metrics = results(out)[0]["metrics"]
    assert metrics["turns"] == 6 and metrics["tool_calls"] == 16 and metrics["missing_tools"] == []
    model = yaml.safe_load((project / "agent" / "agent.yaml").read_text())["model"]
    assert t["model"] == model
    price = load_pricing(project / "pricing.yaml").cost(model, Usage(**t["usage"]))
    assert price is not None and price > 0 and metrics["cost_usd"] == price


def test_with_a_fifth_of_responses_failing_with_429_529_or_500_every_trial_completes(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    every_trial(project)
    out = project / "runs" / "flaky"
    reply = flaky(ReferencePlayer(project / "scenario"), every=4)
    with StubAnthropic(default=reply) as stub:
        use_stub(monkeypatch, stub.url)
        code = main([*RUN, "--trials", "2", "--concurrency", "2", "--out", str(out)])
    failed = reply.counter["failed"]  # type: ignore[attr-defined]
    assert failed >= 3 and failed / len(stub.requests) == pytest.approx(0.2, abs=0.05)
    assert code == 0
    assert [r["status"] for r in results(out)] == ["ok"] * 2
    assert read_summary(out)["total"]["mean"] == 7


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
    return port


def test_with_the_api_down_every_trial_is_an_infrastructure_error_and_the_verdict_is_error(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    set_agent(project, max_retries=1)
    config = project / "evals.yaml"  # the definition's floor, lowered so the test waits less
    config.write_text(config.read_text().replace("  max_retries: 4 ", "  max_retries: 1 ", 1))
    out = project / "runs" / "down"
    use_stub(monkeypatch, f"http://127.0.0.1:{closed_port()}")
    assert main([*RUN, "--trials", "2", "--out", str(out)]) == 3
    summary = read_summary(out)
    assert summary["verdict"] == "error"
    records = results(out)
    assert [r["status"] for r in records] == ["error", "error"]
    assert all(r["grade"] is None and "unreachable" in r["error"] for r in records)
    t = read_json(out / "trials" / "trial-run" / "0" / "transcript.json")
    assert t["termination"] == "error" and t["messages"][1]["role"] == "user"


def test_a_run_stops_at_max_turns_and_is_still_graded(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    set_agent(project, max_turns=2)
    out = project / "runs" / "turns"
    fetch = ("GMAIL_FETCH_EMAILS", {"max_results": 1})
    with StubAnthropic(default=scripted(tool_uses(fetch), tool_uses(fetch), text("unreached"))) as stub:
        use_stub(monkeypatch, stub.url)
        main([*RUN, "--out", str(out)])
    assert len(agent_requests(stub)) == 2
    record = results(out)[0]
    assert record["status"] == "ok" and record["grade"] is not None
    assert record["metrics"]["termination"] == "max_turns" and record["metrics"]["turns"] == 2


def test_a_reply_cut_off_at_max_tokens_ends_the_trial_with_that_reason(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = project / "runs" / "tokens"
    cut = message([{"type": "text", "text": "I will now"}], stop_reason="max_tokens")
    with StubAnthropic(default=scripted(cut)) as stub:
        use_stub(monkeypatch, stub.url)
        main([*RUN, "--out", str(out)])
    assert results(out)[0]["metrics"]["termination"] == "max_tokens"


def test_a_total_token_budget_stops_the_trial(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    set_agent(project, max_total_tokens=1000)
    out = project / "runs" / "budget"
    fetch = ("GMAIL_FETCH_EMAILS", {"max_results": 1})
    with StubAnthropic(default=scripted(*(tool_uses(fetch, input_tokens=600) for _ in range(5)))) as stub:
        use_stub(monkeypatch, stub.url)
        main([*RUN, "--out", str(out)])
    assert len(agent_requests(stub)) == 2
    assert results(out)[0]["metrics"]["termination"] == "max_tokens"


def test_a_tool_outside_the_allowlist_is_neither_offered_nor_executed(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    set_agent(project, tools=["GMAIL_FETCH_EMAILS"])
    out = project / "runs" / "allow"
    call = tool_uses(("GMAIL_SEND_EMAIL", {"recipient_email": "x@acme.example", "body": "hi"}))
    with StubAnthropic(default=scripted(call, text("done"))) as stub:
        use_stub(monkeypatch, stub.url)
        main([*RUN, "--out", str(out)])
    first, second = agent_requests(stub)
    assert [t["name"] for t in first["tools"]] == ["GMAIL_FETCH_EMAILS"]
    answer = second["messages"][-1]["content"][0]
    assert answer["is_error"] is True and "Unknown tool" in answer["content"]
    t = read_json(out / "trials" / "trial-run" / "0" / "transcript.json")
    assert t["tool_calls"] == []


@pytest.mark.parametrize(
    ("change", "says"),
    [
        ({"temperature": 2}, "temperature"),
        ({"max_turn": 3}, "max_turn"),
        ({"tools": ["GMAIL_TELEPORT"]}, "GMAIL_TELEPORT"),
    ],
)
def test_a_bad_agent_yaml_exits_2_naming_the_field_and_writes_nothing(
    project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], change: Any, says: str
) -> None:
    set_agent(project, **change)
    monkeypatch.setenv("ANTHROPIC_API_KEY", "stub-key-0123456789")
    assert main([*RUN, "--out", str(project / "runs" / "bad")]) == 2
    assert says in capsys.readouterr().err
    assert not (project / "runs" / "bad").exists()


def test_claude_without_an_api_key_is_bad_input(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([*RUN, "--out", str(project / "runs" / "nokey")]) == 2
    assert "ANTHROPIC_API_KEY" in capsys.readouterr().err


def test_a_configured_temperature_is_sent_pinned_to_the_api_version_that_accepts_it(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    set_agent(project, temperature=0.2, model="claude-haiku-4-5", thinking=None)
    with StubAnthropic(default=scripted(text("nothing to do"))) as stub:
        use_stub(monkeypatch, stub.url)
        main([*RUN, "--out", str(project / "runs" / "temperature")])
    index = next(i for i, r in enumerate(stub.requests) if not is_judge(r))
    assert stub.requests[index]["temperature"] == 0.2
    assert stub.headers[index]["anthropic-version"] == "2023-06-01"


def test_a_conversation_the_api_rejects_as_invalid_is_the_agents_failure_and_is_graded(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = project / "runs" / "rejected"
    fetch = tool_uses(("GMAIL_FETCH_EMAILS", {"max_results": 1}))
    too_long = error(400, "invalid_request_error", "prompt is too long")
    with StubAnthropic(default=scripted(fetch, too_long)) as stub:
        use_stub(monkeypatch, stub.url)
        main([*RUN, "--out", str(out)])
    record = results(out)[0]
    assert record["status"] == "ok" and record["grade"] is not None
    assert "400" in record["error"] and record["metrics"]["termination"] == "error"
    t = read_json(out / "trials" / "trial-run" / "0" / "transcript.json")
    assert t["turns"] == 1 and len(t["tool_calls"]) == 1  # the partial run is kept


def test_an_api_that_refuses_the_key_makes_the_trial_an_infrastructure_error(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = project / "runs" / "auth"
    with StubAnthropic(default=error(401, "authentication_error", "invalid x-api-key")) as stub:
        use_stub(monkeypatch, stub.url)
        assert main([*RUN, "--out", str(out)]) == 3
    record = results(out)[0]
    assert record["status"] == "error" and "401" in record["error"]


def read_the_inbox(project: Path, monkeypatch: pytest.MonkeyPatch, name: str) -> tuple[str, dict[str, Any]]:
    """One Claude turn that fetches the inbox; returns what the model got back and the transcript."""
    out = project / "runs" / name
    script = scripted(
        tool_uses(("GMAIL_FETCH_EMAILS", {"query": "in:inbox", "max_results": 5})), text("Read it.")
    )
    with StubAnthropic(default=script) as stub:
        use_stub(monkeypatch, stub.url)
        main([*RUN, "--out", str(out)])
    given = agent_requests(stub)[1]["messages"][2]["content"][0]["content"]
    return given, read_json(out / "trials" / "trial-run" / "0" / "transcript.json")


def test_a_long_tool_result_reaches_the_model_cut_with_a_note_and_stays_whole_in_the_transcript(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    set_agent(project, max_tool_result_chars=600)
    given, transcript = read_the_inbox(project, monkeypatch, "cut")
    whole = json.dumps(transcript["tool_calls"][0]["result"], ensure_ascii=False)  # keys sorted, same length
    assert len(whole) > 600, "a mail with its payload is long"
    kept, note = given[:600], given[600:]
    assert kept.startswith('{"data": {"messages": [{"messageId": ') and note.startswith("\n\n[Result cut: ")
    assert f"[Result cut: {len(whole) - 600:,} of {len(whole):,} characters left out" in note
    assert "max_tool_result_chars = 600" in note and "include_payload=false" in note and "max_results" in note
    message = transcript["tool_calls"][0]["result"]["data"]["messages"][0]
    assert message["messageText"].rstrip().endswith("Sam"), "the transcript keeps the whole result"
    assert transcript["messages"][3]["content"][0]["content"] == given, "the model's view is recorded too"


def test_with_no_limit_the_model_gets_the_whole_result(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    set_agent(project, max_tool_result_chars=None)
    given, transcript = read_the_inbox(project, monkeypatch, "whole")
    assert json.loads(given) == transcript["tool_calls"][0]["result"]


def test_agent_yaml_states_the_limit_it_runs_with(project: Path) -> None:
    from evals.agents.config import AgentConfig, load_agent_config

    config, _ = load_agent_config(project / "agent")
    assert "max_tool_result_chars" in (project / "agent" / "agent.yaml").read_text()
    assert config.max_tool_result_chars == AgentConfig.model_fields["max_tool_result_chars"].default


def test_a_model_id_the_api_does_not_know_is_bad_input_naming_it(
    project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A misspelt model id answers 404 on every call: configuration, exit 2, never an outage (3)."""
    set_agent(project, model="claude-sonet-4-5")
    missing = error(404, "not_found_error", "model: claude-sonet-4-5")
    with StubAnthropic(default=missing) as stub:
        use_stub(monkeypatch, stub.url)
        assert main([*RUN, "--out", str(project / "runs" / "typo")]) == 2
    err = capsys.readouterr().err
    assert "model 'claude-sonet-4-5': the Messages API does not know it" in err
