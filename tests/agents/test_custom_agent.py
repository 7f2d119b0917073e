"""`--agent module:callable`: a team's own agent gets the prompts and a toolset, and a transcript for free."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from evals.cli import main
from tests.support.example_agent import CountingAgent


def transcript(out: Path, trial: int = 0) -> dict[str, object]:
    data: dict[str, object] = json.loads(
        (out / "trials" / "trial-run" / str(trial) / "transcript.json").read_text()
    )
    return data


def test_the_example_agent_runs_and_every_tool_call_is_recorded(project: Path) -> None:
    out = project / "runs" / "example"
    main(["run", "--agent", "tests.support.example_agent:agent", "--out", str(out)])
    t = transcript(out)
    calls = t["tool_calls"]
    assert isinstance(calls, list)
    assert [c["tool"] for c in calls] == ["GMAIL_FETCH_EMAILS", "GMAIL_REPLY_TO_THREAD"]
    assert calls[1]["args"]["recipient_email"].endswith("@acme.example")
    assert calls[1]["result"]["successful"] is True
    assert t["termination"] == "returned" and str(t["final_text"]).startswith("acknowledged:")
    assert t["agent"] == "tests.support.example_agent:agent"
    record = json.loads((out / "results.jsonl").read_text().splitlines()[0])
    assert record["status"] == "ok" and record["grade"]["total"] is not None
    assert record["metrics"]["tool_calls"] == 2 and record["metrics"]["cost_usd"] == 0.0


def test_a_class_agent_gets_a_fresh_instance_per_trial(project: Path) -> None:
    CountingAgent.instances = 0
    out = project / "runs" / "class"
    main(["run", "--agent", "tests.support.example_agent:CountingAgent", "--trials", "3", "--out", str(out)])
    assert CountingAgent.instances == 3
    for trial in range(3):
        t = transcript(out, trial)
        assert str(t["final_text"]).endswith("2 calls") and t["turns"] == 2  # no state carried over


@pytest.mark.parametrize(
    ("spec", "says"),
    [
        ("tests.no_such_module:agent", "cannot import"),
        ("tests.support.example_agent:missing", "has no callable"),
        ("json:dumps", "must be an async function"),
    ],
)
def test_a_bad_agent_spec_exits_2_before_anything_runs(
    project: Path, capsys: pytest.CaptureFixture[str], spec: str, says: str
) -> None:
    assert main(["run", "--agent", spec, "--out", str(project / "runs" / "bad")]) == 2
    assert says in capsys.readouterr().err
    assert not (project / "runs" / "bad").exists()


def test_an_agent_module_in_the_project_root_is_found(project: Path) -> None:
    (project / "team_agent.py").write_text(
        "async def run(prompts, toolset):\n"
        "    await toolset.call('GMAIL_FETCH_EMAILS', {'max_results': 1})\n"
        "    return 'checked mail'\n"
    )
    out = project / "runs" / "team"
    main(["run", "--agent", "team_agent:run", "--out", str(out)])
    assert transcript(out)["final_text"] == "checked mail"
