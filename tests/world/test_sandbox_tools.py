"""The sandbox tools behave like the services they stand in for, good arguments and bad."""

from __future__ import annotations

import base64

import pytest

from evals.core.jsonio import canonical
from evals.scenario.load import load_scenario
from evals.scenario.model import Scenario
from evals.world.sandbox.seed import seed
from evals.world.sandbox.snapshot import outcome
from evals.world.sandbox.tools.toolset import SandboxToolset
from tests.support.paths import ROOT


@pytest.fixture(scope="module")
def scenario() -> Scenario:
    return load_scenario(ROOT / "scenario", "trial-run")


@pytest.fixture
def tools(scenario: Scenario) -> SandboxToolset:
    return SandboxToolset(seed(scenario, 0))


REPO = {"owner": "acme-ai-labs", "repo": "demo-repo-0"}


def test_fetch_emails_returns_one_message_unless_asked_for_more(tools: SandboxToolset) -> None:
    one = tools.execute("GMAIL_FETCH_EMAILS", {})
    assert one["successful"] and len(one["data"]["messages"]) == 1
    assert one["data"]["messages"][0]["sender"] == "sam.rivera@acme.example"


def test_fetch_emails_filters_by_query(tools: SandboxToolset) -> None:
    hit = tools.execute(
        "GMAIL_FETCH_EMAILS", {"query": "from:sam.rivera subject:moderation", "max_results": 5}
    )
    miss = tools.execute("GMAIL_FETCH_EMAILS", {"query": "from:nobody@acme.example", "max_results": 5})
    assert len(hit["data"]["messages"]) == 1
    assert miss["data"]["messages"] == []


def test_unknown_parameters_and_wrong_types_give_an_error_envelope(tools: SandboxToolset) -> None:
    typo = tools.execute("GMAIL_FETCH_EMAILS", {"max_result": 5})
    wrong = tools.execute("GMAIL_FETCH_EMAILS", {"max_results": "many"})
    unknown = tools.execute("GMAIL_NO_SUCH_TOOL", {})
    for envelope in (typo, wrong, unknown):
        assert envelope["successful"] is False and envelope["error"]
    assert "max_result" in typo["error"]


def test_reply_lands_in_the_thread_with_a_re_subject(tools: SandboxToolset) -> None:
    thread = tools.execute("GMAIL_FETCH_EMAILS", {})["data"]["messages"][0]["threadId"]
    sent = tools.execute(
        "GMAIL_REPLY_TO_THREAD",
        {"thread_id": thread, "recipient_email": "sam.rivera@acme.example", "message_body": "On it."},
    )
    assert sent["successful"]
    messages = tools.execute("GMAIL_FETCH_MESSAGE_BY_THREAD_ID", {"thread_id": thread})["data"]["messages"]
    assert [m["subject"] for m in messages] == [
        "False positives from the moderation classifier",
        "Re: False positives from the moderation classifier",
    ]


def test_reply_to_a_missing_thread_is_not_found(tools: SandboxToolset) -> None:
    result = tools.execute(
        "GMAIL_REPLY_TO_THREAD", {"thread_id": "nope", "recipient_email": "a@b.example", "message_body": "x"}
    )
    assert not result["successful"] and "not found" in result["error"]


def test_a_wrong_path_is_not_found(tools: SandboxToolset) -> None:
    result = tools.execute("GITHUB_GET_REPOSITORY_CONTENT", {**REPO, "path": "src/moderation/clasifier.py"})
    assert not result["successful"] and "Not Found" in result["error"]


def test_updating_a_file_needs_its_current_sha(tools: SandboxToolset) -> None:
    path = "src/moderation/classifier.py"
    current = tools.execute("GITHUB_GET_REPOSITORY_CONTENT", {**REPO, "path": path})["data"]
    content = base64.b64encode(b"FLAG_THRESHOLD = 0.85\n").decode()
    without = tools.execute(
        "GITHUB_CREATE_OR_UPDATE_FILE_CONTENTS", {**REPO, "path": path, "message": "m", "content": content}
    )
    stale = tools.execute(
        "GITHUB_CREATE_OR_UPDATE_FILE_CONTENTS",
        {**REPO, "path": path, "message": "m", "content": content, "sha": "0" * 40},
    )
    good = tools.execute(
        "GITHUB_CREATE_OR_UPDATE_FILE_CONTENTS",
        {**REPO, "path": path, "message": "m", "content": content, "sha": current["sha"]},
    )
    assert not without["successful"] and "sha" in without["error"]
    assert not stale["successful"]
    assert good["successful"]
    after = tools.execute("GITHUB_GET_REPOSITORY_CONTENT", {**REPO, "path": path})["data"]
    assert base64.b64decode(after["content"]) == b"FLAG_THRESHOLD = 0.85\n"
    assert after["sha"] != current["sha"]


def test_a_pull_request_needs_commits_between_branches(tools: SandboxToolset) -> None:
    main = tools.execute("GITHUB_GET_A_BRANCH", {**REPO, "branch": "main"})["data"]["commit"]["sha"]
    assert tools.execute("GITHUB_CREATE_A_REFERENCE", {**REPO, "ref": "refs/heads/fix", "sha": main})[
        "successful"
    ]
    empty = tools.execute(
        "GITHUB_CREATE_A_PULL_REQUEST", {**REPO, "head": "fix", "base": "main", "title": "t"}
    )
    assert not empty["successful"] and "No commits" in empty["error"]
    again = tools.execute("GITHUB_CREATE_A_REFERENCE", {**REPO, "ref": "refs/heads/fix", "sha": main})
    assert not again["successful"]


def test_updating_a_board_row_changes_its_properties_in_place(tools: SandboxToolset) -> None:
    page = tools.execute("NOTION_SEARCH_NOTION_PAGE", {"query": "Sprint 4"})["data"]["results"][0]
    blocks = tools.execute("NOTION_FETCH_BLOCK_CONTENTS", {"block_id": page["id"]})["data"]["results"]
    board = next(b for b in blocks if b["type"] == "child_database")
    rows = tools.execute("NOTION_QUERY_DATABASE", {"database_id": board["id"]})["data"]["results"]
    row = next(r for r in rows if r["properties"]["Ticket"]["title"][0]["plain_text"] == "#131")
    old_way = tools.execute(
        "NOTION_UPDATE_BLOCK",
        {"block_id": row["id"], "block_type": "table_row", "content": "Done"},
    )
    assert not old_way["successful"], "a row is a page, not a table_row block"
    status = [{"name": "Status", "type": "select", "value": "Done"}]
    assert tools.execute("NOTION_UPDATE_ROW_DATABASE", {"row_id": row["id"], "properties": status})[
        "successful"
    ]
    rows = tools.execute("NOTION_QUERY_DATABASE", {"database_id": board["id"]})["data"]["results"]
    assert [r["properties"]["Status"]["select"]["name"] for r in rows] == ["Done", "Done", "Backlog"]


def test_appending_text_does_not_change_existing_blocks(tools: SandboxToolset) -> None:
    page = tools.execute("NOTION_SEARCH_NOTION_PAGE", {"query": "Sprint 4"})["data"]["results"][0]
    child = {"type": "paragraph", "paragraph": {"rich_text": [{"text": {"content": "#131 is Done"}}]}}
    assert tools.execute("NOTION_APPEND_TEXT_BLOCKS", {"block_id": page["id"], "children": [child]})[
        "successful"
    ]
    bad = tools.execute(
        "NOTION_APPEND_TEXT_BLOCKS", {"block_id": page["id"], "children": [{"type": "table"}]}
    )
    assert not bad["successful"]
    blocks = tools.execute("NOTION_FETCH_BLOCK_CONTENTS", {"block_id": page["id"]})["data"]["results"]
    assert blocks[-1]["paragraph"]["rich_text"][0]["plain_text"] == "#131 is Done"


def test_every_tool_schema_is_an_object_schema(tools: SandboxToolset) -> None:
    for schema in tools.schemas():
        assert schema["name"].isupper() and schema["description"]
        assert schema["input_schema"]["type"] == "object"


def _script(tools: SandboxToolset) -> None:
    thread = tools.execute("GMAIL_FETCH_EMAILS", {})["data"]["messages"][0]["threadId"]
    tools.execute(
        "GMAIL_REPLY_TO_THREAD",
        {"thread_id": thread, "recipient_email": "sam.rivera@acme.example", "message_body": "Done"},
    )
    main = tools.execute("GITHUB_GET_A_BRANCH", {**REPO, "branch": "main"})["data"]["commit"]["sha"]
    tools.execute("GITHUB_CREATE_A_REFERENCE", {**REPO, "ref": "refs/heads/b", "sha": main})
    tools.execute(
        "GITHUB_CREATE_OR_UPDATE_FILE_CONTENTS",
        {
            **REPO,
            "path": "NOTES.md",
            "message": "m",
            "content": base64.b64encode(b"x").decode(),
            "branch": "b",
        },
    )
    tools.execute("GITHUB_CREATE_A_PULL_REQUEST", {**REPO, "head": "b", "base": "main", "title": "t"})


def test_the_same_calls_on_the_same_seed_give_byte_identical_snapshots(scenario: Scenario) -> None:
    snapshots = []
    for _ in range(2):
        tools = SandboxToolset(seed(scenario, 0))
        _script(tools)
        snapshots.append((canonical(tools.world.model_dump()), canonical(outcome(tools.world).model_dump())))
    assert snapshots[0] == snapshots[1]


def test_trials_get_distinct_repositories(scenario: Scenario) -> None:
    assert [r.name for r in seed(scenario, 0).repos.values()] == ["demo-repo-0"]
    assert [r.name for r in seed(scenario, 1).repos.values()] == ["demo-repo-1"]
