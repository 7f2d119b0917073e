"""Notion tools over the sandbox block tree, shaped like the Notion API objects Composio returns.

Confirmed against Composio's schemas (version 20260113_00): NOTION_APPEND_TEXT_BLOCKS,
NOTION_DELETE_BLOCK, NOTION_ARCHIVE_NOTION_PAGE. No confirmed schema was found for
NOTION_SEARCH_NOTION_PAGE, NOTION_FETCH_BLOCK_CONTENTS, NOTION_RETRIEVE_PAGE, NOTION_UPDATE_BLOCK,
NOTION_UPDATE_PAGE, NOTION_CREATE_NOTION_PAGE, NOTION_APPEND_TASK_BLOCKS or NOTION_APPEND_TABLE_BLOCKS:
those follow the Notion API's own block and page shapes and are marked `confirmed=False`. The last
two slugs are named in the confirmed NOTION_APPEND_TEXT_BLOCKS description ("append_task_blocks",
"append_table_blocks"); their parameters are assumed to mirror it (block_id, children, after).

Adding rows to an existing table is done as the Notion API does it: append `table_row` children to
the table block (PATCH /v1/blocks/{table_id}/children), here through NOTION_APPEND_TABLE_BLOCKS.
"""

from __future__ import annotations

from typing import Any

from pydantic import Field

from evals.outcome import Block
from evals.tools.base import Params, ToolError, Toolkit
from evals.world.model import Page, World

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
APPENDABLE = {"paragraph", "heading_1", "heading_2", "heading_3", "bulleted_list_item", "numbered_list_item"}
TASK_TYPES = {"to_do", "callout", "toggle"}


def rich_text(text: str) -> list[dict[str, Any]]:
    return [{"type": "text", "text": {"content": text, "link": None}, "plain_text": text}] if text else []


def plain(value: Any) -> str:
    """Concatenate the text of a rich_text array (or accept a bare string)."""
    if isinstance(value, str):
        return value
    if not isinstance(value, list):
        raise ToolError("rich_text must be an array of rich text objects")
    out = []
    for item in value:
        if not isinstance(item, dict):
            raise ToolError("each rich_text item must be an object")
        text = item.get("text")
        if isinstance(text, dict) and isinstance(text.get("content"), str):
            out.append(text["content"])
        elif isinstance(item.get("plain_text"), str):
            out.append(item["plain_text"])
        else:
            raise ToolError("rich_text item needs text.content")
    return "".join(out)


def render_block(block: Block) -> dict[str, Any]:
    body: dict[str, Any]
    if block.type == "table_row":
        body = {"cells": [rich_text(c) for c in block.cells or []]}
    elif block.type == "table":
        width = len(block.children[0].cells or []) if block.children else 0
        body = {"table_width": width, "has_column_header": True, "has_row_header": False}
    elif block.type == "divider":
        body = {}
    else:
        body = {"rich_text": rich_text(block.text)}
        if block.type == "to_do":
            body["checked"] = bool(block.checked)
    return {
        "object": "block",
        "id": block.id,
        "type": block.type,
        "has_children": bool(block.children),
        "archived": block.archived,
        "last_edited_time": block.last_edited,
        block.type: body,
    }


def render_page(page: Page) -> dict[str, Any]:
    properties: dict[str, Any] = {"title": {"type": "title", "title": rich_text(page.title)}}
    for name, value in page.properties.items():
        properties[name] = {"type": "rich_text", "rich_text": rich_text(value)}
    return {
        "object": "page",
        "id": page.id,
        "url": page.url,
        "archived": page.archived,
        "last_edited_time": page.last_edited,
        "properties": properties,
        "parent": {"type": "workspace", "path": " / ".join(page.path)},
    }


def find_page(world: World, page_id: str) -> Page:
    wanted = page_id.replace("-", "")
    for page in world.notion.pages:
        if page.id.replace("-", "") == wanted:
            return page
    raise ToolError(f"Could not find page with ID: {page_id}")


def find_block(world: World, block_id: str) -> tuple[Page, Block | None, list[Block]]:
    """(page, block, siblings) for a block id; a page id gives (page, None, page.blocks)."""
    wanted = block_id.replace("-", "")
    for page in world.notion.pages:
        if page.id.replace("-", "") == wanted:
            return page, None, page.blocks
        stack: list[tuple[list[Block], Block]] = [(page.blocks, b) for b in page.blocks]
        while stack:
            siblings, block = stack.pop()
            if block.id.replace("-", "") == wanted:
                return page, block, siblings
            stack.extend((block.children, c) for c in block.children)
    raise ToolError(f"Could not find block with ID: {block_id}")


class Search(Params):
    query: str = Field(default="", description="Words to find in page titles; empty lists every page.")
    page_size: int = Field(default=10, ge=1, le=100)
    start_cursor: str | None = None
    filter_value: str | None = Field(default=None, description="'page' or 'database'.")
    filter_property: str | None = Field(default=None, description="Always 'object' when filtering.")
    direction: str | None = Field(default=None, description="ascending or descending.")
    timestamp: str | None = Field(default=None, description="Sort key: last_edited_time.")


@tool("NOTION_SEARCH_NOTION_PAGE", Search, confirmed=False)
def search(world: World, p: Search) -> dict[str, Any]:
    """Find pages whose title (or breadcrumb) contains the query words."""
    if p.filter_value not in (None, "page", "database"):
        raise ToolError("filter_value must be 'page' or 'database'")
    words = p.query.lower().split()
    found = [
        page
        for page in world.notion.pages
        if not page.archived
        and p.filter_value != "database"
        and all(w in " ".join([page.title, *page.path]).lower() for w in words)
    ]
    if p.timestamp:
        found.sort(key=lambda page: page.last_edited, reverse=p.direction != "ascending")
    start = int(p.start_cursor) if p.start_cursor and p.start_cursor.isdigit() else 0
    chunk = found[start : start + p.page_size]
    more = start + p.page_size < len(found)
    return {
        "results": [render_page(page) for page in chunk],
        "has_more": more,
        "next_cursor": str(start + p.page_size) if more else None,
    }


class RetrievePage(Params):
    page_id: str


@tool("NOTION_RETRIEVE_PAGE", RetrievePage, confirmed=False)
def retrieve_page(world: World, p: RetrievePage) -> dict[str, Any]:
    """Get a page's title, properties and url (its content is its block children)."""
    return render_page(find_page(world, p.page_id))


class FetchChildren(Params):
    block_id: str = Field(description="A page id or a block id.")
    page_size: int = Field(default=100, ge=1, le=100)
    start_cursor: str | None = None


@tool("NOTION_FETCH_BLOCK_CONTENTS", FetchChildren, confirmed=False)
def fetch_children(world: World, p: FetchChildren) -> dict[str, Any]:
    """List the child blocks of a page or block (a table's children are its rows, header first)."""
    _, block, siblings = find_block(world, p.block_id)
    children = [b for b in (block.children if block else siblings) if not b.archived]
    start = int(p.start_cursor) if p.start_cursor and p.start_cursor.isdigit() else 0
    chunk = children[start : start + p.page_size]
    more = start + p.page_size < len(children)
    return {
        "object": "list",
        "results": [render_block(b) for b in chunk],
        "has_more": more,
        "next_cursor": str(start + p.page_size) if more else None,
    }


class AppendBlocks(Params):
    block_id: str = Field(description="Page or block to append to.")
    children: list[dict[str, Any]] = Field(
        description="Text blocks: paragraph, heading_1..3, bulleted_list_item, "
        "numbered_list_item; each {type, <type>: {rich_text}}."
    )
    after: str | None = Field(
        default=None, description="Insert after this child block instead of at the end."
    )


def _text_block(world: World, index: int, child: dict[str, Any], kind: str, stamp: str) -> Block:
    text = plain(child[kind].get("rich_text", []))
    if len(text) > 2000:
        raise ToolError(f"children[{index}]: text longer than 2000 characters")
    checked = None
    if kind == "to_do":
        checked = child[kind].get("checked", False)
        if not isinstance(checked, bool):
            raise ToolError(f"children[{index}]: checked must be true or false")
    return Block(
        id=world.make_uuid("block-new", world.clock, index),
        type=kind,
        text=text,
        checked=checked,
        created_by="agent",
        last_edited=stamp,
    )


def _row_block(world: World, uid: tuple[object, ...], cells: Any, width: int | None, stamp: str) -> Block:
    if not isinstance(cells, list) or (width is not None and len(cells) != width):
        raise ToolError(f"table_row.cells must be a list of {width} rich_text arrays")
    return Block(
        id=world.make_uuid("block-new", *uid),
        type="table_row",
        cells=[plain(c) for c in cells],
        created_by="agent",
        last_edited=stamp,
    )


def _table_block(world: World, index: int, child: dict[str, Any], stamp: str) -> Block:
    body = child["table"]
    width = body.get("table_width")
    rows = body.get("children", [])
    if not isinstance(width, int) or width < 1:
        raise ToolError(f"children[{index}]: table.table_width must be a positive integer")
    if not isinstance(rows, list) or not rows:
        raise ToolError(f"children[{index}]: a table needs at least one table_row in table.children")
    built = []
    for row_index, row in enumerate(rows):
        if not isinstance(row, dict) or not isinstance(row.get("table_row"), dict):
            raise ToolError(f"children[{index}].table.children[{row_index}]: expected a table_row")
        uid = (world.clock, index, row_index)
        built.append(_row_block(world, uid, row["table_row"].get("cells"), width, stamp))
    return Block(
        id=world.make_uuid("block-new", world.clock, index),
        type="table",
        children=built,
        created_by="agent",
        last_edited=stamp,
    )


def _append(
    world: World, block_id: str, children: list[dict[str, Any]], after: str | None, allowed: set[str]
) -> dict[str, Any]:
    """Append new blocks (created_by="agent") under a page or block, at the end or after a child."""
    page, block, siblings = find_block(world, block_id)
    target = block.children if block else siblings
    if len(children) > 100:
        raise ToolError("at most 100 blocks per request")
    into_table = block is not None and block.type == "table"
    stamp = world.tick()
    new = []
    for index, child in enumerate(children):
        kind = child.get("type")
        if kind not in allowed or not isinstance(child.get(kind), dict):
            raise ToolError(f"children[{index}]: unsupported block type {kind!r}")
        if into_table != (kind == "table_row"):
            raise ToolError(
                f"children[{index}]: a table's children are table_row blocks"
                if into_table
                else f"children[{index}]: a table_row can only be appended to a table block"
            )
        if kind == "table_row" and block is not None:
            width = len(block.children[0].cells or []) if block.children else None
            new.append(_row_block(world, (world.clock, index), child[kind].get("cells"), width, stamp))
        elif kind == "table":
            new.append(_table_block(world, index, child, stamp))
        else:
            new.append(_text_block(world, index, child, kind, stamp))
    position = len(target)
    if after:
        ids = [b.id.replace("-", "") for b in target]
        if after.replace("-", "") not in ids:
            raise ToolError(f"after: block {after} is not a child of {block_id}")
        position = ids.index(after.replace("-", "")) + 1
    target[position:position] = new
    page.last_edited = stamp
    return {
        "object": "list",
        "results": [render_block(b) for b in new],
        "has_more": False,
        "next_cursor": None,
    }


@tool("NOTION_APPEND_TEXT_BLOCKS", AppendBlocks)
def append_blocks(world: World, p: AppendBlocks) -> dict[str, Any]:
    """Append text blocks to a page or block, at the end or after a given child."""
    return _append(world, p.block_id, p.children, p.after, APPENDABLE)


class AppendTaskBlocks(Params):
    block_id: str = Field(description="Page or block to append to.")
    children: list[dict[str, Any]] = Field(
        description="Task blocks: to_do ({rich_text, checked}), callout or toggle ({rich_text}); "
        "each {type, <type>: {...}}."
    )
    after: str | None = Field(default=None, description="Insert after this child block.")


@tool("NOTION_APPEND_TASK_BLOCKS", AppendTaskBlocks, confirmed=False)
def append_task_blocks(world: World, p: AppendTaskBlocks) -> dict[str, Any]:
    """Append to-do, callout or toggle blocks to a page or block."""
    return _append(world, p.block_id, p.children, p.after, TASK_TYPES)


class AppendTableBlocks(Params):
    block_id: str = Field(
        description="A page or block to add a new table to, or a table block to add rows to."
    )
    children: list[dict[str, Any]] = Field(
        description="Either table blocks ({type: table, table: {table_width, has_column_header, "
        "children: [table_row...]}}) for a page, or table_row blocks ({type: table_row, "
        "table_row: {cells: [[rich_text], ...]}}) to add rows to an existing table."
    )
    after: str | None = Field(default=None, description="Insert after this child block (or row).")


@tool("NOTION_APPEND_TABLE_BLOCKS", AppendTableBlocks, confirmed=False)
def append_table_blocks(world: World, p: AppendTableBlocks) -> dict[str, Any]:
    """Add a table to a page, or add rows to an existing table (one cell per column)."""
    return _append(world, p.block_id, p.children, p.after, {"table", "table_row"})


class UpdateBlock(Params):
    block_id: str
    block_type: str = Field(description="The block's type, e.g. paragraph, to_do, table_row.")
    content: dict[str, Any] = Field(
        description="The type object as in the Notion API: {rich_text: [...]} "
        "(text blocks), plus {checked: bool} for to_do, or "
        "{cells: [[rich_text], ...]} for table_row."
    )


@tool("NOTION_UPDATE_BLOCK", UpdateBlock, confirmed=False)
def update_block(world: World, p: UpdateBlock) -> dict[str, Any]:
    """Change a block's text, a to_do's checked state, or a table row's cells, in place."""
    page, block, _ = find_block(world, p.block_id)
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
    block.last_edited = page.last_edited = world.tick()
    return render_block(block)


class DeleteBlock(Params):
    block_id: str


@tool("NOTION_DELETE_BLOCK", DeleteBlock)
def delete_block(world: World, p: DeleteBlock) -> dict[str, Any]:
    """Archive (delete) a block."""
    page, block, _ = find_block(world, p.block_id)
    if block is None:
        raise ToolError("block_id is a page; use NOTION_ARCHIVE_NOTION_PAGE")
    block.archived = True
    block.last_edited = page.last_edited = world.tick()
    return render_block(block)


def _property_text(name: str, value: Any) -> str:
    """Accept a property value as Notion sends it (title/rich_text/select/status) or as plain text."""
    if isinstance(value, str | list):
        return plain(value)
    if isinstance(value, dict):
        for kind in ("title", "rich_text"):
            if kind in value:
                return plain(value[kind])
        for kind in ("select", "status"):
            option = value.get(kind)
            if isinstance(option, dict) and isinstance(option.get("name"), str):
                return str(option["name"])
    raise ToolError(f"properties.{name}: expected text, a rich_text array, or a title/rich_text/select value")


class UpdatePage(Params):
    page_id: str
    properties: dict[str, Any] = Field(
        default_factory=dict,
        description="Property name -> value, e.g. {title: [rich_text]} or {Status: {select: {name}}}.",
    )
    archived: bool | None = Field(default=None, description="true moves the page to trash.")
    icon: dict[str, Any] | None = None
    cover: dict[str, Any] | None = None


@tool("NOTION_UPDATE_PAGE", UpdatePage, confirmed=False)
def update_page(world: World, p: UpdatePage) -> dict[str, Any]:
    """Change a page's title or existing properties (its content is blocks: use NOTION_UPDATE_BLOCK)."""
    page = find_page(world, p.page_id)
    if not p.properties and p.archived is None and p.icon is None and p.cover is None:
        raise ToolError("Nothing to update: give properties, archived, icon or cover")
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
    return render_page(page)


class CreatePage(Params):
    parent_id: str = Field(description="Id of the parent page.")
    title: str = Field(description="Title of the new page.")
    icon: str | None = Field(default=None, description="A single emoji.")
    cover: str | None = Field(default=None, description="Public image URL.")


@tool("NOTION_CREATE_NOTION_PAGE", CreatePage, confirmed=False)
def create_page(world: World, p: CreatePage) -> dict[str, Any]:
    """Create an empty page under a parent page; add its content with the append tools."""
    parent = find_page(world, p.parent_id)
    if not p.title.strip():
        raise ToolError("title must not be empty")
    stamp = world.tick()
    page = Page(
        id=world.make_uuid("page-new", world.clock),
        title=p.title,
        path=[*parent.path, parent.title],
        created_by="agent",
        last_edited=stamp,
    )
    world.notion.pages.append(page)
    return render_page(page)


class ArchivePage(Params):
    page_id: str = Field(description="Id of the page.")
    archive: bool = Field(default=True, description="true moves the page to trash, false restores it.")


@tool("NOTION_ARCHIVE_NOTION_PAGE", ArchivePage)
def archive_page(world: World, p: ArchivePage) -> dict[str, Any]:
    """Archive (move to trash) or restore a page."""
    page = find_page(world, p.page_id)
    page.archived = p.archive
    page.last_edited = world.tick()
    return render_page(page)
