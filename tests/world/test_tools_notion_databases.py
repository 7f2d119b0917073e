"""Boards, registers and trackers as Notion and Composio model them: databases whose rows are pages
with properties, found with the search and block tools, read with NOTION_FETCH_DATABASE and
NOTION_QUERY_DATABASE, written with NOTION_UPDATE_ROW_DATABASE, NOTION_UPDATE_PAGE and
NOTION_INSERT_ROW_DATABASE (Composio's Notion toolkit docs at 20260915_00), on Nightshift's world."""

from __future__ import annotations

from typing import Any

import pytest

from evals.scenario.load import load_scenario
from evals.scenario.model import Scenario
from evals.world.sandbox.seed import seed
from evals.world.sandbox.snapshot import outcome
from evals.world.sandbox.tools.toolset import SandboxToolset
from tests.support.paths import ROOT


@pytest.fixture(scope="module")
def scenario() -> Scenario:
    return load_scenario(ROOT / "scenario", "nightshift")


@pytest.fixture
def tools(scenario: Scenario) -> SandboxToolset:
    return SandboxToolset(seed(scenario, 0))


def text(value: str) -> list[dict[str, Any]]:
    return [{"type": "text", "text": {"content": value}}]


def board_of(tools: SandboxToolset, title: str) -> str:
    """The board on a page, found as an agent finds it: search the page, list its blocks."""
    found = tools.execute("NOTION_SEARCH_NOTION_PAGE", {"query": title, "filter_value": "page"})
    blocks = tools.execute("NOTION_FETCH_BLOCK_CONTENTS", {"block_id": found["data"]["results"][0]["id"]})
    return str(next(b["id"] for b in blocks["data"]["results"] if b["type"] == "child_database"))


def rows(tools: SandboxToolset, database: str, **args: Any) -> list[dict[str, Any]]:
    result = tools.execute("NOTION_QUERY_DATABASE", {"database_id": database, **args})
    assert result["successful"], result["error"]
    return list(result["data"]["results"])


def value(row: dict[str, Any], name: str) -> Any:
    prop = row["properties"][name]
    body = prop[prop["type"]]
    if prop["type"] in ("title", "rich_text"):
        return "".join(t["plain_text"] for t in body)
    if prop["type"] == "select":
        return body["name"] if body else None
    return body


def row_named(tools: SandboxToolset, database: str, title: str) -> dict[str, Any]:
    return next(r for r in rows(tools, database) if value(r, next(iter(r["properties"]))) == title)


def test_a_board_is_a_database_whose_structure_and_rows_the_database_tools_read(
    tools: SandboxToolset,
) -> None:
    board = board_of(tools, "Sprint 4")
    fetched = tools.execute("NOTION_FETCH_DATABASE", {"database_id": board})["data"]
    assert fetched["object"] == "database" and fetched["title"][0]["plain_text"] == "Tickets"
    assert fetched["is_inline"] is True and len(fetched["data_sources"]) == 1
    schema = fetched["properties"]
    assert [(n, p["type"]) for n, p in schema.items()] == [
        ("Ticket", "title"),
        ("Title", "rich_text"),
        ("Owner", "rich_text"),
        ("Status", "select"),
        ("PR", "url"),
    ]
    assert [o["name"] for o in schema["Status"]["select"]["options"]] == [
        "Backlog",
        "To Do",
        "In Progress",
        "In Review",
        "Done",
    ]
    listed = rows(tools, board)
    assert [value(r, "Ticket") for r in listed] == ["#139", "#140", "#142", "#143", "#138", "#144"]
    first = listed[0]
    assert first["object"] == "page" and first["parent"]["type"] == "data_source_id"
    assert first["parent"]["database_id"] == board
    assert value(first, "Status") == "Done" and value(listed[2], "PR") is None
    assert tools.execute("NOTION_FETCH_ROW", {"page_id": first["id"]})["data"]["id"] == first["id"]
    assert (
        tools.execute("NOTION_RETRIEVE_PAGE", {"page_id": first["id"]})["data"]
        == tools.execute("NOTION_FETCH_ROW", {"page_id": first["id"]})["data"]
    )


def test_a_query_pages_and_sorts_as_documented(tools: SandboxToolset) -> None:
    board = board_of(tools, "Sprint 4")
    assert len(rows(tools, board)) == 6, "page_size defaults to 100"
    page = tools.execute("NOTION_QUERY_DATABASE", {"database_id": board, "page_size": 4})["data"]
    assert len(page["results"]) == 4 and page["has_more"] and page["next_cursor"] == "4"
    rest = rows(tools, board, start_cursor=page["next_cursor"])
    assert len(rest) == 2
    by_ticket = rows(tools, board, sorts=[{"property_name": "Ticket", "ascending": False}])
    assert [value(r, "Ticket") for r in by_ticket][:2] == ["#144", "#143"]
    by_status = rows(
        tools,
        board,
        sorts=[
            {"property_name": "Status", "ascending": True},
            {"property_name": "Ticket", "ascending": True},
        ],
    )
    assert [value(r, "Status") for r in by_status] == ["Backlog", "Done", "Done", "To Do", "To Do", "To Do"]
    assert value(by_status[1], "Ticket") == "#139"
    assert rows(tools, board + "?v=abc123"), "a view suffix is stripped"
    for bad in (
        {"sorts": [{"property_name": "Priority", "ascending": True}]},
        {"page_size": 0},
        {
            "database_id": tools.execute("NOTION_SEARCH_NOTION_PAGE", {"query": "Sprint 4"})["data"][
                "results"
            ][0]["id"]
        },
    ):
        assert not tools.execute("NOTION_QUERY_DATABASE", {"database_id": board, **bad})["successful"], bad


def test_moving_a_ticket_to_done_is_editing_its_row(tools: SandboxToolset, scenario: Scenario) -> None:
    board = board_of(tools, "Sprint 4")
    ticket = row_named(tools, board, "#142")
    done = tools.execute(
        "NOTION_UPDATE_ROW_DATABASE",
        {
            "row_id": ticket["id"],
            "properties": [
                {"name": "Status", "type": "select", "value": "Done"},
                {
                    "name": "PR",
                    "type": "url",
                    "value": "https://github.com/acme-ai-labs/hydra-pipeline/pull/1",
                },
            ],
        },
    )
    assert done["successful"], done["error"]
    assert value(done["data"], "Status") == "Done" and value(done["data"], "Owner") == "Agent", (
        "others unchanged"
    )
    snap = outcome(tools.world).page("sprint4")
    assert snap is not None
    grid = next(b for b in snap.blocks if b.key == "board")
    assert grid.type == "child_database" and grid.columns == ["Ticket", "Title", "Owner", "Status", "PR"]
    row = grid.row("142")
    assert row is not None and row.type == "page" and row.edited and row.created_by == "seed"
    assert row.cells == [
        "#142",
        "Fix Hydra OOMKills (buffer leak, Redis connections)",
        "Agent",
        "Done",
        done["data"]["properties"]["PR"]["url"],
    ]
    assert not grid.row("143").edited  # type: ignore[union-attr]


def test_a_row_value_is_checked_as_notion_checks_it(tools: SandboxToolset) -> None:
    board = board_of(tools, "Sprint 4")
    ticket = row_named(tools, board, "#143")

    def update(*properties: dict[str, str]) -> dict[str, Any]:
        return tools.execute(
            "NOTION_UPDATE_ROW_DATABASE", {"row_id": ticket["id"], "properties": list(properties)}
        )

    refused = {
        "Priority is not a property that exists": {"name": "Priority", "type": "select", "value": "High"},
        "Status is expected to be select": {"name": "Status", "type": "status", "value": "Done"},
        "Owner is expected to be rich_text": {"name": "Owner", "type": "select", "value": "Agent"},
        "cannot contain a comma": {"name": "Status", "type": "select", "value": "Done, shipped"},
    }
    for says, item in refused.items():
        result = update(item)
        assert not result["successful"] and says in result["error"], (says, result["error"])
    assert not update({"name": "Owner", "type": "rich_text", "value": "x" * 2001})["successful"]
    assert value(row_named(tools, board, "#143"), "Status") == "To Do", "a refused update changes nothing"
    mixed = update(
        {"name": "Owner", "type": "rich_text", "value": "Marcus"},
        {"name": "Status", "type": "select", "value": "Done,"},
    )
    assert not mixed["successful"] and value(row_named(tools, board, "#143"), "Owner") == "Agent"
    new_option = update({"name": "Status", "type": "select", "value": "Blocked"})
    assert new_option["successful"], "a select takes a new option and adds it, as Notion does"
    schema = tools.execute("NOTION_FETCH_DATABASE", {"database_id": board})["data"]["properties"]
    assert schema["Status"]["select"]["options"][-1]["name"] == "Blocked"
    as_json = tools.execute(
        "NOTION_UPDATE_ROW_DATABASE",
        {"row_id": ticket["id"], "properties": '[{"name": "Status", "type": "select", "value": "Done"}]'},
    )
    assert as_json["successful"] and value(as_json["data"], "Status") == "Done", (
        "a JSON-encoded list is accepted"
    )
    not_a_row = tools.execute("NOTION_UPDATE_ROW_DATABASE", {"row_id": board, "properties": []})
    assert not not_a_row["successful"]


def test_update_page_writes_a_row_with_the_notion_api_value_objects(tools: SandboxToolset) -> None:
    findings = board_of(tools, "Q3 Audit")
    sec004 = row_named(tools, findings, "SEC-004")
    done = tools.execute(
        "NOTION_UPDATE_PAGE",
        {
            "page_id": sec004["id"],
            "properties": {
                "Status": {"select": {"name": "Remediated"}},
                "Notes": {"rich_text": text("PR #1")},
            },
        },
    )
    assert (
        done["successful"]
        and value(done["data"], "Status") == "Remediated"
        and value(done["data"], "Notes") == "PR #1"
    )
    plain = tools.execute(
        "NOTION_UPDATE_PAGE", {"page_id": sec004["id"], "properties": {"Status": "Remediated"}}
    )
    assert not plain["successful"] and "plain value" in plain["error"]
    cleared = tools.execute(
        "NOTION_UPDATE_PAGE", {"page_id": sec004["id"], "properties": {"Severity": {"select": None}}}
    )
    assert cleared["successful"] and value(cleared["data"], "Severity") is None


def test_adding_a_timeline_entry_is_inserting_a_row(tools: SandboxToolset) -> None:
    timeline = board_of(tools, "INC-2025-0714")
    added = tools.execute(
        "NOTION_INSERT_ROW_DATABASE",
        {
            "database_id": timeline,
            "properties": [
                {"name": "Time", "type": "title", "value": "2025-07-14 03:10 UTC"},
                {"name": "Event", "type": "rich_text", "value": "PR opened"},
            ],
            "child_blocks": [{"content": "Details follow.", "block_property": "paragraph"}],
        },
    )
    assert added["successful"], added["error"]
    assert (
        value(added["data"], "Time") == "2025-07-14 03:10 UTC"
        and added["data"]["parent"]["database_id"] == timeline
    )
    listed = rows(tools, timeline)
    assert [value(r, "Time")[-9:] for r in listed][-1] == "03:10 UTC" and len(listed) == 5
    content = tools.execute("NOTION_FETCH_BLOCK_CONTENTS", {"block_id": added["data"]["id"]})["data"][
        "results"
    ]
    assert [c["paragraph"]["rich_text"][0]["plain_text"] for c in content] == ["Details follow."]
    snap = outcome(tools.world).page("incident")
    assert snap is not None
    grid = next(b for b in snap.blocks if b.key == "timeline")
    assert [r.created_by for r in grid.children] == ["seed"] * 4 + ["agent"]
    assert grid.children[-1].cells == ["2025-07-14 03:10 UTC", "PR opened"]
    wrong = tools.execute(
        "NOTION_INSERT_ROW_DATABASE",
        {"database_id": timeline, "properties": [{"name": "Event", "type": "title", "value": "x"}]},
    )
    assert not wrong["successful"] and "expected to be rich_text" in wrong["error"]
    assert len(rows(tools, timeline)) == 5


def test_deleting_a_row_archives_it_and_graders_see_it_gone(tools: SandboxToolset) -> None:
    board = board_of(tools, "Sprint 4")
    ticket = row_named(tools, board, "#144")
    gone = tools.execute("NOTION_UPDATE_ROW_DATABASE", {"row_id": ticket["id"], "delete_row": True})
    assert gone["successful"] and gone["data"]["archived"] is True
    assert "#144" not in [value(r, "Ticket") for r in rows(tools, board)]
    snap = outcome(tools.world).page("sprint4")
    assert snap is not None
    row = next(b for b in snap.blocks if b.key == "board").row("144")
    assert row is not None and row.archived
    archived = tools.execute("NOTION_DELETE_BLOCK", {"block_id": board})
    assert (
        archived["successful"]
        and archived["data"]["type"] == "child_database"
        and archived["data"]["archived"]
    )
    assert not tools.execute("NOTION_QUERY_DATABASE", {"database_id": board})["successful"]
