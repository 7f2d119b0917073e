"""The sandbox's Notion workspace as the Notion API (version 2025-09-03) shows it: where a page,
block or database is, and the objects the tools answer with.

Pages sit in a hierarchy, as in a real workspace: each scenario page's breadcrumb ("Engineering /
Infrastructure") is a chain of pages above it, derived from the scenario pages' paths (same ids
every trial); they are found by search, listed as `child_page` blocks, and become ordinary pages
the first time something changes them. A database sits in a page: a board as the `child_database`
block at its place among the page's blocks (inline), the one-row database a page with properties
is a row of (a page under a page can only have a title) as a `child_database` listed after the
blocks of the page above it. Its rows are pages whose parent is its data source.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from evals.world.outcome import DATABASE, Block
from evals.world.sandbox.model import Column, Database, Page, World
from evals.world.toolset import ToolError

# Notion's request size limits (developers.notion.com/reference/request-limits): a rich text
# object's text.content at most 2000 characters, any array of rich text objects at most 100 elements;
# a request beyond either is a 400 validation_error.
MAX_TEXT = 2000
MAX_RICH_TEXT_ITEMS = 100
ANNOTATIONS = {
    "bold": False,
    "code": False,
    "color": "default",
    "italic": False,
    "strikethrough": False,
    "underline": False,
}


def same_id(a: str, b: str) -> bool:
    """Notion ids compare without their dashes (both spellings are accepted everywhere)."""
    return a.replace("-", "") == b.replace("-", "")


# -- rendering: Notion API objects ---------------------------------------------------------------------


def rich_text(text: str) -> list[dict[str, Any]]:
    """Plain text as a Notion rich text array (one text object, default annotations)."""
    if not text:
        return []
    return [
        {
            "type": "text",
            "text": {"content": text, "link": None},
            "annotations": dict(ANNOTATIONS),
            "plain_text": text,
            "href": None,
        }
    ]


RICH_TEXT_KEYS = {"type", "text", "mention", "equation", "annotations", "plain_text", "href"}


def _item_text(item: dict[str, Any]) -> str:
    """One rich text item's text: a text's content; a mention's or an equation's `plain_text` when
    sent back, else what Notion shows for it (the date, `@` and the user id, the link, the id of a
    page or database: a property value has no world to look a title up in)."""
    unknown = sorted(set(item) - RICH_TEXT_KEYS)
    if unknown:
        raise ToolError(f"rich_text item: {', '.join(unknown)} should be not present")
    kind = item.get("type") or ("text" if "text" in item else None)
    if kind == "mention" and isinstance(item.get("mention"), dict):
        mention = item["mention"]
        target = mention.get(str(mention.get("type")))
        if not isinstance(target, dict):
            raise ToolError(
                "a mention needs {type, <type>: {...}} (user, page, database, date, link_preview)"
            )
        if isinstance(item.get("plain_text"), str):
            return str(item["plain_text"])
        if mention["type"] == "user":
            return f"@{target.get('id', '')}"
        if mention["type"] == "date":
            return str(target.get("start", ""))
        return str(target.get("url") or target.get("id") or "")
    if kind == "equation" and isinstance(item.get("equation"), dict):
        return str(item["equation"].get("expression", ""))
    text = item.get("text")
    if kind != "text" or not isinstance(text, dict) or not isinstance(text.get("content"), str):
        raise ToolError("each rich_text item needs text.content, e.g. {type: text, text: {content: ...}}")
    if set(text) - {"content", "link"}:
        raise ToolError(
            f"rich_text item: text.{sorted(set(text) - {'content', 'link'})[0]} should be not present"
        )
    return str(text["content"])


def plain(value: Any) -> str:
    """The text of a rich text array (text, mention or equation items); anything else, a bare string
    or a key Notion does not know included, is refused, as Notion does."""
    if not isinstance(value, list):
        raise ToolError("rich_text must be an array of rich text objects ({text: {content}}), not a string")
    if len(value) > MAX_RICH_TEXT_ITEMS:
        raise ToolError(f"rich_text has {len(value)} elements; at most {MAX_RICH_TEXT_ITEMS} are allowed")
    out = []
    for item in value:
        if not isinstance(item, dict):
            raise ToolError("each rich_text item needs text.content, e.g. {type: text, text: {content: ...}}")
        text = _item_text(item)
        if len(text) > MAX_TEXT:
            raise ToolError(f"text.content is longer than {MAX_TEXT} characters")
        out.append(text)
    return "".join(out)


def user(world: World, who: str) -> dict[str, Any]:
    return {"object": "user", "id": world.make_uuid("user", who)}


def created(world: World, created_by: str, last_edited: str) -> str:
    return world.at(0) if created_by == "seed" else last_edited


def _times(world: World, created_by: str, last_edited: str, edited_by: str) -> dict[str, Any]:
    return {
        "created_time": created(world, created_by, last_edited),
        "last_edited_time": last_edited,
        "created_by": user(world, created_by),
        "last_edited_by": user(world, edited_by),
    }


def render_block(world: World, block: Block, parent: dict[str, Any]) -> dict[str, Any]:
    body: dict[str, Any]
    if block.type == "table_row":
        body = {"cells": [rich_text(c) for c in block.cells or []]}
    elif block.type == "table":
        width = len(block.children[0].cells or []) if block.children else 0
        body = {"table_width": width, "has_column_header": True, "has_row_header": False}
    elif block.type == DATABASE:
        body = {"title": block.text}
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
        **_times(world, block.created_by, block.last_edited, "agent" if block.edited else block.created_by),
        "has_children": bool(block.children) and block.type != DATABASE,
        "archived": block.archived,
        "in_trash": block.archived,
        "type": block.type,
        block.type: body,
    }


def page_parent(world: World, page: Page) -> dict[str, Any]:
    """A row's parent is its data source; another page's is the page above it (or the workspace)."""
    if page.database is not None:
        database = find_database(world, page.database)
        return {
            "type": "data_source_id",
            "data_source_id": database.data_source_id,
            "database_id": database.id,
        }
    above = node(world, tuple(page.path)) if page.path else None
    if above is None:
        return {"type": "workspace", "workspace": True}
    return {"type": "page_id", "page_id": above.id}


def option_id(world: World, database: Database, column: str, name: str) -> str:
    return world.make_id("option", database.id, column, name)[:8]


def property_id(world: World, database: Database, column: Column) -> str:
    return "title" if column.type == "title" else world.make_id("property", database.id, column.name)[:4]


def property_value(world: World, database: Database, column: Column, page: Page) -> dict[str, Any]:
    """One property of a row as the Notion API gives it ({id, type, <type>: value})."""
    text = page.title if column.type == "title" else page.properties.get(column.name, "")
    value: Any
    if column.type in ("title", "rich_text"):
        value = rich_text(text)
    elif column.type in ("select", "status"):
        value = {"id": option_id(world, database, column.name, text), "name": text, "color": "default"}
        value = value if text else None
    elif column.type == "number":
        value = float(text) if text else None
    elif column.type == "checkbox":
        value = text == "true"
    else:
        value = text or None
    return {"id": property_id(world, database, column), "type": column.type, column.type: value}


def render_page(world: World, page: Page) -> dict[str, Any]:
    """A page as Composio returns one (the keys of NOTION_ARCHIVE_NOTION_PAGE's result); a row's
    properties are its database's columns, in order."""
    properties: dict[str, Any]
    if page.database is not None:
        database = find_database(world, page.database)
        properties = {c.name: property_value(world, database, c, page) for c in database.columns}
    else:
        properties = {"title": {"id": "title", "type": "title", "title": rich_text(page.title)}}
    return {
        "object": "page",
        "id": page.id,
        **_times(world, page.created_by, page.last_edited, "agent" if page.edited else page.created_by),
        "cover": None,
        "icon": None,
        "parent": page_parent(world, page),
        "archived": page.archived,
        "in_trash": page.archived,
        "properties": properties,
        "url": page.url,
        "public_url": None,
    }


def schema(world: World, database: Database) -> dict[str, Any]:
    """The data source's properties ({name: {id, name, type, <type>: config}}), in column order."""
    out = {}
    for column in database.columns:
        config: dict[str, Any] = {}
        if column.type in ("select", "status"):
            config = {
                "options": [
                    {"id": option_id(world, database, column.name, o), "name": o, "color": "default"}
                    for o in column.options
                ]
            }
        elif column.type == "number":
            config = {"format": "number"}
        out[column.name] = {
            "id": property_id(world, database, column),
            "name": column.name,
            "type": column.type,
            column.type: config,
        }
    return out


def render_database(world: World, database: Database, with_schema: bool = False) -> dict[str, Any]:
    """A database object (2025-09-03: its data sources, no schema), or with its one data source's
    properties too (NOTION_FETCH_DATABASE's "structural metadata (properties, title)")."""
    parent: dict[str, Any] = (
        {"type": "page_id", "page_id": database.page}
        if database.page
        else {"type": "workspace", "workspace": True}
    )
    out = {
        "object": "database",
        "id": database.id,
        "title": rich_text(database.title),
        "description": [],
        "parent": parent,
        "is_inline": database.inline,
        "is_locked": False,
        "archived": database.archived,
        "in_trash": database.archived,
        **_times(world, database.created_by, database.last_edited, database.created_by),
        "icon": None,
        "cover": None,
        "url": f"https://www.notion.so/{database.id.replace('-', '')}",
        "public_url": None,
        "data_sources": [{"id": database.data_source_id, "name": database.title}],
    }
    if with_schema:
        out["properties"] = schema(world, database)
    return out


def child_page(world: World, page: Page, parent: dict[str, Any]) -> dict[str, Any]:
    return {
        "object": "block",
        "id": page.id,
        "parent": parent,
        **_times(world, page.created_by, page.last_edited, page.created_by),
        "has_children": True,
        "archived": page.archived,
        "in_trash": page.archived,
        "type": "child_page",
        "child_page": {"title": page.title},
    }


def database_block(world: World, database: Database) -> Block:
    """The `child_database` block a database shows as in its page."""
    return Block(
        id=database.id,
        type=DATABASE,
        text=database.title,
        key=database.key,
        archived=database.archived,
        created_by=database.created_by,
        last_edited=database.last_edited,
    )


def listing(items: list[dict[str, Any]], start: int, size: int, kind: str) -> dict[str, Any]:
    more = start + size < len(items)
    return {
        "object": "list",
        "results": items[start : start + size],
        "next_cursor": str(start + size) if more else None,
        "has_more": more,
        "type": kind,
        kind: {},
    }


def start_of(cursor: str | None) -> int:
    if not cursor:
        return 0
    if not cursor.isdigit():
        raise ToolError(f"start_cursor {cursor!r} is not a cursor this list gave")
    return int(cursor)


# -- the hierarchy ---------------------------------------------------------------------------------------


def key_of(page: Page) -> tuple[str, ...]:
    return (*page.path, page.title)


def _board_rows(world: World) -> set[str]:
    """Rows of inline databases: they live in their board, not in the page hierarchy."""
    inline = {d.id for d in world.notion.databases if d.inline}
    return {p.id for p in world.notion.pages if p.database in inline}


def placed_pages(world: World) -> list[Page]:
    """The pages of the hierarchy (scenario pages, the agent's, pages with properties), not board rows."""
    rows = _board_rows(world)
    return [p for p in world.notion.pages if p.id not in rows]


def breadcrumbs(world: World) -> list[Page]:
    """The pages above the scenario pages that no page of the world is yet (ids derived from the
    breadcrumb, so they are the same every trial). Created on the fly: writing to one makes it real."""
    pages = placed_pages(world)
    real = {key_of(p) for p in pages}
    out: dict[tuple[str, ...], Page] = {}
    for page in pages:
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
    """Every page, board rows included (rows are pages), then the breadcrumb pages."""
    return [*world.notion.pages, *breadcrumbs(world)]


def node(world: World, key: tuple[str, ...]) -> Page | None:
    """The page whose breadcrumb plus title is `key`: a world page first, else a breadcrumb page."""
    return next((p for p in [*placed_pages(world), *breadcrumbs(world)] if key_of(p) == key), None)


def find_page(world: World, page_id: str, write: bool = False) -> Page:
    """A page by id (dashes optional). With `write`, a breadcrumb page becomes a page of the world."""
    for page in world.notion.pages:
        if same_id(page.id, page_id):
            return page
    for page in breadcrumbs(world):
        if same_id(page.id, page_id):
            if write:
                world.notion.pages.append(page)
            return page
    if any(same_id(d.id, page_id) for d in world.notion.databases):
        raise ToolError(
            f"{page_id} is a database, not a page: use NOTION_FETCH_DATABASE or NOTION_QUERY_DATABASE"
        )
    raise ToolError(f"Could not find page with ID: {page_id}")


def find_database(world: World, database_id: str) -> Database:
    """A database by its id or its data source's id (dashes optional)."""
    for database in world.notion.databases:
        if same_id(database.id, database_id) or same_id(database.data_source_id, database_id):
            return database
    if any(same_id(p.id, database_id) for p in all_pages(world)):
        raise ToolError(f"Provided ID {database_id} is a page, not a database")
    raise ToolError(f"Could not find database with ID: {database_id}")


@dataclass
class Found:
    """Where a block id points: its page, the block (None for the page itself), the list holding it,
    and the block it sits in (None at the top of a page)."""

    page: Page
    block: Block | None
    siblings: list[Block]
    parent: Block | None


def find_block(world: World, block_id: str, write: bool = False) -> Found:
    for page in world.notion.pages:
        if same_id(page.id, block_id):
            return Found(page, None, page.blocks, None)
        stack: list[tuple[list[Block], Block, Block | None]] = [(page.blocks, b, None) for b in page.blocks]
        while stack:
            siblings, block, parent = stack.pop()
            if same_id(block.id, block_id):
                return Found(page, block, siblings, parent)
            stack.extend((block.children, c, block) for c in block.children)
    for database in world.notion.databases:
        if not database.inline and same_id(database.id, block_id):
            holder = find_page(world, database.page, write) if database.page else None
            if holder is not None:
                return Found(holder, database_block(world, database), [], None)
    page = find_page(world, block_id, write)
    return Found(page, None, page.blocks, None)


def parent_of(found: Found) -> dict[str, Any]:
    if found.parent is not None:
        return {"type": "block_id", "block_id": found.parent.id}
    return {"type": "page_id", "page_id": found.page.id}


def children(world: World, found: Found) -> list[dict[str, Any]]:
    """A page's or block's children, as GET /v1/blocks/{id}/children lists them: blocks (a board as
    its child_database block), then the full-page databases and the pages directly under a page. A
    database has no block children: its rows are read with the database tools."""
    holder = found.block
    if holder is not None:
        parent = {"type": "block_id", "block_id": holder.id}
        if holder.type == DATABASE:
            return []
        return [render_block(world, b, parent) for b in holder.children if not b.archived]
    page = found.page
    parent = {"type": "page_id", "page_id": page.id}
    out = [render_block(world, b, parent) for b in page.blocks if not b.archived]
    out += [
        render_block(world, database_block(world, d), parent)
        for d in world.notion.databases
        if not d.inline and not d.archived and same_id(d.page, page.id)
    ]
    key = list(key_of(page))
    out += [
        child_page(world, p, parent)
        for p in [*placed_pages(world), *breadcrumbs(world)]
        if p.path == key and p.database is None and not p.archived
    ]
    return out
