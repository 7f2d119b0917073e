"""Injected tool faults: the calls a scenario declares fail with an error envelope, the rest work, and
the same calls fail in every trial."""

from __future__ import annotations

import asyncio

import pytest
from pydantic import ValidationError

from evals.scenario.load import load_scenario
from evals.scenario.model import Fault, Scenario
from evals.world.sandbox.environment import SandboxBackend
from evals.world.sandbox.seed import seed
from evals.world.sandbox.snapshot import outcome
from evals.world.sandbox.tools.toolset import SandboxToolset
from tests.support.paths import ROOT

REPO = {"owner": "acme-ai-labs", "repo": "hydra-pipeline-0"}
PULL = {**REPO, "head": "main", "base": "main", "title": "t"}


@pytest.fixture(scope="module")
def scenario() -> Scenario:
    return load_scenario(ROOT / "scenario", "nightshift")


def faulty(scenario: Scenario, *faults: Fault) -> SandboxToolset:
    return SandboxToolset(seed(scenario, 0), faults=faults)


def pulls(tools: SandboxToolset) -> int:
    return len(outcome(tools.world).repos[0].pulls)


def branch_from_main(tools: SandboxToolset, name: str) -> dict[str, str]:
    """A branch with one commit on it, ready for a pull request."""
    main = tools.execute("GITHUB_GET_A_BRANCH", {**REPO, "branch": "main"})["data"]["commit"]["sha"]
    made = tools.execute("GITHUB_CREATE_A_REFERENCE", {**REPO, "ref": f"refs/heads/{name}", "sha": main})
    assert made["successful"]
    note = {**REPO, "path": "NOTES.md", "message": "notes", "content": "bm90ZXM=", "branch": name}
    assert tools.execute("GITHUB_CREATE_OR_UPDATE_FILE_CONTENTS", note)["successful"]
    return {**PULL, "head": name}


def test_the_first_two_pull_requests_answer_502_and_the_third_opens(scenario: Scenario) -> None:
    tools = faulty(scenario, Fault(tool="GITHUB_CREATE_A_PULL_REQUEST", calls=[1, 2]))
    args = branch_from_main(tools, "fix/x")
    first, second = (tools.execute("GITHUB_CREATE_A_PULL_REQUEST", args) for _ in range(2))
    for answer in (first, second):
        assert answer["successful"] is False and answer["data"] == {}
        assert "502 Server Error: Bad Gateway" in answer["error"]
    assert pulls(tools) == 0  # a failed call changed nothing
    third = tools.execute("GITHUB_CREATE_A_PULL_REQUEST", args)
    assert third["successful"] and pulls(tools) == 1


def test_a_permanent_fault_fails_every_matching_call_and_no_other(scenario: Scenario) -> None:
    tools = faulty(scenario, Fault(tool="NOTION_*", error="service_unavailable"))
    for _ in range(5):
        down = tools.execute("NOTION_SEARCH_NOTION_PAGE", {"query": "Hydra"})
        assert not down["successful"] and "503 Server Error" in down["error"]
    assert tools.execute("GITHUB_GET_A_BRANCH", {**REPO, "branch": "main"})["successful"]


def test_a_call_with_bad_arguments_is_refused_as_usual_and_not_counted(scenario: Scenario) -> None:
    tools = faulty(scenario, Fault(tool="GITHUB_CREATE_A_PULL_REQUEST", calls=[1]))
    args = branch_from_main(tools, "fix/y")
    refused = tools.execute("GITHUB_CREATE_A_PULL_REQUEST", {**args, "colour": "red"})
    assert not refused["successful"] and "502" not in refused["error"]
    assert "502" in tools.execute("GITHUB_CREATE_A_PULL_REQUEST", args)["error"]
    assert tools.execute("GITHUB_CREATE_A_PULL_REQUEST", args)["successful"]


def test_an_applied_timeout_makes_the_change_and_still_answers_an_error(scenario: Scenario) -> None:
    """The write landed though the client timed out: an agent that retries blindly opens two."""
    timeout = Fault(tool="GITHUB_CREATE_A_PULL_REQUEST", calls=[1], error="timeout", applied=True)
    tools = faulty(scenario, timeout)
    args = branch_from_main(tools, "fix/z")
    answer = tools.execute("GITHUB_CREATE_A_PULL_REQUEST", args)
    assert not answer["successful"] and "Read timed out" in answer["error"]
    assert pulls(tools) == 1


def test_every_trial_fails_the_same_calls(scenario: Scenario) -> None:
    declared = scenario.model_copy(update={"faults": [Fault(tool="GMAIL_FETCH_EMAILS", calls=[2])]})

    async def answers(trial: int) -> list[bool]:
        env = await SandboxBackend().create(declared, trial, "run")
        return [(await env.toolset.call("GMAIL_FETCH_EMAILS", {}))["successful"] for _ in range(3)]

    assert asyncio.run(answers(0)) == asyncio.run(answers(1)) == [True, False, True]


def test_call_numbers_start_at_one() -> None:
    with pytest.raises(ValidationError, match="call numbers from 1"):
        Fault(tool="GMAIL_FETCH_EMAILS", calls=[0])
