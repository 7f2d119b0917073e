"""Notion database tools over the sandbox workspace: boards, registers and trackers are databases
whose rows are pages with properties, read and written with Composio's database tools at the
pinned toolkit version (20260915_00; tests/fixtures/composio/notion_20260915_00.json).

NOTION_FETCH_DATABASE gives a database's structure (its data source's properties and their select
options); NOTION_QUERY_DATABASE its rows (pages), sorted on request; NOTION_FETCH_ROW one row;
NOTION_INSERT_ROW_DATABASE adds a row and NOTION_UPDATE_ROW_DATABASE changes or archives one, both
with properties as `[{name, type, value}]` where the value is a string (`notion_values` checks each
against the column as Notion does). A row is a page, so NOTION_UPDATE_PAGE (the Notion API's
property value objects) and NOTION_RETRIEVE_PAGE read and write it too.

The docs page gives only the generic envelope for every tool's output: the results here are the
Notion API's objects (database, page, list), designed, and `evals tools check` records what
Composio really returns.
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

from evals.world.outcome import Block
from evals.world.sandbox.model import Database, Page, World
from evals.world.sandbox.tools.base import Params, Toolkit
from evals.world.sandbox.tools.notion_blocks import request_limits
from evals.world.sandbox.tools.notion_tree import (
    find_database,
    find_page,
    listing,
    render_database,
    render_page,
    same_id,
    start_of,
)
from evals.world.sandbox.tools.notion_values import assign, blank_row, column_of, from_string
from evals.world.toolset import ToolError

TOOLS = Toolkit("notion-databases", admit=request_limits)
tool = TOOLS.tool
OptStr = str | None
TIMESTAMPS = ("created_time", "last_edited_time")
# The text-like block types Notion creates from one text (Composio's simplified block: a type and
# its content); a divider, table or database is not one.
CHILD_TYPES = (
    "paragraph", "heading_1", "heading_2", "heading_3", "bulleted_list_item", "numbered_list_item",
    "to_do", "toggle", "quote", "callout", "code",
)  # fmt: skip


class Nested(BaseModel):
    """A nested input object: a key the tool does not know is refused, never silently dropped."""

    model_config = ConfigDict(extra="forbid")


class PropertyInput(Nested):
    """One property value in Composio's row tools: the column's exact name and type, and its value
    as a string formatted for the type."""

    name: str
    type: str
    value: str


class Sort(Nested):
    property_name: str
    ascending: bool


def _json_list(value: Any) -> Any:
    """A list given as a JSON-encoded string (the row tools accept both) is that list."""
    if isinstance(value, str):
        try:
            return json.loads(value)
        except json.JSONDecodeError as exc:
            raise ValueError(f"not a JSON list: {exc.msg}") from exc
    return value


def _database(world: World, database_id: str) -> Database:
    """A database by its own id (a `?v=` view suffix stripped); a page id is refused."""
    wanted = database_id.split("?", 1)[0].strip()
    database = find_database(world, wanted)
    if not same_id(database.id, wanted) or database.archived:
        raise ToolError(f"Could not find database with ID: {database_id}")
    return database


def _row(world: World, row_id: str) -> tuple[Page, Database]:
    page = find_page(world, row_id)
    if page.database is None:
        raise ToolError(f"{row_id} is a page but not a database row: use NOTION_UPDATE_PAGE")
    return page, find_database(world, page.database)


def _write(database: Database, page: Page, properties: list[PropertyInput]) -> None:
    """Check every value first, then store them all (a refused value changes nothing)."""
    staged = []
    for item in properties:
        column = column_of(database, item.name)
        staged.append((column, from_string(column, item.type, item.value)))
    for column, text in staged:
        assign(database, page, column, text)


class FetchDatabase(Params):
    database_id: str = Field(description="A database id (not a page id).")


@tool("NOTION_FETCH_DATABASE", FetchDatabase)
def fetch_database(world: World, p: FetchDatabase) -> dict[str, Any]:
    """A database's structure: its title, its data source, and its properties (columns) with their
    types and select options. Its rows are read with NOTION_QUERY_DATABASE."""
    return render_database(world, _database(world, p.database_id), with_schema=True)


class QueryDatabase(Params):
    database_id: str = Field(description="A database id (a `?v=` view suffix is stripped).")
    page_size: int = Field(default=100, ge=1, le=100, description="Rows per page (Composio's default: 100).")
    sorts: list[Sort] | None = Field(
        default=None,
        description="[{property_name, ascending}]: a property, or created_time / last_edited_time.",
    )
    start_cursor: OptStr = Field(default=None, description="next_cursor of a previous result.")


def _sort_key(world: World, database: Database, name: str) -> Any:
    if name.lower() in TIMESTAMPS:
        field = "created_time" if name.lower() == "created_time" else "last_edited_time"
        return lambda row: str(render_page(world, row)[field])
    column = column_of(database, name)
    if column.type == "number":
        return lambda row: float(row.properties.get(name) or "-inf")
    if column.type == "title":
        return lambda row: row.title
    return lambda row: row.properties.get(name, "")


@tool("NOTION_QUERY_DATABASE", QueryDatabase)
def query_database(world: World, p: QueryDatabase) -> dict[str, Any]:
    """The database's rows (pages with their properties), in the order they were added unless sorted."""
    database = _database(world, p.database_id)
    rows = [r for r in world.notion.rows(database.id) if not r.archived]
    for sort in reversed(p.sorts or []):  # stable sorts, last rule first: the first rule decides
        rows.sort(key=_sort_key(world, database, sort.property_name), reverse=not sort.ascending)
    return listing(
        [render_page(world, r) for r in rows], start_of(p.start_cursor), p.page_size, "page_or_data_source"
    )


class ChildBlock(Nested):
    """A block of the new row's content, in Composio's simplified form ({content, block_property})."""

    content: str = Field(max_length=2000)
    block_property: str = "paragraph"


class InsertRow(Params):
    database_id: str = Field(description="The database to add a row to.")
    properties: list[PropertyInput] | None = Field(
        default=None,
        description="[{name, type, value}]: each column's exact name and type, the value a string "
        "(title/rich_text text, select an option name, number '23.4', checkbox 'True'/'False', url).",
    )
    child_blocks: list[ChildBlock] | None = Field(
        default=None, description="The new row's content: [{content, block_property}]."
    )
    icon: OptStr = Field(default=None, description="A single emoji.")
    cover: OptStr = Field(default=None, description="Public image URL.")

    _lists = field_validator("properties", "child_blocks", mode="before")(_json_list)


@tool("NOTION_INSERT_ROW_DATABASE", InsertRow)
def insert_row(world: World, p: InsertRow) -> dict[str, Any]:
    """Add a row (a page) to a database, with the given property values and optional content."""
    database = _database(world, p.database_id)
    stamp = world.tick()
    page = Page(
        id=world.make_uuid("row-new", world.clock),
        title="",
        database=database.id,
        properties=blank_row(database),
        created_by="agent",
        last_edited=stamp,
    )
    _write(database, page, p.properties or [])
    for index, child in enumerate(p.child_blocks or []):
        if child.block_property not in CHILD_TYPES:
            raise ToolError(
                f"child_blocks[{index}]: block_property {child.block_property!r} is not supported here"
            )
        page.blocks.append(
            Block(
                id=world.make_uuid("block-new", world.clock, "row", index),
                type=child.block_property,
                text=child.content,
                checked=False if child.block_property == "to_do" else None,
                created_by="agent",
                last_edited=stamp,
            )
        )
    world.notion.pages.append(page)
    database.last_edited = stamp
    return render_page(world, page)


class UpdateRow(Params):
    row_id: str = Field(description="The row's page id (not the database's).")
    properties: list[PropertyInput] | None = Field(
        default=None,
        description="[{name, type, value}] for the columns to change; the others stay as they are.",
    )
    delete_row: bool = Field(default=False, description="true archives the row.")
    icon: OptStr = Field(default=None, description="A single emoji (blank: ignored).")
    cover: OptStr = Field(default=None, description="Public image URL (blank: ignored).")

    _lists = field_validator("properties", mode="before")(_json_list)


@tool("NOTION_UPDATE_ROW_DATABASE", UpdateRow)
def update_row(world: World, p: UpdateRow) -> dict[str, Any]:
    """Change a row's properties (the ones listed), or archive the row with delete_row."""
    page, database = _row(world, p.row_id)
    if p.delete_row:
        page.archived = True
    if p.properties:
        _write(database, page, p.properties)
        page.edited = True
    page.last_edited = world.tick()
    return render_page(world, page)


class FetchRow(Params):
    page_id: str = Field(description="The row's page id.")


@tool("NOTION_FETCH_ROW", FetchRow)
def fetch_row(world: World, p: FetchRow) -> dict[str, Any]:
    """A database row's properties and metadata (its content is its block children)."""
    page, _ = _row(world, p.page_id)
    return render_page(world, page)
