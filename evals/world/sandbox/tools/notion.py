"""Notion tools over the sandbox block tree, shaped like the Notion API objects Composio returns.

Confirmed against Composio's schemas (version 20260113_00): NOTION_APPEND_TEXT_BLOCKS,
NOTION_DELETE_BLOCK, NOTION_ARCHIVE_NOTION_PAGE. The parameters of NOTION_SEARCH_NOTION_PAGE,
NOTION_FETCH_BLOCK_CONTENTS, NOTION_UPDATE_PAGE and NOTION_CREATE_NOTION_PAGE are confirmed against
a copy of Composio's Notion docs page (tfcbot/flowslash-agent at b6632bd, 2025-09-04): names, types,
required and defaults (search gives 2 results unless `page_size` says otherwise); their results are
modelled on the Notion API objects. No schema was found for NOTION_RETRIEVE_PAGE,
NOTION_APPEND_TASK_BLOCKS or NOTION_APPEND_TABLE_BLOCKS (not on that page), and NOTION_UPDATE_BLOCK
differs from it (a string `content` there, the Notion type object here, which the bundled replays
send): those follow the Notion API's own block and page shapes (and their confirmed siblings'
parameters) and are marked `confirmed=False`. The two append slugs are named in
NOTION_APPEND_TEXT_BLOCKS's description ("append_task_blocks", "append_table_blocks").

Inputs are as strict as Composio's: rich text is an array of `{text: {content}}` objects, never a
bare string. Results are Notion objects: blocks with their parent, times and users; pages with their
parent page, title and properties; lists with `has_more` and `next_cursor`.

Pages sit in a hierarchy, as in a real workspace: each scenario page's breadcrumb ("Engineering /
Infrastructure") is a chain of pages above it. The sandbox derives those breadcrumb pages from the
scenario pages' paths (same ids every trial); they are found by search, listed as `child_page`
blocks, and become ordinary pages the first time something changes them. Search matches titles.

Rows are added to an existing table as the Notion API does it: `table_row` children appended to
the table block, here through NOTION_APPEND_TABLE_BLOCKS.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool

from evals.world.outcome import Block
from evals.world.sandbox.model import Page, World
from evals.world.sandbox.tools.base import Params, ToolError, Toolkit

TOOLS = Toolkit("notion")
tool = TOOLS.tool

TEXT_TYPES = {
    "paragraph",
    "heading_1",
    "heading_2",
    "heading_3",
    "bulleted_list_item",
    "numbered_list_item",
    "to_do",
    "callout",
    "quote",
    "code",
    "toggle",
}
MAX_TEXT = 2000  # Notion's limit per text.content
Color = Literal[
    "default",
    "gray",
    "brown",
    "orange",
    "yellow",
    "green",
    "blue",
    "purple",
    "pink",
    "red",
    "gray_background",
    "brown_background",
    "orange_background",
    "yellow_background",
    "green_background",
    "blue_background",
    "purple_background",
    "pink_background",
    "red_background",
]


# -- inputs: the block shapes Composio's append tools accept ------------------------------------------


class Loose(BaseModel):
    """Nested input objects: extra keys are ignored, as JSON schema without additionalProperties."""

    model_config = ConfigDict(extra="ignore")


class Link(Loose):
    url: str


class TextContent(Loose):
    content: str = Field(max_length=MAX_TEXT)
    link: Link | None = None


class Annotations(Loose):
    bold: bool = False
    code: bool = False
    color: Color = "default"
    italic: bool = False
    strikethrough: bool = False
    underline: bool = False


class RichText(Loose):
    annotations: Annotations | None = None
    text: TextContent
    type: Literal["text"] = "text"


class TextBody(Loose):
    rich_text: list[RichText]
    color: Color = "default"


class HeadingBody(TextBody):
    is_toggleable: bool = False


class ToDoBody(TextBody):
    checked: StrictBool = False


class TableRowBody(Loose):
    cells: list[list[RichText]]


class TableRowChild(Loose):
    object: Literal["block"] = "block"
    type: Literal["table_row"] = "table_row"
    table_row: TableRowBody


class TableBody(Loose):
    table_width: int
    has_column_header: bool = False
    has_row_header: bool = False
    children: list[TableRowChild]


class Paragraph(Loose):
    object: Literal["block"] = "block"
    type: Literal["paragraph"] = "paragraph"
    paragraph: TextBody


class Heading1(Loose):
    object: Literal["block"] = "block"
    type: Literal["heading_1"] = "heading_1"
    heading_1: HeadingBody


class Heading2(Loose):
    object: Literal["block"] = "block"
    type: Literal["heading_2"] = "heading_2"
    heading_2: HeadingBody


class Heading3(Loose):
    object: Literal["block"] = "block"
    type: Literal["heading_3"] = "heading_3"
    heading_3: HeadingBody


class Bulleted(Loose):
    object: Literal["block"] = "block"
    type: Literal["bulleted_list_item"] = "bulleted_list_item"
    bulleted_list_item: TextBody


class Numbered(Loose):
    object: Literal["block"] = "block"
    type: Literal["numbered_list_item"] = "numbered_list_item"
    numbered_list_item: TextBody


class ToDo(Loose):
    object: Literal["block"] = "block"
    type: Literal["to_do"] = "to_do"
    to_do: ToDoBody


class Toggle(Loose):
    object: Literal["block"] = "block"
    type: Literal["toggle"] = "toggle"
    toggle: TextBody


class Callout(Loose):
    object: Literal["block"] = "block"
    type: Literal["callout"] = "callout"
    callout: TextBody


class Table(Loose):
    object: Literal["block"] = "block"
    type: Literal["table"] = "table"
    table: TableBody


TextChild = Paragraph | Heading1 | Heading2 | Heading3 | Bulleted | Numbered
TaskChild = ToDo | Toggle | Callout
TableChild = Table | TableRowChild
OptStr = str | None


# -- rendering: Notion API objects ---------------------------------------------------------------------


def rich_text(text: str) -> list[dict[str, Any]]:
    """Plain text as a Notion rich text array (one text object, default annotations)."""
    if not text:
        return []
    return [
        {
            "type": "text",
            "text": {"content": text, "link": None},
            "annotations": Annotations().model_dump(),
            "plain_text": text,
            "href": None,
        }
    ]


def plain(value: Any) -> str:
    """The text of a rich text array; anything else (a bare string included) is refused, as Notion does."""
    if not isinstance(value, list):
        raise ToolError("rich_text must be an array of rich text objects ({text: {content}}), not a string")
    out = []
    for item in value:
        text = item.get("text") if isinstance(item, dict) else None
        if not isinstance(text, dict) or not isinstance(text.get("content"), str):
            raise ToolError("each rich_text item needs text.content, e.g. {type: text, text: {content: ...}}")
        if len(text["content"]) > MAX_TEXT:
            raise ToolError(f"text.content is longer than {MAX_TEXT} characters")
        out.append(text["content"])
    return "".join(out)


def _user(world: World, who: str) -> dict[str, Any]:
    return {"object": "user", "id": world.make_uuid("user", who)}


def _created(world: World, created_by: str, last_edited: str) -> str:
    return world.at(0) if created_by == "seed" else last_edited


def render_block(world: World, block: Block, parent: dict[str, Any]) -> dict[str, Any]:
    body: dict[str, Any]
    if block.type == "table_row":
        body = {"cells": [rich_text(c) for c in block.cells or []]}
    elif block.type == "table":
        width = len(block.children[0].cells or []) if block.children else 0
        body = {"table_width": width, "has_column_header": True, "has_row_header": False}
    elif block.type == "divider":
        body = {}
    else:
        body = {"rich_text": rich_text(block.text), "color": "default"}
        if block.type == "to_do":
            body["checked"] = bool(block.checked)
        if block.type.startswith("heading_"):
            body["is_toggleable"] = False
        if block.type == "code":
            body["language"] = "plain text"
    return {
        "object": "block",
        "id": block.id,
        "parent": parent,
        "created_time": _created(world, block.created_by, block.last_edited),
        "last_edited_time": block.last_edited,
        "created_by": _user(world, block.created_by),
        "last_edited_by": _user(world, "agent" if block.edited else block.created_by),
        "has_children": bool(block.children),
        "archived": block.archived,
        "in_trash": block.archived,
        "type": block.type,
        block.type: body,
    }


def _page_parent(world: World, page: Page) -> dict[str, Any]:
    above = node(world, tuple(page.path)) if page.path else None
    if above is None:
        return {"type": "workspace", "workspace": True}
    return {"type": "page_id", "page_id": above.id}


def render_page(world: World, page: Page) -> dict[str, Any]:
    """A page as Composio returns one (the keys of NOTION_ARCHIVE_NOTION_PAGE's result)."""
    properties: dict[str, Any] = {"title": {"id": "title", "type": "title", "title": rich_text(page.title)}}
    for name, value in page.properties.items():
        properties[name] = {
            "id": world.make_id("property", name)[:4],
            "type": "rich_text",
            "rich_text": rich_text(value),
        }
    return {
        "object": "page",
        "id": page.id,
        "created_time": _created(world, page.created_by, page.last_edited),
        "last_edited_time": page.last_edited,
        "created_by": _user(world, page.created_by),
        "last_edited_by": _user(world, page.created_by),
        "cover": None,
        "icon": None,
        "parent": _page_parent(world, page),
        "archived": page.archived,
        "in_trash": page.archived,
        "properties": properties,
        "url": page.url,
        "public_url": None,
    }


def _child_page(world: World, page: Page, parent: dict[str, Any]) -> dict[str, Any]:
    return {
        "object": "block",
        "id": page.id,
        "parent": parent,
        "created_time": _created(world, page.created_by, page.last_edited),
        "last_edited_time": page.last_edited,
        "created_by": _user(world, page.created_by),
        "last_edited_by": _user(world, page.created_by),
        "has_children": True,
        "archived": page.archived,
        "in_trash": page.archived,
        "type": "child_page",
        "child_page": {"title": page.title},
    }


def _list(items: list[dict[str, Any]], start: int, size: int, kind: str) -> dict[str, Any]:
    more = start + size < len(items)
    return {
        "object": "list",
        "results": items[start : start + size],
        "next_cursor": str(start + size) if more else None,
        "has_more": more,
        "type": kind,
        kind: {},
    }


def _start(cursor: str | None) -> int:
    if not cursor:
        return 0
    if not cursor.isdigit():
        raise ToolError(f"start_cursor {cursor!r} is not a cursor this list gave")
    return int(cursor)


# -- the page hierarchy: scenario pages and the breadcrumb pages above them --------------------------------


def _key(page: Page) -> tuple[str, ...]:
    return (*page.path, page.title)


def breadcrumbs(world: World) -> list[Page]:
    """The pages above the scenario pages that no page of the world is yet (ids derived from the
    breadcrumb, so they are the same every trial). Created on the fly: writing to one makes it real."""
    real = {_key(p) for p in world.notion.pages}
    out: dict[tuple[str, ...], Page] = {}
    for page in world.notion.pages:
        for depth in range(1, len(page.path) + 1):
            crumb = tuple(page.path[:depth])
            if crumb not in real and crumb not in out:
                out[crumb] = Page(
                    id=world.make_uuid("breadcrumb", *crumb),
                    title=crumb[-1],
                    path=list(crumb[:-1]),
                    last_edited=world.at(0),
                )
    return list(out.values())


def all_pages(world: World) -> list[Page]:
    return [*world.notion.pages, *breadcrumbs(world)]


def node(world: World, key: tuple[str, ...]) -> Page | None:
    """The page whose breadcrumb plus title is `key`: a world page first, else a breadcrumb page."""
    return next((p for p in all_pages(world) if _key(p) == key), None)


def find_page(world: World, page_id: str, write: bool = False) -> Page:
    """A page by id (dashes optional). With `write`, a breadcrumb page becomes a page of the world."""
    wanted = page_id.replace("-", "")
    for page in world.notion.pages:
        if page.id.replace("-", "") == wanted:
            return page
    for page in breadcrumbs(world):
        if page.id.replace("-", "") == wanted:
            if write:
                world.notion.pages.append(page)
            return page
    raise ToolError(f"Could not find page with ID: {page_id}")


@dataclass
class Found:
    """Where a block id points: its page, the block (None for the page itself), the list holding it,
    and the block it sits in (None at the top of a page)."""

    page: Page
    block: Block | None
    siblings: list[Block]
    parent: Block | None


def find_block(world: World, block_id: str, write: bool = False) -> Found:
    wanted = block_id.replace("-", "")
    for page in world.notion.pages:
        if page.id.replace("-", "") == wanted:
            return Found(page, None, page.blocks, None)
        stack: list[tuple[list[Block], Block, Block | None]] = [(page.blocks, b, None) for b in page.blocks]
        while stack:
            siblings, block, parent = stack.pop()
            if block.id.replace("-", "") == wanted:
                return Found(page, block, siblings, parent)
            stack.extend((block.children, c, block) for c in block.children)
    page = find_page(world, block_id, write)
    return Found(page, None, page.blocks, None)


def _parent_of(found: Found) -> dict[str, Any]:
    if found.parent is not None:
        return {"type": "block_id", "block_id": found.parent.id}
    return {"type": "page_id", "page_id": found.page.id}


def _children(world: World, found: Found) -> list[dict[str, Any]]:
    """A page's or block's children, as GET /v1/blocks/{id}/children lists them: blocks, then the
    pages directly under a page (as child_page blocks)."""
    holder = found.block
    if holder is not None:
        parent = {"type": "block_id", "block_id": holder.id}
        return [render_block(world, b, parent) for b in holder.children if not b.archived]
    parent = {"type": "page_id", "page_id": found.page.id}
    out = [render_block(world, b, parent) for b in found.page.blocks if not b.archived]
    key = list(_key(found.page))
    out += [_child_page(world, p, parent) for p in all_pages(world) if p.path == key and not p.archived]
    return out


# -- tools -------------------------------------------------------------------------------------------------


class Search(Params):
    query: str = Field(default="", description="Words to find in page titles; empty lists every page.")
    page_size: int = Field(default=2, ge=1, le=100, description="Results per page (Composio's default: 2).")
    start_cursor: str | None = None
    filter_value: Literal["page", "database"] = Field(default="page", description="page or database.")
    filter_property: str = Field(default="object", description="Always 'object'.")
    direction: str | None = Field(default=None, description="ascending or descending.")
    timestamp: str | None = Field(default=None, description="Sort key: last_edited_time.")


@tool("NOTION_SEARCH_NOTION_PAGE", Search)
def search(world: World, p: Search) -> dict[str, Any]:
    """Find pages whose title contains every word of the query (the sandbox has no databases)."""
    words = p.query.lower().split()
    found = [
        page
        for page in all_pages(world)
        if not page.archived and p.filter_value != "database" and all(w in page.title.lower() for w in words)
    ]
    if p.timestamp:
        found.sort(key=lambda page: page.last_edited, reverse=p.direction != "ascending")
    return _list(
        [render_page(world, page) for page in found], _start(p.start_cursor), p.page_size, "page_or_database"
    )


class RetrievePage(Params):
    page_id: str


@tool("NOTION_RETRIEVE_PAGE", RetrievePage, confirmed=False)
def retrieve_page(world: World, p: RetrievePage) -> dict[str, Any]:
    """Get a page's title, properties, parent and url (its content is its block children)."""
    return render_page(world, find_page(world, p.page_id))


class FetchChildren(Params):
    block_id: str = Field(description="A page id or a block id.")
    page_size: int | None = Field(default=None, ge=1, le=100, description="None: Notion's 100.")
    start_cursor: str | None = None


@tool("NOTION_FETCH_BLOCK_CONTENTS", FetchChildren)
def fetch_children(world: World, p: FetchChildren) -> dict[str, Any]:
    """List the child blocks of a page or block (a table's children are its rows, header first; the
    pages under a page are child_page blocks)."""
    found = find_block(world, p.block_id)
    return _list(_children(world, found), _start(p.start_cursor), p.page_size or 100, "block")


def _text_block(world: World, index: int, kind: str, body: dict[str, Any], stamp: str) -> Block:
    return Block(
        id=world.make_uuid("block-new", world.clock, index),
        type=kind,
        text=plain(body.get("rich_text", [])),
        checked=bool(body.get("checked", False)) if kind == "to_do" else None,
        created_by="agent",
        last_edited=stamp,
    )


def _row_block(
    world: World, uid: tuple[object, ...], cells: list[Any], width: int | None, stamp: str
) -> Block:
    if width is not None and len(cells) != width:
        raise ToolError(f"table_row.cells must be a list of {width} rich_text arrays, one per column")
    return Block(
        id=world.make_uuid("block-new", *uid),
        type="table_row",
        cells=[plain(c) for c in cells],
        created_by="agent",
        last_edited=stamp,
    )


def _table_block(world: World, index: int, body: dict[str, Any], stamp: str) -> Block:
    width, rows = body["table_width"], body["children"]
    if width < 1:
        raise ToolError(f"children[{index}]: table.table_width must be a positive integer")
    if not rows:
        raise ToolError(f"children[{index}]: a table needs at least one table_row in table.children")
    built = [
        _row_block(world, (world.clock, index, n), row["table_row"]["cells"], width, stamp)
        for n, row in enumerate(rows)
    ]
    return Block(
        id=world.make_uuid("block-new", world.clock, index),
        type="table",
        children=built,
        created_by="agent",
        last_edited=stamp,
    )


def _append(world: World, block_id: str, children: list[BaseModel], after: str | None) -> dict[str, Any]:
    """Append new blocks (created_by="agent") under a page or block, at the end or after a child."""
    found = find_block(world, block_id, write=True)
    target = found.block.children if found.block else found.page.blocks
    if len(children) > 100:
        raise ToolError("at most 100 blocks per request")
    into_table = found.block is not None and found.block.type == "table"
    stamp = world.tick()
    new = []
    for index, child in enumerate(children):
        raw = child.model_dump()
        kind = next(k for k, v in raw.items() if isinstance(v, dict))
        if into_table != (kind == "table_row"):
            raise ToolError(
                f"children[{index}]: a table's children are table_row blocks"
                if into_table
                else f"children[{index}]: a table_row can only be appended to a table block"
            )
        if kind == "table_row" and found.block is not None:
            rows = found.block.children
            width = len(rows[0].cells or []) if rows else None
            new.append(_row_block(world, (world.clock, index), raw[kind]["cells"], width, stamp))
        elif kind == "table":
            new.append(_table_block(world, index, raw[kind], stamp))
        else:
            new.append(_text_block(world, index, kind, raw[kind], stamp))
    position = len(target)
    if after:
        ids = [b.id.replace("-", "") for b in target]
        if after.replace("-", "") not in ids:
            raise ToolError(f"after: block {after} is not a child of {block_id}")
        position = ids.index(after.replace("-", "")) + 1
    target[position:position] = new
    found.page.last_edited = stamp
    parent = _parent_of(Found(found.page, None, target, found.block))
    return _list([render_block(world, b, parent) for b in new], 0, len(new) or 1, "block")


class AppendBlocks(Params):
    block_id: str = Field(description="Page or block to append to.")
    children: list[TextChild] = Field(
        max_length=100,
        description="Text blocks: paragraph, heading_1..3, bulleted_list_item, numbered_list_item; "
        "each {type, <type>: {rich_text: [{text: {content}}]}}.",
    )
    after: str | None = Field(
        default=None, description="Insert after this child block instead of at the end."
    )


@tool("NOTION_APPEND_TEXT_BLOCKS", AppendBlocks)
def append_blocks(world: World, p: AppendBlocks) -> dict[str, Any]:
    """Append text blocks to a page or block, at the end or after a given child."""
    return _append(world, p.block_id, list(p.children), p.after)


class AppendTaskBlocks(Params):
    block_id: str = Field(description="Page or block to append to.")
    children: list[TaskChild] = Field(
        max_length=100,
        description="Task blocks: to_do ({rich_text, checked}), toggle or callout ({rich_text}); "
        "each {type, <type>: {...}}.",
    )
    after: str | None = Field(default=None, description="Insert after this child block.")


@tool("NOTION_APPEND_TASK_BLOCKS", AppendTaskBlocks, confirmed=False)
def append_task_blocks(world: World, p: AppendTaskBlocks) -> dict[str, Any]:
    """Append to-do, toggle or callout blocks to a page or block."""
    return _append(world, p.block_id, list(p.children), p.after)


class AppendTableBlocks(Params):
    block_id: str = Field(
        description="A page or block to add a new table to, or a table block to add rows to."
    )
    children: list[TableChild] = Field(
        max_length=100,
        description="Either table blocks ({type: table, table: {table_width, has_column_header, "
        "children: [table_row...]}}) for a page, or table_row blocks ({type: table_row, "
        "table_row: {cells: [[rich_text], ...]}}) to add rows to an existing table.",
    )
    after: str | None = Field(default=None, description="Insert after this child block (or row).")


@tool("NOTION_APPEND_TABLE_BLOCKS", AppendTableBlocks, confirmed=False)
def append_table_blocks(world: World, p: AppendTableBlocks) -> dict[str, Any]:
    """Add a table to a page, or add rows to an existing table (one cell per column)."""
    return _append(world, p.block_id, list(p.children), p.after)


class UpdateBlock(Params):
    block_id: str
    block_type: str = Field(description="The block's type, e.g. paragraph, to_do, table_row.")
    content: dict[str, Any] = Field(
        description="The type object as in the Notion API: {rich_text: [{text: {content}}]} "
        "(text blocks), plus {checked: bool} for to_do, or {cells: [[rich_text], ...]} for table_row."
    )


@tool("NOTION_UPDATE_BLOCK", UpdateBlock, confirmed=False)
def update_block(world: World, p: UpdateBlock) -> dict[str, Any]:
    """Change a block's text, a to_do's checked state, or a table row's cells, in place."""
    found = find_block(world, p.block_id)
    block = found.block
    if block is None:
        raise ToolError("block_id is a page; use NOTION_UPDATE_PAGE for page properties")
    if block.type != p.block_type:
        raise ToolError(f"block {p.block_id} is a {block.type}, not a {p.block_type}")
    if block.type == "table_row":
        cells = p.content.get("cells")
        if not isinstance(cells, list) or len(cells) != len(block.cells or []):
            raise ToolError(f"cells must be a list of {len(block.cells or [])} rich_text arrays")
        block.cells = [plain(c) for c in cells]
    elif block.type in TEXT_TYPES:
        if "rich_text" in p.content:
            block.text = plain(p.content["rich_text"])
        if block.type == "to_do" and "checked" in p.content:
            if not isinstance(p.content["checked"], bool):
                raise ToolError("checked must be true or false")
            block.checked = p.content["checked"]
    else:
        raise ToolError(f"blocks of type {block.type} cannot be updated")
    block.edited = True
    block.last_edited = found.page.last_edited = world.tick()
    return render_block(world, block, _parent_of(found))


class DeleteBlock(Params):
    block_id: str


@tool("NOTION_DELETE_BLOCK", DeleteBlock)
def delete_block(world: World, p: DeleteBlock) -> dict[str, Any]:
    """Archive (delete) a block, or a page given its id."""
    found = find_block(world, p.block_id, write=True)
    stamp = world.tick()
    if found.block is None:
        found.page.archived = True
        found.page.last_edited = stamp
        return _child_page(world, found.page, _page_parent(world, found.page))
    found.block.archived = True
    found.block.last_edited = found.page.last_edited = stamp
    return render_block(world, found.block, _parent_of(found))


def _property_text(name: str, value: Any) -> str:
    """A property value as the Notion API takes it: {title|rich_text: [...]}, {select|status: {name}},
    or a rich text array. A bare string is refused, as Notion refuses it."""
    if isinstance(value, list):
        return plain(value)
    if isinstance(value, dict):
        for kind in ("title", "rich_text"):
            if kind in value:
                return plain(value[kind])
        for kind in ("select", "status"):
            option = value.get(kind)
            if isinstance(option, dict) and isinstance(option.get("name"), str):
                return str(option["name"])
    raise ToolError(
        f"properties.{name}: expected a property value such as {{rich_text: [{{text: {{content}}}}]}}, "
        "{title: [...]} or {select: {name}}"
    )


class UpdatePage(Params):
    page_id: str
    properties: dict[str, Any] = Field(
        default={},
        description="Property name -> value, e.g. {title: [rich_text]} or {Status: {select: {name}}}.",
    )
    archived: bool | None = Field(default=None, description="true moves the page to trash.")
    icon: dict[str, Any] | None = None
    cover: dict[str, Any] | None = None


@tool("NOTION_UPDATE_PAGE", UpdatePage)
def update_page(world: World, p: UpdatePage) -> dict[str, Any]:
    """Change a page's title or existing properties (its content is blocks: use NOTION_UPDATE_BLOCK)."""
    if not p.properties and p.archived is None and p.icon is None and p.cover is None:
        raise ToolError("Nothing to update: give properties, archived, icon or cover")
    page = find_page(world, p.page_id, write=True)
    updates: dict[str, str] = {}
    title: str | None = None
    for name, value in p.properties.items():
        text = _property_text(name, value)
        if name.lower() in ("title", "name"):
            if not text.strip():
                raise ToolError("the title must not be empty")
            title = text
        elif name in page.properties:
            updates[name] = text
        else:
            raise ToolError(f"{name} is not a property that exists.")
    if title is not None:
        page.title = title
    page.properties.update(updates)
    if p.archived is not None:
        page.archived = p.archived
    page.last_edited = world.tick()
    return render_page(world, page)


class CreatePage(Params):
    parent_id: str = Field(description="Id of the parent page.")
    title: str = Field(description="Title of the new page.")
    icon: OptStr = Field(default=None, description="A single emoji.")
    cover: OptStr = Field(default=None, description="Public image URL.")


@tool("NOTION_CREATE_NOTION_PAGE", CreatePage)
def create_page(world: World, p: CreatePage) -> dict[str, Any]:
    """Create an empty page under a parent page; add its content with the append tools."""
    parent = find_page(world, p.parent_id)
    if not p.title.strip():
        raise ToolError("title must not be empty")
    stamp = world.tick()
    page = Page(
        id=world.make_uuid("page-new", world.clock),
        title=p.title,
        path=list(_key(parent)),
        created_by="agent",
        last_edited=stamp,
    )
    world.notion.pages.append(page)
    return render_page(world, page)


class ArchivePage(Params):
    page_id: str = Field(description="Id of the page.")
    archive: bool = Field(default=True, description="true moves the page to trash, false restores it.")


@tool("NOTION_ARCHIVE_NOTION_PAGE", ArchivePage)
def archive_page(world: World, p: ArchivePage) -> dict[str, Any]:
    """Archive (move to trash) or restore a page."""
    page = find_page(world, p.page_id, write=True)
    page.archived = p.archive
    page.last_edited = world.tick()
    return render_page(world, page)
