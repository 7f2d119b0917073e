"""A database row's property values, as the agent's tools write them and Notion checks them.

Two spellings reach a row: the Notion API's property value objects (NOTION_UPDATE_PAGE:
`{"Status": {"select": {"name": "Done"}}}`) and Composio's row tools' `{name, type, value}` with the
value as a string (NOTION_INSERT_ROW_DATABASE, NOTION_UPDATE_ROW_DATABASE: select "one option name,
commas not allowed", number "a string of a number", checkbox "True" or "False", url a URL). Both
are checked as Notion checks them: a name the database does not have is "not a property that
exists", a type other than the column's is "expected to be" the column's type, text is at most
2,000 characters. A select takes an option it does not have yet and adds it (Notion creates select
options on write); nothing else is created. Values are stored as text (sandbox `Page.properties`).
"""

from __future__ import annotations

import math
from typing import Any

from evals.world.sandbox.model import Column, Database, Page
from evals.world.sandbox.tools.notion_tree import MAX_TEXT, plain
from evals.world.toolset import ToolError

WRITABLE = ("title", "rich_text", "select", "status", "url", "number", "checkbox")


def column_of(database: Database, name: str) -> Column:
    column = database.column(name)
    if column is None:
        raise ToolError(f"{name} is not a property that exists.")
    return column


def _check_type(column: Column, kind: str) -> None:
    if kind != column.type:
        raise ToolError(f"{column.name} is expected to be {column.type}.")
    if kind not in WRITABLE:
        raise ToolError(f"{column.name}: properties of type {kind} cannot be written")


def _text(column: Column, text: str) -> str:
    if len(text) > MAX_TEXT:
        raise ToolError(f"{column.name}: text is longer than {MAX_TEXT} characters")
    return text


def _option(column: Column, name: str) -> str:
    if "," in name:
        raise ToolError(f"{column.name}: a select option cannot contain a comma ({name!r})")
    if column.type == "status" and name and name not in column.options:
        raise ToolError(f"Invalid status option {name!r} for {column.name}: {', '.join(column.options)}")
    if name and name not in column.options:
        column.options.append(name)
    return name


def _number(column: Column, value: Any) -> str:
    try:
        number = float(value)
    except (TypeError, ValueError) as exc:
        raise ToolError(f"{column.name}: {value!r} is not a number") from exc
    if not math.isfinite(number):
        raise ToolError(f"{column.name}: {value!r} is not a number")
    return f"{number:g}"


def from_string(column: Column, kind: str, value: str) -> str:
    """Composio's `{name, type, value}` with a string value, as text to store."""
    _check_type(column, kind)
    if kind in ("title", "rich_text", "url"):
        return _text(column, value)
    if kind in ("select", "status"):
        return _option(column, value.strip())
    if kind == "number":
        return _number(column, value) if value.strip() else ""
    if value not in ("True", "False", "true", "false"):
        raise ToolError(f"{column.name}: a checkbox value is 'True' or 'False', not {value!r}")
    return value.lower()


def from_api(column: Column, value: Any) -> str:
    """A Notion API property value object ({<type>: value}) as text to store; a plain value is refused."""
    if not isinstance(value, dict) or not value:
        raise ToolError(
            f"{column.name}: should be defined as a property value object, e.g. "
            "{select: {name: ...}} or {rich_text: [{text: {content: ...}}]}, not a plain value"
        )
    kind = next(iter(k for k in value if k not in ("id", "type")), "")
    _check_type(column, kind)
    body = value[kind]
    if kind in ("title", "rich_text"):
        return plain(body)
    if kind in ("select", "status"):
        if body is None:
            return ""
        if not isinstance(body, dict) or not isinstance(body.get("name"), str):
            raise ToolError(f"{column.name}: {kind} should be {{name: option}} or null")
        return _option(column, body["name"])
    if kind == "url":
        if body is not None and not isinstance(body, str):
            raise ToolError(f"{column.name}: url should be a string or null")
        return _text(column, body or "")
    if kind == "number":
        if body is not None and (isinstance(body, bool) or not isinstance(body, int | float)):
            raise ToolError(f"{column.name}: number should be a number or null")
        return "" if body is None else _number(column, body)
    if not isinstance(body, bool):
        raise ToolError(f"{column.name}: checkbox should be true or false")
    return "true" if body else "false"


def assign(database: Database, page: Page, column: Column, text: str) -> None:
    """Store one checked value on a row: the title column is the page's title."""
    if column.type == "title":
        page.title = text
    else:
        page.properties[column.name] = text


def blank_row(database: Database) -> dict[str, str]:
    """A new row's values before any are given: every column but the title, empty."""
    return {c.name: "false" if c.type == "checkbox" else "" for c in database.columns[1:]}
