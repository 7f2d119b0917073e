"""Notion page and block tools over the sandbox workspace, with Composio's slugs and parameters at
the pinned toolkit version (20260915_00: tests/fixtures/composio/notion_20260915_00.json holds what
its docs page lists, docs/tools.md the source of every parameter).

What changed against the earlier sandbox, following that page: NOTION_UPDATE_BLOCK replaces a
text-like block's text with a string (`content`, at most 2,000 characters; `block_type` optional
and, when given, the block's own type; `additional_properties` for `checked`, `color`...); it does
not edit table rows. NOTION_APPEND_TABLE_BLOCKS creates new tables (`tables`, each with its rows);
no tool appends a row to an existing table: boards, registers and trackers are databases, read and
written with the database tools (`notion_rows`). NOTION_SEARCH_NOTION_PAGE returns 25 results, pages
and databases, unless asked for fewer or one kind. NOTION_CREATE_NOTION_PAGE takes `markdown`.

Inputs are as strict as Composio's: rich text is an array of `{text: {content}}` objects, never a
bare string. Results are Notion objects (`notion_tree`). Output shapes are not on the docs page
(its Output table is the generic envelope); they are designed from the Notion API's objects.
"""

from __future__ import annotations

from typing import Any, Literal

from markdown_it import MarkdownIt
from markdown_it.token import Token
from pydantic import AliasChoices, Field

from evals.world.outcome import DATABASE, Block
from evals.world.sandbox.model import Page, World
from evals.world.sandbox.tools import notion_blocks
from evals.world.sandbox.tools.base import Params, Toolkit
from evals.world.sandbox.tools.notion_blocks import AnyChild, TableInput, TaskChild, TextChild, build, text_of
from evals.world.sandbox.tools.notion_tree import (
    MAX_TEXT,
    Found,
    all_pages,
    child_page,
    children,
    database_block,
    find_block,
    find_database,
    find_page,
    key_of,
    listing,
    page_parent,
    parent_of,
    placed_pages,
    plain,
    render_block,
    render_database,
    render_page,
    same_id,
    start_of,
)
from evals.world.sandbox.tools.notion_values import assign, blank_row, column_of, from_api
from evals.world.toolset import ToolError

# The block types NOTION_UPDATE_BLOCK edits (its docs list them): text-like blocks only.
UPDATABLE = (
    "paragraph",
    "heading_1",
    "heading_2",
    "heading_3",
    "bulleted_list_item",
    "numbered_list_item",
    "to_do",
    "toggle",
    "code",
    "quote",
    "callout",
)
TOOLS = Toolkit("notion", describe=notion_blocks.describe, admit=notion_blocks.request_limits)
tool = TOOLS.tool


OptStr = str | None


# -- tools -------------------------------------------------------------------------------------------------


class Search(Params):
    query: str = Field(default="", description="Words to find in page and database titles; empty lists all.")
    direction: OptStr = Field(default=None, description="ascending or descending; required with timestamp.")
    page_size: int = Field(default=25, ge=1, le=100, description="Results per page (Composio's default: 25).")
    timestamp: OptStr = Field(default=None, description="Sort key; only last_edited_time.")
    filter_value: Literal["page", "database"] | None = Field(
        default=None, description="Only pages or only databases; none: both."
    )
    start_cursor: OptStr = Field(default=None, description="next_cursor of a previous result.")
    filter_property: str = Field(default="object", description="Always 'object'.")
    filter_properties: list[str] | None = Field(
        default=None, description="Property names to keep in each page result's properties."
    )


def _matches(title: str, words: list[str]) -> bool:
    return all(w in title.lower() for w in words)


@tool("NOTION_SEARCH_NOTION_PAGE", Search)
def search(world: World, p: Search) -> dict[str, Any]:
    """Find pages (database rows included) and databases whose title contains every word of the query."""
    if p.timestamp is not None and p.timestamp != "last_edited_time":
        raise ToolError("timestamp: the only supported value is last_edited_time")
    if p.timestamp is not None and p.direction not in ("ascending", "descending"):
        raise ToolError("direction: ascending or descending is required with timestamp")
    words = p.query.lower().split()
    found: list[dict[str, Any]] = []
    if p.filter_value in (None, "page"):
        found += [
            render_page(world, x) for x in all_pages(world) if not x.archived and _matches(x.title, words)
        ]
        if p.filter_properties is not None:
            keep = set(p.filter_properties)
            for item in found:
                item["properties"] = {k: v for k, v in item["properties"].items() if k in keep}
    if p.filter_value in (None, "database"):
        found += [
            render_database(world, d)
            for d in world.notion.databases
            if not d.archived and _matches(d.title, words)
        ]
    if p.timestamp:
        found.sort(key=lambda item: str(item["last_edited_time"]), reverse=p.direction != "ascending")
    cursor = (
        p.start_cursor if p.start_cursor and p.start_cursor.isdigit() else None
    )  # invalid: from the start
    return listing(found, start_of(cursor), p.page_size, "page_or_database")


class RetrievePage(Params):
    page_id: str = Field(description="A page id (a database row is a page), not a database id.")


@tool("NOTION_RETRIEVE_PAGE", RetrievePage)
def retrieve_page(world: World, p: RetrievePage) -> dict[str, Any]:
    """Get a page's title, properties, parent and url (its content is its block children)."""
    return render_page(world, find_page(world, p.page_id))


class FetchChildren(Params):
    block_id: str = Field(description="A page id or a block id.")
    page_size: int | None = Field(default=None, ge=1, le=100, description="None: Notion's 100.")
    start_cursor: OptStr = None


@tool("NOTION_FETCH_BLOCK_CONTENTS", FetchChildren)
def fetch_children(world: World, p: FetchChildren) -> dict[str, Any]:
    """List the child blocks of a page or block (a table's children are its rows, header first; a
    database is a child_database block, its rows read with the database tools; the pages under a
    page are child_page blocks)."""
    found = find_block(world, p.block_id)
    return listing(children(world, found), start_of(p.start_cursor), p.page_size or 100, "block")


def _table_block(world: World, index: int, table: TableInput, stamp: str) -> Block:
    rows = []
    for n, row in enumerate(table.rows):
        if len(row.cells) != table.table_width:
            raise ToolError(
                f"tables[{index}].rows[{n}]: {len(row.cells)} cells, table_width is {table.table_width}"
            )
        rows.append(
            Block(
                id=world.make_uuid("block-new", world.clock, index, n),
                type="table_row",
                cells=[text_of(world, cell) for cell in row.cells],
                created_by="agent",
                last_edited=stamp,
            )
        )
    return Block(
        id=world.make_uuid("block-new", world.clock, index),
        type="table",
        children=rows,
        created_by="agent",
        last_edited=stamp,
    )


def _insert(world: World, block_id: str, make: list[Any], after: str | None) -> dict[str, Any]:
    """Put new blocks (created_by="agent", made by `make` with the stamp) under a page or block, at
    the end or after a child. A table or a database takes no appended blocks."""
    found = find_block(world, block_id, write=True)
    holder = found.block
    if holder is not None and holder.type in ("table", DATABASE, "divider"):
        raise ToolError(
            f"block {block_id} is a {holder.type}, which cannot have appended children"
            + (
                ": a database's rows are written with NOTION_INSERT_ROW_DATABASE"
                if holder.type == DATABASE
                else ""
            )
        )
    target = holder.children if holder is not None else found.page.blocks
    if len(make) > 100:
        raise ToolError("at most 100 blocks per request")
    stamp = world.tick()
    new = [build(stamp) for build in make]
    position = len(target)
    if after:
        ids = [b.id for b in target]
        match = [i for i, b in enumerate(ids) if same_id(b, after)]
        if not match:
            raise ToolError(f"after: block {after} is not a child of {block_id}")
        position = match[0] + 1
    target[position:position] = new
    found.page.last_edited = stamp
    parent = parent_of(Found(found.page, None, target, holder))
    return listing([render_block(world, b, parent) for b in new], 0, len(new) or 1, "block")


def _children_of(world: World, children_in: list[AnyChild]) -> list[Any]:
    """Makers of the new blocks, nested children included, each given the stamp at insertion."""
    return [
        lambda stamp, i=index, c=child: build(world, c, (i,), stamp, f"body.children[{i}]")
        for index, child in enumerate(children_in)
    ]


class AppendBlocks(Params):
    block_id: str = Field(description="Page or block to append to.")
    children: list[TextChild] = Field(
        max_length=100,
        validation_alias=AliasChoices("children", "blocks"),
        description="Text blocks: paragraph, heading_1..3, bulleted_list_item, numbered_list_item; "
        "each {type, <type>: {rich_text: [{text: {content}}]}} (also accepted as `blocks`).",
    )
    after: OptStr = Field(default=None, description="Insert after this child block instead of at the end.")


@tool("NOTION_APPEND_TEXT_BLOCKS", AppendBlocks)
def append_blocks(world: World, p: AppendBlocks) -> dict[str, Any]:
    """Append text blocks to a page or block, at the end or after a given child."""
    return _insert(world, p.block_id, _children_of(world, list(p.children)), p.after)


class AppendTaskBlocks(Params):
    block_id: str = Field(description="Page or block to append to.")
    children: list[TaskChild] = Field(
        max_length=100,
        description="Task blocks: to_do ({rich_text, checked}), toggle or callout ({rich_text}); "
        "each {type, <type>: {...}}.",
    )
    after: OptStr = Field(default=None, description="Insert after this child block.")


@tool("NOTION_APPEND_TASK_BLOCKS", AppendTaskBlocks)
def append_task_blocks(world: World, p: AppendTaskBlocks) -> dict[str, Any]:
    """Append to-do, toggle or callout blocks to a page or block."""
    return _insert(world, p.block_id, _children_of(world, list(p.children)), p.after)


class AppendTableBlocks(Params):
    block_id: str = Field(description="The page or block to add the new tables to.")
    tables: list[TableInput] = Field(
        max_length=100,
        description="New tables: each {table_width, has_column_header, has_row_header, rows: "
        "[{cells: [[rich_text], ...]}]}, as many cells per row as table_width.",
    )
    after: OptStr = Field(default=None, description="Insert after this child block.")


@tool("NOTION_APPEND_TABLE_BLOCKS", AppendTableBlocks)
def append_table_blocks(world: World, p: AppendTableBlocks) -> dict[str, Any]:
    """Add new tables (with their rows) to a page or block. It does not add rows to an existing table."""
    make = [lambda stamp, i=i, t=t: _table_block(world, i, t, stamp) for i, t in enumerate(p.tables)]
    return _insert(world, p.block_id, make, p.after)


class UpdateBlock(Params):
    block_id: str = Field(description="The block to change.")
    content: str = Field(max_length=MAX_TEXT, description="The new text; replaces the block's text.")
    block_type: OptStr = Field(default=None, description="The block's own type (it cannot change).")
    language: OptStr = Field(default=None, description="A code block's language (kept if omitted).")
    additional_properties: dict[str, Any] | None = Field(
        default=None, description="Type-specific extras: checked (to_do), color, is_toggleable, icon."
    )


EXTRAS = {"to_do": {"checked"}, "callout": {"icon"}, "code": {"caption"}}


def _extras(block: Block, extras: dict[str, Any]) -> None:
    """Apply `additional_properties` (nulls dropped, as Composio drops them); `archived` is refused."""
    given = {k: v for k, v in extras.items() if v is not None}
    if "archived" in given:
        raise ToolError("additional_properties: archived cannot be set here; use NOTION_DELETE_BLOCK")
    allowed = (
        {"color"}
        | EXTRAS.get(block.type, set())
        | ({"is_toggleable"} if block.type.startswith("heading_") else set())
    )
    unknown = sorted(set(given) - allowed)
    if unknown:
        raise ToolError(
            f"additional_properties: {', '.join(unknown)} is not a property of a {block.type} block"
        )
    if "checked" in given:
        if not isinstance(given["checked"], bool):
            raise ToolError("additional_properties.checked must be true or false")
        block.checked = given["checked"]


@tool("NOTION_UPDATE_BLOCK", UpdateBlock)
def update_block(world: World, p: UpdateBlock) -> dict[str, Any]:
    """Replace a text block's text (paragraph, headings, list items, to_do, toggle, code, quote,
    callout), keeping its type; a to_do's checked state through additional_properties."""
    found = find_block(world, p.block_id)
    block = found.block
    if block is None:
        raise ToolError("block_id is a page; use NOTION_UPDATE_PAGE for page properties")
    if p.block_type is not None and p.block_type != block.type:
        raise ToolError(
            f"block {p.block_id} is a {block.type}, not a {p.block_type}: a block's type cannot change"
        )
    if block.type not in UPDATABLE:
        raise ToolError(
            f"blocks of type {block.type} cannot be updated with NOTION_UPDATE_BLOCK "
            f"(supported: {', '.join(UPDATABLE)})"
        )
    _extras(block, p.additional_properties or {})
    block.text = p.content
    block.edited = True
    block.last_edited = found.page.last_edited = world.tick()
    return render_block(world, block, parent_of(found))


class DeleteBlock(Params):
    block_id: str = Field(description="A block, page or database id.")


@tool("NOTION_DELETE_BLOCK", DeleteBlock)
def delete_block(world: World, p: DeleteBlock) -> dict[str, Any]:
    """Archive (delete) a block, a page or a database."""
    database = next((d for d in world.notion.databases if same_id(d.id, p.block_id)), None)
    stamp = world.tick()
    if database is not None:
        database.archived = True
        database.last_edited = stamp
        for page in world.notion.pages:
            for block in page.walk():
                if block.id == database.id:
                    block.archived, block.last_edited = True, stamp
        parent = (
            {"type": "page_id", "page_id": database.page}
            if database.page
            else {"type": "workspace", "workspace": True}
        )
        return render_block(world, database_block(world, database), parent)
    found = find_block(world, p.block_id, write=True)
    if found.block is None:
        found.page.archived = True
        found.page.last_edited = stamp
        return child_page(world, found.page, page_parent(world, found.page))
    found.block.archived = True
    found.block.last_edited = found.page.last_edited = stamp
    return render_block(world, found.block, parent_of(found))


def _page_title(name: str, value: Any) -> str | None:
    """A page's title given as {title: [rich text]} (or the rich text array itself), else None."""
    if isinstance(value, list):
        return plain(value)
    if isinstance(value, dict) and "title" in value:
        return plain(value["title"])
    return None


class UpdatePage(Params):
    page_id: str = Field(description="The page (or database row) to change.")
    properties: dict[str, Any] | None = Field(
        default=None,
        description="Property name -> value object, e.g. {Status: {select: {name: Done}}} or "
        "{Notes: {rich_text: [{text: {content}}]}}; plain values are refused.",
    )
    archived: bool | None = Field(
        default=None, description="true moves the page to trash, false restores it."
    )
    icon: dict[str, Any] | None = None
    cover: dict[str, Any] | None = None


@tool("NOTION_UPDATE_PAGE", UpdatePage)
def update_page(world: World, p: UpdatePage) -> dict[str, Any]:
    """Change a page's title, a database row's properties, or archive it (its content is blocks:
    use NOTION_UPDATE_BLOCK)."""
    if not p.properties and p.archived is None and p.icon is None and p.cover is None:
        raise ToolError("Nothing to update: give properties, archived, icon or cover")
    page = find_page(world, p.page_id, write=True)
    database = find_database(world, page.database) if page.database is not None else None
    staged: list[tuple[Any, str]] = []
    for name, value in (p.properties or {}).items():
        if database is None:
            title = _page_title(name, value)
            if title is None:
                raise ToolError(f"{name} is not a property that exists.")
            staged.append((None, title))
            continue
        column = column_of(database, name)
        staged.append((column, from_api(column, value)))
    for column, text in staged:
        if column is None:
            if not text.strip():
                raise ToolError("the title must not be empty")
            page.title = text
        elif database is not None:
            assign(database, page, column, text)
    if staged:
        page.edited = True
    if p.archived is not None:
        page.archived = p.archived
    page.last_edited = world.tick()
    return render_page(world, page)


class CreatePage(Params):
    parent_id: str = Field(
        validation_alias=AliasChoices("parent_id", "parent_page_id"),
        description="The parent page's (or database's) id, or its exact title.",
    )
    title: str = Field(description="Title of the new page.")
    icon: OptStr = Field(default=None, description="A single emoji.")
    cover: OptStr = Field(default=None, description="Public image URL.")
    markdown: OptStr = Field(default=None, description="The page's content as Markdown.")


MARKDOWN_BLOCKS = {"h1": "heading_1", "h2": "heading_2", "h3": "heading_3"}


def _inline_text(token: Token) -> str:
    """An inline token's text without its Markdown marks (the sandbox keeps plain text)."""
    parts = []
    for child in token.children or []:
        if child.type in ("text", "code_inline"):
            parts.append(child.content)
        elif child.type in ("softbreak", "hardbreak"):
            parts.append("\n")
    return "".join(parts)


def markdown_blocks(text: str) -> list[tuple[str, str, bool | None]]:
    """(type, text, checked) for each block of a Markdown body: headings 1-3, paragraphs, bulleted
    and numbered list items ("- [ ]" / "- [x]" are to-dos), quotes, fenced code and dividers."""
    out: list[tuple[str, str, bool | None]] = []
    lists: list[str] = []
    quoted = 0
    pending: str | None = None
    for token in MarkdownIt("commonmark").parse(text):
        if token.type in ("bullet_list_open", "ordered_list_open"):
            lists.append("bulleted_list_item" if token.type == "bullet_list_open" else "numbered_list_item")
        elif token.type in ("bullet_list_close", "ordered_list_close"):
            lists.pop()
        elif token.type == "blockquote_open":
            quoted += 1
        elif token.type == "blockquote_close":
            quoted -= 1
        elif token.type == "heading_open":
            pending = MARKDOWN_BLOCKS.get(token.tag, "heading_3")
        elif token.type == "inline":
            body = _inline_text(token)
            kind = pending or ("quote" if quoted else lists[-1] if lists else "paragraph")
            checked: bool | None = None
            if kind == "bulleted_list_item" and body[:4] in ("[ ] ", "[x] ", "[X] "):
                kind, checked, body = "to_do", body[1] != " ", body[4:]
            out.append((kind, body, checked))
            pending = None
        elif token.type in ("fence", "code_block"):
            out.append(("code", token.content.rstrip("\n"), None))
        elif token.type == "hr":
            out.append(("divider", "", None))
    return out


def _markdown_children(world: World, text: str, stamp: str) -> list[Block]:
    blocks = []
    for index, (kind, body, checked) in enumerate(markdown_blocks(text)):
        if len(body) > MAX_TEXT:
            raise ToolError(f"markdown: a block of {len(body)} characters is longer than {MAX_TEXT}")
        blocks.append(
            Block(
                id=world.make_uuid("block-new", world.clock, index),
                type=kind,
                text=body,
                checked=checked if kind == "to_do" else None,
                created_by="agent",
                last_edited=stamp,
            )
        )
    return blocks


def _parent(world: World, ref: str) -> tuple[Page | None, str | None]:
    """The parent a new page goes under: a page, or a database (its id), by id or exact title."""
    for database in world.notion.databases:
        if not database.archived and (same_id(database.id, ref) or database.title == ref):
            return None, database.id
    try:
        return find_page(world, ref), None
    except ToolError:
        titled = [p for p in placed_pages(world) if p.title == ref and not p.archived]
        if len(titled) == 1:
            return titled[0], None
        raise


@tool("NOTION_CREATE_NOTION_PAGE", CreatePage)
def create_page(world: World, p: CreatePage) -> dict[str, Any]:
    """Create a page under a parent page (or a row in a database), empty or with Markdown content."""
    if not p.title.strip():
        raise ToolError("title must not be empty")
    if len(p.title) > MAX_TEXT:  # the title is one rich text object: Notion's request limits
        raise ToolError(f"title: text.content is longer than {MAX_TEXT} characters")
    parent, database_id = _parent(world, p.parent_id)
    stamp = world.tick()
    page = Page(
        id=world.make_uuid("page-new", world.clock),
        title=p.title,
        path=list(key_of(parent)) if parent is not None else [],
        created_by="agent",
        last_edited=stamp,
    )
    if database_id is not None:
        database = find_database(world, database_id)
        page.database = database.id
        page.properties = blank_row(database)
    if p.markdown:
        page.blocks = _markdown_children(world, p.markdown, stamp)
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
