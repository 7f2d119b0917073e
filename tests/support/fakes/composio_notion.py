"""The fake Composio's Notion tools: each calls the fake Notion's REST API (version 2025-09-03) and
passes the Notion objects through, as Composio's Notion tools do. Parameters are those of Composio's
Notion toolkit docs page at 20260915_00: NOTION_UPDATE_BLOCK takes the new text as a string (the
block's type read first when not given; text blocks only); NOTION_APPEND_TABLE_BLOCKS makes new
tables from `tables`; the row tools take `[{name, type, value}]` with string values, turned into the
API's property values by the given type (Notion then checks them against the data source); a
database is read through its data source. `markdown` on a new page is not modelled here."""

from __future__ import annotations

import json
from typing import Any

import httpx

NOTION_VERSION = "2025-09-03"
TEXT_BLOCKS = (
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


class NotionFailed(Exception):
    """Notion answered with an error: Composio reports it as an unsuccessful result."""


def rich(text: str) -> list[dict[str, Any]]:
    return [{"type": "text", "text": {"content": text}}] if text else []


def property_value(kind: str, value: str) -> dict[str, Any]:
    """Composio's string value for a property type as the Notion API's property value."""
    body: Any
    if kind in ("title", "rich_text"):
        body = rich(value)
    elif kind in ("select", "status"):
        body = {"name": value} if value else None
    elif kind == "number":
        body = float(value) if value.strip() else None
    elif kind == "checkbox":
        body = value.lower() == "true"
    else:
        body = value or None
    return {kind: body}


def as_list(value: Any) -> list[Any]:
    """The row tools accept a list or a JSON-encoded one."""
    return list(json.loads(value) if isinstance(value, str) else value or [])


class ComposioNotion:
    def __init__(self, base_url: str, token: str) -> None:
        self.http = httpx.Client(
            base_url=base_url,
            headers={"Authorization": f"Bearer {token}", "Notion-Version": NOTION_VERSION},
            timeout=30,
        )

    def call(self, method: str, path: str, body: Any = None, params: dict[str, Any] | None = None) -> Any:
        query = {k: v for k, v in (params or {}).items() if v is not None}
        response = self.http.request(method, path, json=body, params=query)
        data = response.json() if response.content else {}
        if response.status_code >= 400:
            raise NotionFailed(f"{data.get('code', response.status_code)}: {data.get('message', '')}")
        return data

    def source(self, database_id: str) -> str:
        database = self.call("GET", f"/v1/databases/{database_id.split('?', 1)[0]}")
        return str(database["data_sources"][0]["id"])

    def run(self, slug: str, a: dict[str, Any]) -> dict[str, Any]:
        handler = getattr(self, slug.removeprefix("NOTION_").lower(), None)
        if handler is None:
            raise NotionFailed(f"the fake has no Notion tool {slug}")
        data: dict[str, Any] = handler(a)
        return data

    def search_notion_page(self, a: dict[str, Any]) -> dict[str, Any]:
        body: dict[str, Any] = {"query": a.get("query") or "", "page_size": a.get("page_size", 25)}
        if a.get("start_cursor"):
            body["start_cursor"] = a["start_cursor"]
        if a.get("filter_value"):
            body["filter"] = {"property": a.get("filter_property") or "object", "value": a["filter_value"]}
        if a.get("timestamp"):
            body["sort"] = {"timestamp": a["timestamp"], "direction": a.get("direction") or "descending"}
        data: dict[str, Any] = self.call("POST", "/v1/search", body)
        keep = a.get("filter_properties")
        if keep is not None:
            for item in data["results"]:
                if item.get("object") == "page":
                    item["properties"] = {k: v for k, v in item["properties"].items() if k in keep}
        return data

    def retrieve_page(self, a: dict[str, Any]) -> dict[str, Any]:
        data: dict[str, Any] = self.call("GET", f"/v1/pages/{a['page_id']}")
        return data

    fetch_row = retrieve_page

    def fetch_block_contents(self, a: dict[str, Any]) -> dict[str, Any]:
        params = {"page_size": a.get("page_size"), "start_cursor": a.get("start_cursor")}
        data: dict[str, Any] = self.call("GET", f"/v1/blocks/{a['block_id']}/children", params=params)
        return data

    def _append(self, a: dict[str, Any], children: list[Any]) -> dict[str, Any]:
        body: dict[str, Any] = {"children": children}
        if a.get("after"):
            body["after"] = a["after"]
        data: dict[str, Any] = self.call("PATCH", f"/v1/blocks/{a['block_id']}/children", body)
        return data

    def append_text_blocks(self, a: dict[str, Any]) -> dict[str, Any]:
        return self._append(a, a.get("children") or a.get("blocks") or [])

    def append_task_blocks(self, a: dict[str, Any]) -> dict[str, Any]:
        return self._append(a, a["children"])

    def append_table_blocks(self, a: dict[str, Any]) -> dict[str, Any]:
        tables = [
            {
                "object": "block",
                "type": "table",
                "table": {
                    "table_width": t["table_width"],
                    "has_column_header": t.get("has_column_header", False),
                    "has_row_header": t.get("has_row_header", False),
                    "children": [
                        {"object": "block", "type": "table_row", "table_row": {"cells": row["cells"]}}
                        for row in t["rows"]
                    ],
                },
            }
            for t in a["tables"]
        ]
        return self._append(a, tables)

    def update_block(self, a: dict[str, Any]) -> dict[str, Any]:
        kind = a.get("block_type") or self.call("GET", f"/v1/blocks/{a['block_id']}")["type"]
        if kind not in TEXT_BLOCKS:
            raise NotionFailed(f"validation_error: block type {kind} is not supported by this action")
        extras = {k: v for k, v in (a.get("additional_properties") or {}).items() if v is not None}
        if "archived" in extras:
            raise NotionFailed("validation_error: archived cannot be set with additional_properties")
        body = {"rich_text": rich(a["content"]), **extras}
        if kind == "code" and a.get("language"):
            body["language"] = a["language"]
        data: dict[str, Any] = self.call("PATCH", f"/v1/blocks/{a['block_id']}", {kind: body})
        return data

    def delete_block(self, a: dict[str, Any]) -> dict[str, Any]:
        data: dict[str, Any] = self.call("DELETE", f"/v1/blocks/{a['block_id']}")
        return data

    def update_page(self, a: dict[str, Any]) -> dict[str, Any]:
        body = {k: a[k] for k in ("properties", "icon", "cover") if a.get(k)}
        if a.get("archived") is not None:
            body["in_trash"] = a["archived"]
        data: dict[str, Any] = self.call("PATCH", f"/v1/pages/{a['page_id']}", body)
        return data

    def create_notion_page(self, a: dict[str, Any]) -> dict[str, Any]:
        if a.get("markdown"):
            raise NotionFailed("the fake does not model markdown content")
        body = {
            "parent": {"type": "page_id", "page_id": a.get("parent_id") or a.get("parent_page_id")},
            "properties": {"title": {"title": rich(a["title"])}},
        }
        data: dict[str, Any] = self.call("POST", "/v1/pages", body)
        return data

    def archive_notion_page(self, a: dict[str, Any]) -> dict[str, Any]:
        data: dict[str, Any] = self.call(
            "PATCH", f"/v1/pages/{a['page_id']}", {"in_trash": a.get("archive", True)}
        )
        return data

    def fetch_database(self, a: dict[str, Any]) -> dict[str, Any]:
        """The database and its one data source's properties (structure, not the rows)."""
        database: dict[str, Any] = self.call("GET", f"/v1/databases/{a['database_id']}")
        source = self.call("GET", f"/v1/data_sources/{database['data_sources'][0]['id']}")
        return {**database, "properties": source["properties"]}

    def query_database(self, a: dict[str, Any]) -> dict[str, Any]:
        sorts = []
        for sort in a.get("sorts") or []:
            direction = "ascending" if sort["ascending"] else "descending"
            name = str(sort["property_name"])
            if name.lower() in ("created_time", "last_edited_time"):
                sorts.append({"timestamp": name.lower(), "direction": direction})
            else:
                sorts.append({"property": name, "direction": direction})
        body: dict[str, Any] = {"page_size": a.get("page_size", 100), "sorts": sorts}
        if a.get("start_cursor"):
            body["start_cursor"] = a["start_cursor"]
        data: dict[str, Any] = self.call(
            "POST", f"/v1/data_sources/{self.source(a['database_id'])}/query", body
        )
        return data

    def insert_row_database(self, a: dict[str, Any]) -> dict[str, Any]:
        properties: dict[str, Any] = {}
        for item in as_list(a.get("properties")):
            properties[item["name"]] = property_value(item["type"], item["value"])
        children = [
            {
                "object": "block",
                "type": b.get("block_property", "paragraph"),
                b.get("block_property", "paragraph"): {"rich_text": rich(b["content"])},
            }
            for b in as_list(a.get("child_blocks"))
        ]
        body = {
            "parent": {"type": "data_source_id", "data_source_id": self.source(a["database_id"])},
            "properties": properties,
            "children": children,
        }
        data: dict[str, Any] = self.call("POST", "/v1/pages", body)
        return data

    def update_row_database(self, a: dict[str, Any]) -> dict[str, Any]:
        body: dict[str, Any] = {}
        properties = {i["name"]: property_value(i["type"], i["value"]) for i in as_list(a.get("properties"))}
        if properties:
            body["properties"] = properties
        if a.get("delete_row"):
            body["in_trash"] = True
        data: dict[str, Any] = self.call("PATCH", f"/v1/pages/{a['row_id']}", body)
        return data
