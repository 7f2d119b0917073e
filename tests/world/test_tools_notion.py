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


def page(tools: SandboxToolset, key: str) -> Page:
    return next(p for p in tools.world.notion.pages if p.key == key)


def block_id(tools: SandboxToolset, key: str, block: str) -> str:
    found = page(tools, key).block(block)
    assert found is not None
    return found.id


def test_search_finds_pages_and_databases_by_title_words_and_filters(tools: SandboxToolset) -> None:
    hit = tools.execute("NOTION_SEARCH_NOTION_PAGE", {"query": "Deployment Spec"})["data"]["results"]
    assert [(r["object"], r["id"]) for r in hit] == [
        ("page", page(tools, "spec").id),
        ("database", page(tools, "spec").database),
    ], "no filter: pages and databases (the spec is the one row of its own database)"
    pages = tools.execute(
        "NOTION_SEARCH_NOTION_PAGE",
        {"query": "", "filter_value": "page", "filter_property": "object", "page_size": 100},
    )["data"]["results"]
    assert {r["object"] for r in pages} == {"page"}
    first = [r["id"] for r in pages[:5]]
    assert first == [p.id for p in tools.world.notion.pages[:5]], "the scenario's pages first"
    rows = [r for r in pages if r["parent"]["type"] == "data_source_id"]
    assert len(rows) == 4 + 4 + 4 + 6, "the pages with properties, then every board row (rows are pages)"
    databases = tools.execute("NOTION_SEARCH_NOTION_PAGE", {"filter_value": "database"})["data"]["results"]
    pages_with_properties = [
        "Hydra Deployment Spec v2.1",
        "INC-2025-0714: Hydra pipeline OOMKills",
        "Q3 Audit 2025",
    ]
    boards = ["Timeline", "Findings", "Tickets"]
    assert sorted(d["title"][0]["plain_text"] for d in databases) == sorted(
        [*pages_with_properties, "Sprint 4", *boards]
    )
    assert all("properties" not in d and d["data_sources"] for d in databases), "2025-09-03 databases"
    assert not tools.execute("NOTION_SEARCH_NOTION_PAGE", {"filter_value": "blocks"})["successful"]


def test_search_gives_25_results_a_page_as_the_pinned_docs_say(tools: SandboxToolset) -> None:
    """20260915_00: page_size defaults to 25 (it was 2); an invalid cursor starts from the beginning."""
    first = tools.execute("NOTION_SEARCH_NOTION_PAGE", {})["data"]
    assert len(first["results"]) == 25 and first["has_more"] and first["next_cursor"] == "25"
    after = tools.execute("NOTION_SEARCH_NOTION_PAGE", {"start_cursor": first["next_cursor"]})["data"]
    assert after["results"] and not set(r["id"] for r in after["results"]) & set(
        r["id"] for r in first["results"]
    )
    bogus = tools.execute("NOTION_SEARCH_NOTION_PAGE", {"start_cursor": "not-a-cursor"})["data"]
    assert [r["id"] for r in bogus["results"]] == [r["id"] for r in first["results"]]
    assert not tools.execute("NOTION_SEARCH_NOTION_PAGE", {"page_size": 101})["successful"]
    trimmed = tools.execute(
        "NOTION_SEARCH_NOTION_PAGE",
        {"query": "Sprint 4", "filter_value": "page", "filter_properties": ["Dates"]},
    )["data"]["results"]
    assert list(trimmed[0]["properties"]) == ["Dates"]
    assert not tools.execute("NOTION_SEARCH_NOTION_PAGE", {"timestamp": "last_edited_time"})["successful"]


def test_update_block_replaces_a_text_blocks_text_with_a_string(tools: SandboxToolset) -> None:
    """20260915_00: `content` is the new text (a string, at most 2,000 characters); `block_type` is
    optional and, when given, must be the block's own type; table rows are not text blocks."""
    status = block_id(tools, "incident", "status")
    before = len(page(tools, "incident").blocks)
    done = tools.execute("NOTION_UPDATE_BLOCK", {"block_id": status, "content": "Status: RESOLVED"})
    assert (
        done["successful"] and done["data"]["paragraph"]["rich_text"][0]["plain_text"] == "Status: RESOLVED"
    )
    block = page(tools, "incident").block("status")
    assert block is not None and block.text == "Status: RESOLVED" and block.edited
    assert len(page(tools, "incident").blocks) == before
    typed = tools.execute(
        "NOTION_UPDATE_BLOCK", {"block_id": status, "block_type": "paragraph", "content": "x"}
    )
    assert typed["successful"]
    other = tools.execute(
        "NOTION_UPDATE_BLOCK", {"block_id": status, "block_type": "heading_2", "content": "x"}
    )
    assert not other["successful"] and "cannot change" in other["error"]
    as_object = tools.execute(
        "NOTION_UPDATE_BLOCK", {"block_id": status, "content": {"rich_text": text("Status: RESOLVED")}}
    )
    assert not as_object["successful"] and "content" in as_object["error"]
    assert not tools.execute("NOTION_UPDATE_BLOCK", {"block_id": status, "content": "x" * 2001})["successful"]
    assert not tools.execute("NOTION_UPDATE_BLOCK", {"block_id": "missing", "content": "x"})["successful"]
    archived = tools.execute(
        "NOTION_UPDATE_BLOCK",
        {"block_id": status, "content": "x", "additional_properties": {"archived": True}},
    )
    assert not archived["successful"] and "NOTION_DELETE_BLOCK" in archived["error"]


def test_update_block_does_not_edit_a_table_row_or_a_database(tools: SandboxToolset) -> None:
    env_vars = page(tools, "spec").block("env_vars")
    assert env_vars is not None
    cell = tools.execute("NOTION_UPDATE_BLOCK", {"block_id": env_vars.children[1].id, "content": "HYDRA_ENV"})
    assert not cell["successful"] and "table_row" in cell["error"]
    board = block_id(tools, "audit", "findings")
    assert not tools.execute("NOTION_UPDATE_BLOCK", {"block_id": board, "content": "x"})["successful"]


def test_append_table_blocks_creates_new_tables_with_their_rows(tools: SandboxToolset) -> None:
    api = page(tools, "api").id
    cells = [[text("Method"), text("Path")], [text("GET"), text("/healthz")]]
    table = {"table_width": 2, "has_column_header": True, "rows": [{"cells": c} for c in cells]}
    added = tools.execute("NOTION_APPEND_TABLE_BLOCKS", {"block_id": api, "tables": [table, table]})
    assert added["successful"] and [b["type"] for b in added["data"]["results"]] == ["table", "table"]
    new = page(tools, "api").blocks[-1]
    assert new.type == "table" and new.created_by == "agent" and new.column("Path") == 1
    assert [r.cells for r in new.children] == [["Method", "Path"], ["GET", "/healthz"]]
    listed = tools.execute("NOTION_FETCH_BLOCK_CONTENTS", {"block_id": new.id})["data"]["results"]
    assert [r["type"] for r in listed] == ["table_row", "table_row"]


def test_append_table_blocks_refuses_what_its_docs_refuse(tools: SandboxToolset) -> None:
    api = page(tools, "api").id
    timeline = block_id(tools, "incident", "timeline")
    env_vars = block_id(tools, "spec", "env_vars")
    row = {"cells": [text("a"), text("b")]}
    cases = {
        "three cells in a width of two": (api, {"table_width": 2, "rows": [{"cells": [text("a")] * 3}]}),
        "no rows": (api, {"table_width": 2, "rows": []}),
        "width 0": (api, {"table_width": 0, "rows": [{"cells": []}]}),
        "a table into a table": (env_vars, {"table_width": 2, "rows": [row]}),
        "a table into a database": (timeline, {"table_width": 2, "rows": [row]}),
    }
    for name, (target, table) in cases.items():
        assert not tools.execute("NOTION_APPEND_TABLE_BLOCKS", {"block_id": target, "tables": [table]})[
            "successful"
        ], name
    old_shape = {"type": "table_row", "table_row": {"cells": [text("a"), text("b")]}}
    assert not tools.execute("NOTION_APPEND_TABLE_BLOCKS", {"block_id": env_vars, "children": [old_shape]})[
        "successful"
    ], "no tool appends a row to an existing table"
    assert len(page(tools, "api").blocks) == 1


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
        "NOTION_UPDATE_BLOCK",
        {
            "block_id": todo_id,
            "content": "Review docs",
            "additional_properties": {"checked": True, "color": None},
        },
    )
    assert checked["successful"] and checked["data"]["to_do"]["checked"] is True
    not_a_todo = tools.execute(
        "NOTION_UPDATE_BLOCK",
        {
            "block_id": block_id(tools, "api", "placeholder"),
            "content": "x",
            "additional_properties": {"checked": True},
        },
    )
    assert not not_a_todo["successful"]
    bad = {"type": "to_do", "to_do": {"rich_text": text("x"), "checked": "yes"}}
    assert not tools.execute("NOTION_APPEND_TASK_BLOCKS", {"block_id": api, "children": [bad]})["successful"]
    heading = {"type": "heading_1", "heading_1": {"rich_text": text("x")}}
    assert not tools.execute("NOTION_APPEND_TASK_BLOCKS", {"block_id": api, "children": [heading]})[
        "successful"
    ]


def test_a_page_with_properties_is_the_one_row_of_its_own_database(tools: SandboxToolset) -> None:
    """A page under a page can have only a title, so the live world makes a page with properties the
    row of a database; the sandbox builds the same (the spec's parent is a data source)."""
    incident = page(tools, "incident")
    got = tools.execute("NOTION_RETRIEVE_PAGE", {"page_id": incident.id})["data"]
    assert got["parent"]["type"] == "data_source_id" and got["parent"]["database_id"] == incident.database
    assert list(got["properties"]) == ["title", "Severity", "Owner"]
    done = tools.execute(
        "NOTION_UPDATE_PAGE",
        {
            "page_id": incident.id,
            "properties": {"Severity": {"rich_text": text("P2")}, "title": {"title": text("INC renamed")}},
        },
    )
    assert done["successful"] and incident.properties["Severity"] == "P2" and incident.title == "INC renamed"
    unknown = tools.execute(
        "NOTION_UPDATE_PAGE", {"page_id": incident.id, "properties": {"Colour": {"rich_text": []}}}
    )
    assert not unknown["successful"] and "Colour is not a property that exists" in unknown["error"]
    wrong_type = tools.execute(
        "NOTION_UPDATE_PAGE", {"page_id": incident.id, "properties": {"Severity": {"select": {"name": "P2"}}}}
    )
    assert not wrong_type["successful"] and "Severity is expected to be rich_text" in wrong_type["error"]
    assert not tools.execute("NOTION_UPDATE_PAGE", {"page_id": incident.id})["successful"]
    assert not tools.execute("NOTION_UPDATE_PAGE", {"page_id": "nope", "properties": {"title": text("x")}})[
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
        row = [
            {"name": "Time", "type": "title", "value": "t"},
            {"name": "Event", "type": "rich_text", "value": "e"},
        ]
        tools.execute("NOTION_INSERT_ROW_DATABASE", {"database_id": timeline, "properties": row})
        tools.execute("NOTION_CREATE_NOTION_PAGE", {"parent_id": page(tools, "api").id, "title": "x"})
        return canonical(outcome(tools.world).model_dump(mode="json"))

    assert run() == run()


def test_create_page_takes_markdown_and_a_parents_title(tools: SandboxToolset) -> None:
    body = (
        "# Changelog\n\nHydra 1.8.2:\n\n- buffers **released**\n- [x] pool shared\n\n1. deploy\n\n"
        "```\nkubectl apply\n```\n\n---\n> note"
    )
    made = tools.execute(
        "NOTION_CREATE_NOTION_PAGE",
        {"parent_page_id": "Hydra Inference API", "title": "Changelog", "markdown": body},
    )
    assert made["successful"], made["error"]
    new = tools.world.notion.pages[-1]
    assert new.path == ["Product", "API Reference", "Hydra Inference API"]
    assert [(b.type, b.text) for b in new.blocks] == [
        ("heading_1", "Changelog"),
        ("paragraph", "Hydra 1.8.2:"),
        ("bulleted_list_item", "buffers released"),
        ("to_do", "pool shared"),
        ("numbered_list_item", "deploy"),
        ("code", "kubectl apply"),
        ("divider", ""),
        ("quote", "note"),
    ]
    assert new.blocks[3].checked is True


def test_retrieve_a_page_and_fetch_children_by_id(tools: SandboxToolset) -> None:
    audit = page(tools, "audit")
    got = tools.execute("NOTION_RETRIEVE_PAGE", {"page_id": audit.id.replace("-", "")})
    assert got["successful"] and got["data"]["url"] == audit.url
    assert got["data"]["properties"]["title"]["title"][0]["plain_text"] == "Q3 Audit 2025"
    assert not tools.execute("NOTION_RETRIEVE_PAGE", {"page_id": "nope"})["successful"]
    database = tools.execute("NOTION_RETRIEVE_PAGE", {"page_id": block_id(tools, "audit", "findings")})
    assert not database["successful"] and "database" in database["error"]
    children = tools.execute("NOTION_FETCH_BLOCK_CONTENTS", {"block_id": audit.id})["data"]["results"]
    board = next(c for c in children if c["type"] == "child_database")
    assert board["child_database"] == {"title": "Findings"} and board["has_children"] is False
    no_rows = tools.execute("NOTION_FETCH_BLOCK_CONTENTS", {"block_id": board["id"]})["data"]
    assert no_rows["results"] == [], (
        "a database has no block children: its rows are read with the database tools"
    )
    whole = tools.execute("NOTION_FETCH_BLOCK_CONTENTS", {"block_id": audit.id, "page_size": None})["data"]
    assert not whole["has_more"] and len(whole["results"]) == len(audit.blocks), "no page_size: Notion's 100"
    paged = tools.execute("NOTION_FETCH_BLOCK_CONTENTS", {"block_id": audit.id, "page_size": 1})
    assert paged["data"]["has_more"] and paged["data"]["next_cursor"] == "1"
    assert not tools.execute("NOTION_FETCH_BLOCK_CONTENTS", {"block_id": "nope"})["successful"]
    assert not tools.execute("NOTION_FETCH_BLOCK_CONTENTS", {"block_id": audit.id, "page_size": 0})[
        "successful"
    ]


def test_breadcrumbs_are_pages_above_the_scenario_pages(tools: SandboxToolset) -> None:
    """Search matches titles only, as Notion's does: the breadcrumb is a chain of real-looking pages,
    and a page with properties shows in the page above it as its database, as it does live."""
    found = tools.execute("NOTION_SEARCH_NOTION_PAGE", {"query": "Infrastructure"})["data"]["results"]
    assert len(found) == 1 and found[0]["parent"]["type"] == "page_id"
    assert tools.execute("NOTION_SEARCH_NOTION_PAGE", {"query": "Engineering Spec"})["data"]["results"] == []
    children = tools.execute("NOTION_FETCH_BLOCK_CONTENTS", {"block_id": found[0]["id"]})["data"]["results"]
    assert [(c["type"], c["child_database"]["title"]) for c in children] == [
        ("child_database", "Hydra Deployment Spec v2.1")
    ]
    spec_database = tools.execute("NOTION_FETCH_DATABASE", {"database_id": children[0]["id"]})["data"]
    assert spec_database["parent"] == {"type": "page_id", "page_id": found[0]["id"]}
    assert spec_database["is_inline"] is False
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
    assert not prop["successful"] and "Severity" in prop["error"] and "plain value" in prop["error"]
    also = tools.execute(
        "NOTION_APPEND_TEXT_BLOCKS",
        {
            "block_id": page(tools, "api").id,
            "blocks": [{"type": "paragraph", "paragraph": {"rich_text": text("y")}}],
        },
    )
    assert also["successful"], "the docs: children is also accepted as `blocks`"
