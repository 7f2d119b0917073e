"""Notion calls as pages, tables and blocks.

Read by shape, not by tool: a `page` object is its title and properties; a list of pages is a table
with a row per page and a column per property (a database's rows read as the database does); a list
of blocks, or the children the agent appends, are blocks (a to-do with its box, a table row as its
cells, a child page by its title). Property values of every documented type are read as text
(title, rich_text, select, status, multi_select, checkbox, number, date, people, url, email,
phone_number, relation, formula, unique_id, created/edited time and by), an unknown one as its JSON.
"""

from __future__ import annotations

import json
from typing import Any

from evals.report.viewer.results.shapes import Seen, Shape, blocks, fields, obj, table


def plain(rich: Any) -> str:
    """A rich text array as its text (`plain_text`, or `text.content` as the agent writes it)."""
    if not isinstance(rich, list):
        return ""
    out = []
    for item in rich:
        if isinstance(item, dict):
            out.append(str(item.get("plain_text") or obj(item.get("text")).get("content") or ""))
    return "".join(out)


def _named(value: Any) -> str:
    return str(value.get("name") or value.get("id") or "") if isinstance(value, dict) else ""


def property_text(prop: Any) -> str:
    """One property's value as text, whatever its type."""
    if not isinstance(prop, dict):
        return "" if prop is None else str(prop)
    kind = prop.get("type") or next((k for k in prop if k not in ("id", "name")), "")
    value = prop.get(kind)
    if kind in ("title", "rich_text"):
        return plain(value)
    if kind in ("select", "status"):
        return _named(value)
    if kind in ("multi_select", "people", "relation"):
        return ", ".join(_named(v) for v in value or [])
    if kind == "checkbox":
        return "☑" if value else "☐"
    if kind == "date" and isinstance(value, dict):
        return str(value.get("start") or "") + (f" → {value['end']}" if value.get("end") else "")
    if kind == "formula" and isinstance(value, dict):
        return str(value.get(value.get("type", ""), ""))
    if kind == "unique_id" and isinstance(value, dict):
        return f"{value.get('prefix') or ''}-{value.get('number')}".lstrip("-")
    if kind in ("created_by", "last_edited_by"):
        return _named(value)
    if value is None or isinstance(value, str | int | float):
        return "" if value is None else str(value)
    return json.dumps(value, ensure_ascii=False)


def title_of(page: dict[str, Any]) -> str:
    """A page's title: its title-typed property (a database names it as it likes), else `title`."""
    for prop in (page.get("properties") or {}).values():
        if isinstance(prop, dict) and prop.get("type") == "title":
            return plain(prop.get("title"))
    return plain(page.get("title")) or str(page.get("title") or "")


def _page(page: dict[str, Any]) -> list[Shape]:
    props = page.get("properties") or {}
    pairs = [
        (name, property_text(p))
        for name, p in props.items()
        if not (isinstance(p, dict) and p.get("type") == "title")
    ]
    head = [
        ("title", title_of(page)),
        ("url", page.get("url")),
        ("archived", "yes" if page.get("archived") else None),
    ]
    return [
        fields(page.get("object", "page"), head),
        *([table("properties", ["property", "value"], [list(p) for p in pairs])] if pairs else []),
    ]


def _pages(items: list[dict[str, Any]]) -> Shape:
    """A row per page, a column per property (title first): a database's rows as a table."""
    columns: list[str] = []
    for page in items:
        for name, prop in (page.get("properties") or {}).items():
            if name not in columns and not (isinstance(prop, dict) and prop.get("type") == "title"):
                columns.append(name)
    rows = [
        [
            title_of(page),
            page.get("object", ""),
            *[property_text((page.get("properties") or {}).get(c)) for c in columns],
        ]
        for page in items
    ]
    return table(f"{len(items)} result{'s' if len(items) != 1 else ''}", ["title", "kind", *columns], rows)


def block_view(block: dict[str, Any]) -> dict[str, Any]:
    """One block as the page draws it: its type and text, a to-do's box, a row's cells."""
    kind = str(block.get("type") or "")
    body = obj(block.get(kind))
    out: dict[str, Any] = {"type": kind, "text": plain(body.get("rich_text"))}
    if kind == "to_do":
        out["checked"] = bool(body.get("checked"))
    if kind == "table_row":
        out["cells"] = [plain(cell) for cell in body.get("cells") or []]
        out["text"] = " | ".join(out["cells"])
    if kind in ("child_page", "child_database"):
        out["text"] = str(body.get("title") or "")
    if kind == "table":
        out["text"] = f"table, {body.get('table_width', '?')} columns"
        out["rows"] = [block_view(r) for r in body.get("children") or [] if isinstance(r, dict)]
    if block.get("archived") or block.get("in_trash"):
        out["archived"] = True
    return out


def _children(title: str, items: list[Any]) -> list[Shape]:
    flat: list[dict[str, Any]] = []
    for item in items:
        if isinstance(item, dict):
            view = block_view(item)
            flat.append(view)
            flat.extend(view.pop("rows", []))
    return [blocks(title, flat)]


def _result(data: Any) -> list[Shape]:
    if not isinstance(data, dict):
        return []
    if isinstance(data.get("results"), list):
        items = [r for r in data["results"] if isinstance(r, dict)]
        if items and all(r.get("object") in ("page", "database") for r in items):
            return [_pages(items)]
        if not items:
            return [fields(None, [("results", "none")])]
        return _children(f"{len(items)} block{'s' if len(items) != 1 else ''}", items)
    if data.get("object") in ("page", "database"):
        return _page(data)
    if data.get("object") == "block":
        return _children("block", [data])
    return []


def _args(args: dict[str, Any]) -> list[Shape]:
    """What the agent asked to write: blocks to append, a block's new content, a page's new properties."""
    if isinstance(args.get("children"), list):
        return _children("blocks to add", args["children"])
    if isinstance(args.get("content"), dict) and args.get("block_type"):
        kind = str(args["block_type"])
        return _children("the block's new content", [{"type": kind, kind: args["content"]}])
    if isinstance(args.get("properties"), dict) and args["properties"]:
        rows = [
            [name, plain(v) if isinstance(v, list) else property_text(v)]
            for name, v in args["properties"].items()
        ]
        return [table("properties to set", ["property", "value"], rows)]
    return []


def present(tool: str, args: dict[str, Any], data: Any, seen: Seen) -> tuple[list[Shape], list[Shape]]:
    return _args(args), [] if data is None else _result(data)
