"""The Claude loop on today's Messages API, against the stub answering as Claude Sonnet 5.5 does:
every stop reason ends the trial its own way, a setting the model refuses is bad input before the
first trial, and a 400 the harness or agent.yaml caused is never scored as the agent's."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from evals.cli import main
from tests.support.claude_runs import RUN, agent_requests, read_json, results, scripted, set_agent, use_stub
from tests.support.stubs.anthropic_stub import (
    SAMPLING_REJECTED,
    StubAnthropic,
    invalid,
    message,
    pause_turn,
    refusal,
    sonnet_5_5,
    text,
    thinking,
    tool_uses,
)

FETCH = ("GMAIL_FETCH_EMAILS", {"max_results": 1})


def transcript(out: Path) -> dict[str, Any]:
    return read_json(out / "trials" / "trial-run" / "0" / "transcript.json")


@pytest.mark.parametrize(
    ("reply", "termination"),
    [
        (text("Done."), "end_turn"),
        (message([{"type": "text", "text": "Done"}], stop_reason="stop_sequence"), "stop_sequence"),
        (refusal("cyber", "This request was declined."), "refusal"),
        (
            message(
                [{"type": "text", "text": "The analysis so f"}], stop_reason="model_context_window_exceeded"
            ),
            "model_context_window_exceeded",
        ),
        (message([{"type": "text", "text": "I will now"}], stop_reason="max_tokens"), "max_tokens"),
    ],
)
def test_each_stop_reason_ends_the_trial_under_its_own_name_and_the_trial_is_graded(
    project: Path, monkeypatch: pytest.MonkeyPatch, reply: Any, termination: str
) -> None:
    out = project / "runs" / termination
    with StubAnthropic(default=scripted(tool_uses(FETCH), reply)) as stub:
        use_stub(monkeypatch, stub.url)
        main([*RUN, "--out", str(out)])
    record = results(out)[0]
    assert record["status"] == "ok" and record["grade"] is not None
    assert record["metrics"]["termination"] == termination
    t = transcript(out)
    assert [c["stop_reason"] for c in t["model_calls"]] == ["tool_use", termination]
    assert len(t["tool_calls"]) == 1


def test_a_refusal_keeps_its_stop_details_and_is_not_taken_as_the_agents_answer(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = project / "runs" / "refused"
    with StubAnthropic(default=scripted(tool_uses(FETCH, preface="Reading."), refusal("bio", None))) as stub:
        use_stub(monkeypatch, stub.url)
        main([*RUN, "--out", str(out)])
    t = transcript(out)
    assert t["termination"] == "refusal"
    assert t["model_calls"][1]["stop_details"] == {"type": "refusal", "category": "bio", "explanation": None}
    assert "stop_details" not in t["model_calls"][0]
    assert t["messages"][-1] == {"role": "assistant", "content": []}
    assert t["final_text"] == "Reading."


def test_a_refusal_is_named_on_the_first_screen_the_console_and_the_annotations(
    project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A refused trial scores what the agent left (here nothing): without a word about the refusal
    it read as a silent regression (#38). The report's first lines, the console right under the
    verdict and a workflow annotation say the model refused, with the API's category."""
    out = project / "runs" / "refused-seen"
    summary_file = project / "step-summary.md"
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary_file))
    monkeypatch.delenv("EVALS_JOB_SUMMARY", raising=False)
    with StubAnthropic(default=scripted(refusal("cyber", "declined"))) as stub:
        use_stub(monkeypatch, stub.url)
        main([*RUN, "--out", str(out)])
    said = (
        "trial-run: the model refused in 1 of 1 trials (category: cyber); "
        "a refusal is graded as the agent's failure"
    )
    assert results(out)[0]["metrics"]["refusal_category"] == "cyber"
    first_screen = (out / "report.md").read_text(encoding="utf-8").splitlines()[:6]
    assert f"- 🛑 {said}" in first_screen, first_screen
    console = capsys.readouterr().out.splitlines()
    verdict_at = next(i for i, line in enumerate(console) if line.startswith("Verdict: "))
    assert console[verdict_at + 1] == f"  {said}"
    assert f"::warning title=Agent evals - the agent's behaviour::{said}" in console


def test_a_paused_turn_is_sent_back_as_it_is_and_the_model_continues(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = project / "runs" / "paused"
    replies = scripted(pause_turn(), tool_uses(FETCH), text("Done."))
    with StubAnthropic(default=sonnet_5_5(replies)) as stub:
        use_stub(monkeypatch, stub.url)
        main([*RUN, "--out", str(out)])
    first, second, third = agent_requests(stub)
    assert second["messages"][:-1] == first["messages"][:1] or len(second["messages"]) == 2
    assert [m["role"] for m in second["messages"]] == ["user", "assistant"], "no user turn is added"
    assert second["messages"][-1]["content"][0]["type"] == "server_tool_use"
    assert [m["role"] for m in third["messages"]] == ["user", "assistant", "assistant", "user"]
    t = transcript(out)
    assert t["termination"] == "end_turn" and t["turns"] == 3 and len(t["tool_calls"]) == 1


def test_thinking_blocks_and_the_notes_between_tools_stay_in_the_transcript_and_go_back_unchanged(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = project / "runs" / "thinking"
    noted = tool_uses(FETCH)
    noted[1]["content"][:0] = [thinking("The inbox first; then the spec.", "sig-1")]
    with StubAnthropic(default=sonnet_5_5(scripted(noted, text("Done.")))) as stub:
        use_stub(monkeypatch, stub.url)
        main([*RUN, "--out", str(out)])
    first, second = agent_requests(stub)
    assert first["thinking"] == {"type": "adaptive", "display": "summarized"}, "agent.yaml's thinking"
    assert first["max_tokens"] == 16000
    sent_back = second["messages"][1]["content"][0]
    assert sent_back == {
        "type": "thinking",
        "thinking": "The inbox first; then the spec.",
        "signature": "sig-1",
    }
    kept = transcript(out)["messages"][2]["content"]
    assert kept[0] == sent_back and kept[1]["type"] == "tool_use"


def test_a_setting_the_model_refuses_exits_2_naming_it_before_the_first_trial(
    project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    set_agent(project, temperature=0.2)  # agent.yaml's model is claude-sonnet-5-5
    out = project / "runs" / "refused-config"
    with StubAnthropic(default=sonnet_5_5(scripted(text("unreached")))) as stub:
        use_stub(monkeypatch, stub.url)
        assert main([*RUN, "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert "agent.yaml: temperature: claude-sonnet-5-5 rejects sampling parameters" in err
    assert stub.requests == [] and not out.exists()


@pytest.mark.parametrize(
    ("thinking_setting", "field"),
    [
        ({"type": "disabled"}, "thinking.type"),
        ({"type": "between_tools", "display": "summarized"}, "thinking.display"),
    ],
)
def test_thinking_the_model_refuses_is_bad_input_too(
    project: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    thinking_setting: Any,
    field: str,
) -> None:
    set_agent(project, thinking=thinking_setting)
    use_stub(monkeypatch, "http://127.0.0.1:9")
    assert main([*RUN, "--out", str(project / "runs" / "bad-thinking")]) == 2
    assert f"agent.yaml: {field}:" in capsys.readouterr().err


def test_a_400_naming_a_setting_is_bad_input_naming_it_and_no_trial_is_scored(
    project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    set_agent(project, model="claude-test-unlisted", temperature=0.5, thinking=None)  # not in the table
    out = project / "runs" / "sampling-400"
    with StubAnthropic(default=sonnet_5_5(scripted(text("unreached")))) as stub:
        use_stub(monkeypatch, stub.url)
        assert main([*RUN, "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert "agent.yaml: temperature:" in err and SAMPLING_REJECTED in err
    assert not (out / "results.jsonl").exists() or results(out) == []


def test_a_400_for_the_request_the_harness_built_is_bad_input_not_the_agents_score(
    project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    out = project / "runs" / "harness-400"
    broken = invalid("messages.2.content.0: unexpected `tool_use_id` found in `tool_result` blocks")
    with StubAnthropic(default=scripted(tool_uses(FETCH), broken)) as stub:
        use_stub(monkeypatch, stub.url)
        assert main([*RUN, "--out", str(out)]) == 2
    assert "not the agent's doing" in capsys.readouterr().err
    assert not (out / "results.jsonl").exists() or results(out) == []


def test_a_judge_model_that_refuses_temperature_is_bad_input_when_evals_yaml_loads(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = project / "evals.yaml"
    config = yaml.safe_load(path.read_text())
    config["judge"]["model"] = "claude-sonnet-5-5"
    path.write_text(yaml.safe_dump(config))
    assert main(["run", "--scenario", "trial-run", "--out", str(project / "runs" / "judge")]) == 2
    err = capsys.readouterr().err
    assert "temperature" in err and "claude-sonnet-5-5 rejects sampling parameters" in err
    config["judge"]["temperature"] = None
    path.write_text(yaml.safe_dump(config))
    code = main(["run", "--scenario", "trial-run", "--out", str(project / "runs" / "judge-ok")])
    assert code == 4, "loads and runs: not comparable with a baseline judged by another model"


def test_the_stub_answers_each_refused_setting_with_its_documented_400() -> None:
    reply = sonnet_5_5(lambda body: text("ok"))
    user = [{"role": "user", "content": [{"type": "text", "text": "hi"}]}]
    said = {
        name: json.dumps(reply({"messages": user, **extra})[1])
        for name, extra in {
            "sampling": {"temperature": 0},
            "tool_choice": {"tool_choice": {"type": "any"}},
            "disabled": {"thinking": {"type": "disabled"}},
            "budget": {"thinking": {"type": "enabled", "budget_tokens": 2048}},
        }.items()
    }
    assert "Extra inputs are not permitted" in said["sampling"]
    assert "are not supported for this model" in said["tool_choice"]
    assert "between_tools" in said["disabled"] and "thinking.type.enabled" in said["budget"]
    prefill = reply({"messages": [*user, {"role": "assistant", "content": [{"type": "text", "text": "x"}]}]})
    assert prefill[0] == 400 and "prefill" in prefill[1]["error"]["message"] and "request_id" in prefill[1]
    assert reply({"messages": user})[0] == 200
