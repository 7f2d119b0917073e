"""Notion content at the documented depth, every rich text type, nothing unknown dropped.

Written from Notion's API reference: "Append block children" ("For blocks that allow children, we
allow up to two levels of nesting in a single request"; the new blocks come back, their children
are listed by GET /v1/blocks/{id}/children), the rich text object (types `text`, `mention` and
`equation`; `plain_text` and `href` are read-only and come back on every item), the block object
(a heading holds children only when `is_toggleable`), and the 400 `validation_error` a body that
does not match answers ("body failed validation: ... should be not present")."""

from __future__ import annotations

from typing import Any

import pytest

from evals.scenario.load import load_scenario
from evals.world.sandbox.seed import seed
from evals.world.sandbox.snapshot import outcome
from evals.world.sandbox.tools.toolset import SandboxToolset
from tests.support.paths import ROOT


@pytest.fixture
def tools() -> SandboxToolset:
    return SandboxToolset(seed(load_scenario(ROOT / "scenario", "nightshift"), 0))


def text(value: str) -> list[dict[str, Any]]:
    return [{"type": "text", "text": {"content": value}}]


def block(
    kind: str, words: str, children: list[dict[str, Any]] | None = None, **extra: Any
) -> dict[str, Any]:
    body: dict[str, Any] = {"rich_text": text(words), **extra}
    if children is not None:
        body["children"] = children
    return {"object": "block", "type": kind, kind: body}


def spec(tools: SandboxToolset) -> str:
    return next(p.id for p in tools.world.notion.pages if p.key == "spec")


def listed(tools: SandboxToolset, block_id: str) -> list[dict[str, Any]]:
    result = tools.execute("NOTION_FETCH_BLOCK_CONTENTS", {"block_id": block_id})
    assert result["successful"], result["error"]
    return list(result["data"]["results"])


def words(item: dict[str, Any]) -> str:
    return "".join(t["plain_text"] for t in item[item["type"]]["rich_text"])


def test_a_toggle_keeps_the_paragraph_inside_it_and_lists_it_by_its_id(tools: SandboxToolset) -> None:
    inner = block("paragraph", "rollback: helm rollback hydra 41")
    result = tools.execute(
        "NOTION_APPEND_TASK_BLOCKS",
        {"block_id": spec(tools), "children": [block("toggle", "Runbook", [inner])]},
    )
    assert result["successful"], result["error"]
    toggle = result["data"]["results"][0]
    assert toggle["type"] == "toggle" and toggle["has_children"] is True
    assert [(b["type"], words(b)) for b in listed(tools, toggle["id"])] == [
        ("paragraph", "rollback: helm rollback hydra 41")
    ]
    stored = next(b for p in outcome(tools.world).pages for b in p.blocks if b.id == toggle["id"])
    assert [c.text for c in stored.children] == ["rollback: helm rollback hydra 41"]


def test_two_levels_of_nesting_are_kept_and_a_third_is_refused_as_notion_refuses_it(
    tools: SandboxToolset,
) -> None:
    two = block("toggle", "a", [block("bulleted_list_item", "b", [block("paragraph", "c")])])
    done = tools.execute("NOTION_APPEND_TASK_BLOCKS", {"block_id": spec(tools), "children": [two]})
    assert done["successful"], done["error"]
    middle = listed(tools, done["data"]["results"][0]["id"])[0]
    assert words(middle) == "b" and [words(b) for b in listed(tools, middle["id"])] == ["c"]

    before = len(tools.world.notion.pages[0].walk())
    three = block("toggle", "a", [block("toggle", "b", [block("toggle", "c", [block("paragraph", "d")])])])
    refused = tools.execute("NOTION_APPEND_TASK_BLOCKS", {"block_id": spec(tools), "children": [three]})
    assert not refused["successful"]
    assert "validation_error" in refused["error"]
    assert (
        "body.children[0].toggle.children[0].toggle.children[0].toggle.children should be not present"
        in (refused["error"])
    )
    assert len(tools.world.notion.pages[0].walk()) == before, "nothing of a refused request is written"


@pytest.mark.parametrize(("toggleable", "accepted"), [(True, True), (False, False)])
def test_a_heading_holds_children_only_when_it_is_toggleable(
    tools: SandboxToolset, toggleable: bool, accepted: bool
) -> None:
    heading = block("heading_2", "Details", [block("paragraph", "inside")], is_toggleable=toggleable)
    result = tools.execute("NOTION_APPEND_TEXT_BLOCKS", {"block_id": spec(tools), "children": [heading]})
    assert result["successful"] is accepted, result["error"]
    if not accepted:
        assert "heading_2.children should be not present" in result["error"]


INNER = {"type": "paragraph", "paragraph": {"rich_text": text("y"), "x": 1}}
BOLD_TEXT = {"rich_text": [{"text": {"content": "x", "bold": True}}]}
UNKNOWN = [
    # (tool, arguments with a key Notion does not know, where Notion's error puts it)
    (
        "NOTION_APPEND_TEXT_BLOCKS",
        {"children": [{"type": "paragraph", "paragraph": {"rich_text": text("x"), "colour": "red"}}]},
        "body.children[0].paragraph.colour should be not present",
    ),
    (
        "NOTION_APPEND_TASK_BLOCKS",
        {"children": [block("toggle", "x", [INNER])]},
        "body.children[0].toggle.children[0].paragraph.x should be not present",
    ),
    (
        "NOTION_APPEND_TEXT_BLOCKS",
        {"children": [{"type": "paragraph", "paragraph": BOLD_TEXT}]},
        "body.children[0].paragraph.rich_text[0].text.bold should be not present",
    ),
]  # fmt: skip


@pytest.mark.parametrize(("slug", "args", "named"), UNKNOWN, ids=[n for _, _, n in UNKNOWN])
def test_an_unknown_key_in_the_content_is_notions_validation_error_never_dropped(
    tools: SandboxToolset, slug: str, args: dict[str, Any], named: str
) -> None:
    before = tools.world.model_dump()
    result = tools.execute(slug, {"block_id": spec(tools), **args})
    assert not result["successful"] and "validation_error" in result["error"] and named in result["error"]
    assert tools.world.model_dump() == before


def test_an_unknown_parameter_is_still_composios_refusal(tools: SandboxToolset) -> None:
    result = tools.execute(
        "NOTION_APPEND_TEXT_BLOCKS", {"block_id": spec(tools), "children": [], "colour": 1}
    )
    assert not result["successful"] and result["error"].startswith("Invalid arguments: colour")


def test_mentions_and_equations_are_taken_as_notion_shows_them(tools: SandboxToolset) -> None:
    page_id = spec(tools)
    rich = [
        {"type": "text", "text": {"content": "See "}, "plain_text": "See ", "href": None},
        {"type": "mention", "mention": {"type": "page", "page": {"id": page_id}}},
        {"type": "text", "text": {"content": ", ask "}},
        {"type": "mention", "mention": {"type": "user", "user": {"id": "u-42"}}},
        {"type": "text", "text": {"content": " by "}},
        {"type": "mention", "mention": {"type": "date", "date": {"start": "2025-09-08"}}},
        {"type": "text", "text": {"content": ": "}},
        {"type": "equation", "equation": {"expression": "E = mc^2"}},
    ]
    result = tools.execute(
        "NOTION_APPEND_TEXT_BLOCKS",
        {"block_id": page_id, "children": [{"type": "paragraph", "paragraph": {"rich_text": rich}}]},
    )
    assert result["successful"], result["error"]
    assert words(result["data"]["results"][0]) == (
        "See Hydra Deployment Spec v2.1, ask @u-42 by 2025-09-08: E = mc^2"
    )


def test_a_mention_must_hold_the_kind_it_names(tools: SandboxToolset) -> None:
    rich = [{"type": "mention", "mention": {"type": "page", "user": {"id": "u-42"}}}]
    result = tools.execute(
        "NOTION_APPEND_TEXT_BLOCKS",
        {"block_id": spec(tools), "children": [{"type": "paragraph", "paragraph": {"rich_text": rich}}]},
    )
    assert not result["successful"] and "validation_error" in result["error"]


def board(tools: SandboxToolset) -> str:
    return next(d.id for d in tools.world.notion.databases if d.inline)


@pytest.mark.parametrize(
    ("child", "accepted"),
    [
        ({"content": "check the dashboards", "block_property": "to_do"}, True),
        ({"content": "as agreed", "block_property": "quote"}, True),
        ({"content": "details", "block_property": "toggle"}, True),
        ({"content": "x", "block_property": "divider"}, False),
        ({"content": "x", "block_property": "paragraph", "colour": "red"}, False),
    ],
)
def test_a_new_rows_content_takes_the_text_block_types_and_refuses_unknown_keys(
    tools: SandboxToolset, child: dict[str, Any], accepted: bool
) -> None:
    result = tools.execute(
        "NOTION_INSERT_ROW_DATABASE", {"database_id": board(tools), "child_blocks": [child]}
    )
    assert result["successful"] is accepted, result["error"]
    if accepted:
        kinds = [b["type"] for b in listed(tools, result["data"]["id"])]
        assert kinds == [child["block_property"]]


PROPERTY_TEXT = [
    # (a rich text property value, the text Notion keeps, or None: refused)
    ([{"type": "mention", "mention": {"type": "date", "date": {"start": "2025-09-08"}}}], "2025-09-08"),
    (
        [{"type": "mention", "mention": {"type": "user", "user": {"id": "u-42"}}, "plain_text": "@Kofi"}],
        "@Kofi",
    ),
    ([{"type": "equation", "equation": {"expression": "x^2"}}], "x^2"),
    ([{"type": "text", "text": {"content": "P2"}, "plain_text": "P2", "href": None}], "P2"),
    ([{"type": "text", "text": {"content": "P2"}, "colour": "red"}], None),
    ([{"type": "text", "text": {"content": "P2", "bold": True}}], None),
    ([{"type": "mention", "mention": {"type": "page"}}], None),
]


@pytest.mark.parametrize(("rich", "kept"), PROPERTY_TEXT, ids=[str(k) for _, k in PROPERTY_TEXT])
def test_a_property_value_takes_every_rich_text_type_and_refuses_unknown_keys(
    tools: SandboxToolset, rich: list[dict[str, Any]], kept: str | None
) -> None:
    incident = next(p for p in tools.world.notion.pages if p.key == "incident")
    seeded = incident.properties["Severity"]
    result = tools.execute(
        "NOTION_UPDATE_PAGE", {"page_id": incident.id, "properties": {"Severity": {"rich_text": rich}}}
    )
    assert result["successful"] is (kept is not None), result["error"]
    assert incident.properties["Severity"] == (kept if kept is not None else seeded)


def test_a_request_past_notions_size_limits_is_refused_whatever_its_width_or_depth(
    tools: SandboxToolset,
) -> None:
    """Hostile width: live Notion takes at most 100 block children in any array, 1,000 block
    elements and 500 KB in one request (its request limits); the sandbox refuses the same requests
    in Notion's words and writes nothing, so no grader after it reads a million blocks."""
    page = spec(tools)
    before = len(tools.world.notion.pages[0].walk())

    wide = block("toggle", "a", [block("paragraph", str(n)) for n in range(101)])
    refused = tools.execute("NOTION_APPEND_TASK_BLOCKS", {"block_id": page, "children": [wide]})
    assert not refused["successful"]
    assert "body.children[0].toggle.children.length should be ≤ `100`, instead was `101`." in refused["error"]

    eleven_hundred = [block("toggle", str(t), [block("paragraph", "x")] * 10) for t in range(100)]
    refused = tools.execute("NOTION_APPEND_TASK_BLOCKS", {"block_id": page, "children": eleven_hundred})
    assert not refused["successful"] and "1100 block elements; at most 1000" in refused["error"]

    heavy = [{"type": "paragraph", "paragraph": {"rich_text": text("x" * 2000) * 3}}] * 100  # 600 KB
    refused = tools.execute("NOTION_APPEND_TEXT_BLOCKS", {"block_id": page, "children": heavy})
    assert not refused["successful"] and "at most 500000 are allowed" in refused["error"]

    deep: dict[str, Any] = {}
    for _ in range(100_000):
        deep = {"x": deep}
    refused = tools.execute("NOTION_APPEND_TEXT_BLOCKS", {"block_id": page, "children": [deep]})
    assert not refused["successful"] and "validation_error" in refused["error"]
    assert len(tools.world.notion.pages[0].walk()) == before, "nothing of a refused request is written"

    # the limits themselves are allowed: 100 children, 1,000 elements
    fits = [block("toggle", str(t), [block("paragraph", "x")] * 9) for t in range(100)]
    done = tools.execute("NOTION_APPEND_TASK_BLOCKS", {"block_id": page, "children": fits})
    assert done["successful"], done["error"]
