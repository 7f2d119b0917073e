"""Notion tools over the sandbox block tree, shaped like the Notion API objects Composio returns.

Confirmed against Composio's schemas (version 20260113_00): NOTION_APPEND_TEXT_BLOCKS,
NOTION_DELETE_BLOCK, NOTION_ARCHIVE_NOTION_PAGE. No confirmed schema was found for
NOTION_SEARCH_NOTION_PAGE, NOTION_FETCH_BLOCK_CONTENTS, NOTION_RETRIEVE_PAGE, NOTION_UPDATE_BLOCK or
NOTION_UPDATE_PAGE: those follow the Notion API's own block and page shapes and are marked
`confirmed=False`.
"""

from __future__ import annotations

from typing import Any

from pydantic import Field

from evals.tools.base import Params, ToolError, tool
from evals.world.model import Block, Page, World

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
}
APPENDABLE = {"paragraph", "heading_1", "heading_2", "heading_3", "bulleted_list_item", "numbered_list_item"}


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


@tool("NOTION_SEARCH_NOTION_PAGE", Search, confirmed=False)
def search(world: World, p: Search) -> dict[str, Any]:
    """Find pages whose title (or breadcrumb) contains the query words."""
    words = p.query.lower().split()
    found = [
        page
        for page in world.notion.pages
        if not page.archived and all(w in " ".join([page.title, *page.path]).lower() for w in words)
    ]
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


@tool("NOTION_APPEND_TEXT_BLOCKS", AppendBlocks)
def append_blocks(world: World, p: AppendBlocks) -> dict[str, Any]:
    """Append text blocks to a page or block, at the end or after a given child."""
    page, block, siblings = find_block(world, p.block_id)
    target = block.children if block else siblings
    if len(p.children) > 100:
        raise ToolError("at most 100 blocks per request")
    stamp = world.tick()
    new = []
    for index, child in enumerate(p.children):
        kind = child.get("type")
        if kind not in APPENDABLE or not isinstance(child.get(kind), dict):
            raise ToolError(f"children[{index}]: unsupported block type {kind!r}")
        text = plain(child[kind].get("rich_text", []))
        if len(text) > 2000:
            raise ToolError(f"children[{index}]: text longer than 2000 characters")
        new.append(
            Block(
                id=world.make_uuid("block-new", world.clock, index),
                type=kind,
                text=text,
                created_by="agent",
                last_edited=stamp,
            )
        )
    position = len(target)
    if p.after:
        ids = [b.id.replace("-", "") for b in target]
        if p.after.replace("-", "") not in ids:
            raise ToolError(f"after: block {p.after} is not a child of {p.block_id}")
        position = ids.index(p.after.replace("-", "")) + 1
    target[position:position] = new
    page.last_edited = stamp
    return {
        "object": "list",
        "results": [render_block(b) for b in new],
        "has_more": False,
        "next_cursor": None,
    }


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
