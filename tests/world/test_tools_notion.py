"""Notion tools on the Nightshift workspace: editing a field in place and appending are different states."""

from __future__ import annotations

from typing import Any

import pytest

from evals.core.jsonio import canonical
from evals.scenario.load import load_scenario
from evals.scenario.model import Scenario
from evals.world.sandbox.model import Page
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


def row(*cells: str) -> dict[str, Any]:
    return {"type": "table_row", "table_row": {"cells": [text(c) for c in cells]}}


def page(tools: SandboxToolset, key: str) -> Page:
    return next(p for p in tools.world.notion.pages if p.key == key)


def block_id(tools: SandboxToolset, key: str, block: str) -> str:
    found = page(tools, key).block(block)
    assert found is not None
    return found.id


def test_search_finds_pages_by_title_words_and_filters(tools: SandboxToolset) -> None:
    hit = tools.execute("NOTION_SEARCH_NOTION_PAGE", {"query": "Deployment Spec"})
    assert [r["id"] for r in hit["data"]["results"]] == [page(tools, "spec").id]
    pages = tools.execute(
        "NOTION_SEARCH_NOTION_PAGE",
        {"query": "", "filter_value": "page", "filter_property": "object", "page_size": 100},
    )
    titles = [r["properties"]["title"]["title"][0]["plain_text"] for r in pages["data"]["results"]]
    assert titles[:5] == [p.title for p in tools.world.notion.pages], "the scenario's pages first"
    assert set(titles[5:]) == {
        "Engineering",
        "Infrastructure",
        "Incidents",
        "Security",
        "Sprint Tracker",
        "Product",
        "API Reference",
    }, "then the breadcrumb pages above them"
    assert tools.execute("NOTION_SEARCH_NOTION_PAGE", {"filter_value": "database"})["data"]["results"] == []
    assert not tools.execute("NOTION_SEARCH_NOTION_PAGE", {"filter_value": "blocks"})["successful"]


def test_search_gives_two_results_a_page_unless_asked_as_composios_docs_say(tools: SandboxToolset) -> None:
    """Composio's documented defaults: page_size 2, filter pages (filter_property object)."""
    first = tools.execute("NOTION_SEARCH_NOTION_PAGE", {})["data"]
    assert len(first["results"]) == 2 and first["has_more"] and first["next_cursor"] == "2"
    again = tools.execute(
        "NOTION_SEARCH_NOTION_PAGE",
        {"query": "", "page_size": 2, "filter_value": "page", "filter_property": "object"},
    )["data"]
    assert [r["id"] for r in again["results"]] == [r["id"] for r in first["results"]]
    after = tools.execute("NOTION_SEARCH_NOTION_PAGE", {"start_cursor": first["next_cursor"]})["data"]
    assert [r["id"] for r in after["results"]] == [p.id for p in tools.world.notion.pages[2:4]]


def test_a_table_row_status_is_edited_in_place(tools: SandboxToolset) -> None:
    target = page(tools, "audit").block("findings").row("SEC-004")  # type: ignore[union-attr]
    assert target is not None
    cells = ["SEC-004", "key", "High", "Remediated", "PR link"]
    done = tools.execute(
        "NOTION_UPDATE_BLOCK",
        {"block_id": target.id, "block_type": "table_row", "content": {"cells": [text(c) for c in cells]}},
    )
    assert done["successful"] and target.cells == cells and target.edited and target.created_by == "seed"
    short = tools.execute(
        "NOTION_UPDATE_BLOCK",
        {"block_id": target.id, "block_type": "table_row", "content": {"cells": [text("x")]}},
    )
    assert not short["successful"]
    wrong_type = tools.execute(
        "NOTION_UPDATE_BLOCK",
        {"block_id": target.id, "block_type": "paragraph", "content": {"rich_text": text("x")}},
    )
    assert not wrong_type["successful"]


def test_the_incident_status_paragraph_is_updated_not_appended(tools: SandboxToolset) -> None:
    status = block_id(tools, "incident", "status")
    before = len(page(tools, "incident").blocks)
    done = tools.execute(
        "NOTION_UPDATE_BLOCK",
        {"block_id": status, "block_type": "paragraph", "content": {"rich_text": text("Status: RESOLVED")}},
    )
    assert done["successful"]
    block = page(tools, "incident").block("status")
    assert block is not None and block.text == "Status: RESOLVED" and block.edited
    assert len(page(tools, "incident").blocks) == before
    assert not tools.execute(
        "NOTION_UPDATE_BLOCK", {"block_id": "missing", "block_type": "paragraph", "content": {}}
    )["successful"]


def test_appending_rows_to_the_timeline_table(tools: SandboxToolset) -> None:
    timeline = block_id(tools, "incident", "timeline")
    added = tools.execute(
        "NOTION_APPEND_TABLE_BLOCKS",
        {"block_id": timeline, "children": [row("03:10", "PR opened"), row("03:20", "x")]},
    )
    assert added["successful"] and [r["type"] for r in added["data"]["results"]] == ["table_row"] * 2
    table = page(tools, "incident").block("timeline")
    assert table is not None
    assert [r.created_by for r in table.children] == ["seed"] * 5 + ["agent"] * 2
    assert table.children[-2].cells == ["03:10", "PR opened"]
    listed = tools.execute("NOTION_FETCH_BLOCK_CONTENTS", {"block_id": timeline})
    assert len(listed["data"]["results"]) == 7


def test_bad_table_appends_are_refused(tools: SandboxToolset) -> None:
    timeline = block_id(tools, "incident", "timeline")
    incident = page(tools, "incident").id
    three_cells = tools.execute(
        "NOTION_APPEND_TABLE_BLOCKS", {"block_id": timeline, "children": [row("a", "b", "c")]}
    )
    assert not three_cells["successful"] and "2" in three_cells["error"]
    row_on_page = tools.execute(
        "NOTION_APPEND_TABLE_BLOCKS", {"block_id": incident, "children": [row("a", "b")]}
    )
    assert not row_on_page["successful"]
    paragraph_in_table = tools.execute(
        "NOTION_APPEND_TEXT_BLOCKS",
        {"block_id": timeline, "children": [{"type": "paragraph", "paragraph": {"rich_text": text("x")}}]},
    )
    assert not paragraph_in_table["successful"]
    assert len(page(tools, "incident").block("timeline").children) == 5  # type: ignore[union-attr]


def test_a_new_table_can_be_added_to_a_page(tools: SandboxToolset) -> None:
    api = page(tools, "api").id
    table = {
        "type": "table",
        "table": {
            "table_width": 2,
            "has_column_header": True,
            "children": [row("Method", "Path"), row("GET", "/healthz")],
        },
    }
    assert tools.execute("NOTION_APPEND_TABLE_BLOCKS", {"block_id": api, "children": [table]})["successful"]
    new = page(tools, "api").blocks[-1]
    assert new.type == "table" and new.created_by == "agent" and new.column("Path") == 1
    no_rows = {"type": "table", "table": {"table_width": 2, "children": []}}
    assert not tools.execute("NOTION_APPEND_TABLE_BLOCKS", {"block_id": api, "children": [no_rows]})[
        "successful"
    ]


def test_appended_text_lands_after_a_given_block_and_is_marked_as_the_agents(tools: SandboxToolset) -> None:
    incident = page(tools, "incident")
    rca = block_id(tools, "incident", "rca_body")
    added = tools.execute(
        "NOTION_APPEND_TEXT_BLOCKS",
        {
            "block_id": incident.id,
            "after": rca,
            "children": [
                {"type": "bulleted_list_item", "bulleted_list_item": {"rich_text": text("buffers")}}
            ],
        },
    )
    assert added["successful"]
    keys = [b.key for b in incident.blocks]
    assert incident.blocks[keys.index("rca_body") + 1].created_by == "agent"
    assert incident.block("rca_body").edited is False  # type: ignore[union-attr]
    too_long = {"type": "paragraph", "paragraph": {"rich_text": text("x" * 2001)}}
    assert not tools.execute("NOTION_APPEND_TEXT_BLOCKS", {"block_id": incident.id, "children": [too_long]})[
        "successful"
    ]


def test_task_blocks_and_checking_a_to_do(tools: SandboxToolset) -> None:
    api = page(tools, "api").id
    todo = {"type": "to_do", "to_do": {"rich_text": text("Review docs"), "checked": False}}
    added = tools.execute("NOTION_APPEND_TASK_BLOCKS", {"block_id": api, "children": [todo]})
    assert added["successful"]
    todo_id = added["data"]["results"][0]["id"]
    checked = tools.execute(
        "NOTION_UPDATE_BLOCK", {"block_id": todo_id, "block_type": "to_do", "content": {"checked": True}}
    )
    assert checked["successful"] and checked["data"]["to_do"]["checked"] is True
    bad = {"type": "to_do", "to_do": {"rich_text": text("x"), "checked": "yes"}}
    assert not tools.execute("NOTION_APPEND_TASK_BLOCKS", {"block_id": api, "children": [bad]})["successful"]
    heading = {"type": "heading_1", "heading_1": {"rich_text": text("x")}}
    assert not tools.execute("NOTION_APPEND_TASK_BLOCKS", {"block_id": api, "children": [heading]})[
        "successful"
    ]


def test_page_properties_title_and_errors(tools: SandboxToolset) -> None:
    incident = page(tools, "incident")
    done = tools.execute(
        "NOTION_UPDATE_PAGE",
        {
            "page_id": incident.id,
            "properties": {"Severity": {"select": {"name": "P2"}}, "title": text("INC renamed")},
        },
    )
    assert done["successful"] and incident.properties["Severity"] == "P2" and incident.title == "INC renamed"
    unknown = tools.execute("NOTION_UPDATE_PAGE", {"page_id": incident.id, "properties": {"Colour": "red"}})
    assert not unknown["successful"] and "Colour" in unknown["error"]
    assert not tools.execute("NOTION_UPDATE_PAGE", {"page_id": incident.id})["successful"]
    assert not tools.execute("NOTION_UPDATE_PAGE", {"page_id": "nope", "properties": {"title": "x"}})[
        "successful"
    ]


def test_create_and_archive_pages(tools: SandboxToolset) -> None:
    parent = page(tools, "api")
    made = tools.execute(
        "NOTION_CREATE_NOTION_PAGE", {"parent_id": parent.id, "title": "Hydra API changelog"}
    )
    assert made["successful"]
    new = tools.world.notion.pages[-1]
    assert new.created_by == "agent" and new.path == ["Product", "API Reference", "Hydra Inference API"]
    assert not tools.execute("NOTION_CREATE_NOTION_PAGE", {"parent_id": "nope", "title": "x"})["successful"]
    assert not tools.execute("NOTION_CREATE_NOTION_PAGE", {"parent_id": parent.id, "title": " "})[
        "successful"
    ]
    archived = tools.execute("NOTION_ARCHIVE_NOTION_PAGE", {"page_id": made["data"]["id"]})
    assert archived["successful"] and archived["data"]["archived"] is True
    assert tools.execute("NOTION_SEARCH_NOTION_PAGE", {"query": "changelog"})["data"]["results"] == []
    restored = tools.execute("NOTION_ARCHIVE_NOTION_PAGE", {"page_id": made["data"]["id"], "archive": False})
    assert restored["data"]["archived"] is False
    assert not tools.execute("NOTION_ARCHIVE_NOTION_PAGE", {"page_id": "nope"})["successful"]


def test_the_same_notion_calls_give_byte_identical_snapshots(scenario: Scenario) -> None:
    def run() -> str:
        tools = SandboxToolset(seed(scenario, 0))
        timeline = block_id(tools, "incident", "timeline")
        tools.execute("NOTION_APPEND_TABLE_BLOCKS", {"block_id": timeline, "children": [row("t", "e")]})
        tools.execute("NOTION_CREATE_NOTION_PAGE", {"parent_id": page(tools, "api").id, "title": "x"})
        return canonical(outcome(tools.world).model_dump(mode="json"))

    assert run() == run()


def test_retrieve_a_page_and_fetch_children_by_id(tools: SandboxToolset) -> None:
    audit = page(tools, "audit")
    got = tools.execute("NOTION_RETRIEVE_PAGE", {"page_id": audit.id.replace("-", "")})
    assert got["successful"] and got["data"]["url"] == audit.url
    assert got["data"]["properties"]["title"]["title"][0]["plain_text"] == "Q3 Audit 2025"
    assert not tools.execute("NOTION_RETRIEVE_PAGE", {"page_id": "nope"})["successful"]
    rows = tools.execute("NOTION_FETCH_BLOCK_CONTENTS", {"block_id": block_id(tools, "audit", "findings")})
    header = rows["data"]["results"][0]["table_row"]["cells"]
    assert [c[0]["plain_text"] for c in header] == ["ID", "Finding", "Severity", "Status", "Notes"]
    whole = tools.execute("NOTION_FETCH_BLOCK_CONTENTS", {"block_id": audit.id, "page_size": None})["data"]
    assert not whole["has_more"] and len(whole["results"]) == len(audit.blocks), "no page_size: Notion's 100"
    paged = tools.execute("NOTION_FETCH_BLOCK_CONTENTS", {"block_id": audit.id, "page_size": 1})
    assert paged["data"]["has_more"] and paged["data"]["next_cursor"] == "1"
    assert not tools.execute("NOTION_FETCH_BLOCK_CONTENTS", {"block_id": "nope"})["successful"]
    assert not tools.execute("NOTION_FETCH_BLOCK_CONTENTS", {"block_id": audit.id, "page_size": 0})[
        "successful"
    ]


def test_breadcrumbs_are_pages_above_the_scenario_pages(tools: SandboxToolset) -> None:
    """Search matches titles only, as Notion's does: the breadcrumb is a chain of real-looking pages."""
    found = tools.execute("NOTION_SEARCH_NOTION_PAGE", {"query": "Infrastructure"})["data"]["results"]
    assert len(found) == 1 and found[0]["parent"]["type"] == "page_id"
    assert tools.execute("NOTION_SEARCH_NOTION_PAGE", {"query": "Engineering Spec"})["data"]["results"] == []
    children = tools.execute("NOTION_FETCH_BLOCK_CONTENTS", {"block_id": found[0]["id"]})["data"]["results"]
    assert [(c["type"], c["child_page"]["title"]) for c in children] == [
        ("child_page", "Hydra Deployment Spec v2.1")
    ]
    spec = tools.execute("NOTION_RETRIEVE_PAGE", {"page_id": page(tools, "spec").id})["data"]
    assert spec["parent"] == {"type": "page_id", "page_id": found[0]["id"]}
    engineering = tools.execute("NOTION_RETRIEVE_PAGE", {"page_id": found[0]["parent"]["page_id"]})["data"]
    assert engineering["parent"] == {"type": "workspace", "workspace": True}
    before = len(tools.world.notion.pages)
    made = tools.execute("NOTION_CREATE_NOTION_PAGE", {"parent_id": found[0]["id"], "title": "Runbook"})
    assert made["data"]["parent"] == {"type": "page_id", "page_id": found[0]["id"]}
    assert len(tools.world.notion.pages) == before + 1, "creating under a breadcrumb leaves it derived"
    note = {"type": "paragraph", "paragraph": {"rich_text": text("Owned by infra")}}
    assert tools.execute("NOTION_APPEND_TEXT_BLOCKS", {"block_id": found[0]["id"], "children": [note]})[
        "successful"
    ]
    written = tools.world.notion.pages[-1]
    assert (written.id, written.title, written.blocks[0].text) == (
        found[0]["id"],
        "Infrastructure",
        "Owned by infra",
    )


def test_rich_text_must_be_rich_text_objects_not_a_bare_string(tools: SandboxToolset) -> None:
    status = block_id(tools, "incident", "status")
    bare = tools.execute(
        "NOTION_UPDATE_BLOCK", {"block_id": status, "block_type": "paragraph", "content": {"rich_text": "x"}}
    )
    assert not bare["successful"] and "not a string" in bare["error"]
    appended = tools.execute(
        "NOTION_APPEND_TEXT_BLOCKS",
        {
            "block_id": page(tools, "api").id,
            "children": [{"type": "paragraph", "paragraph": {"rich_text": "x"}}],
        },
    )
    assert not appended["successful"]
    prop = tools.execute(
        "NOTION_UPDATE_PAGE", {"page_id": page(tools, "incident").id, "properties": {"Severity": "P2"}}
    )
    assert not prop["successful"] and "Severity" in prop["error"]
