"""The fake Composio's Notion tools: each calls the fake Notion's REST API and passes the Notion
object through, as Composio's Notion tools do. Parameter names are Composio's (block_id, children,
after; block_type and content for an update; parent_id and title for a new page)."""

from __future__ import annotations

from typing import Any

import httpx

NOTION_VERSION = "2025-09-03"


class NotionFailed(Exception):
    """Notion answered with an error: Composio reports it as an unsuccessful result."""


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

    def run(self, slug: str, a: dict[str, Any]) -> dict[str, Any]:
        data: dict[str, Any]
        if slug == "NOTION_SEARCH_NOTION_PAGE":
            # Composio's documented defaults: two results a page, pages only
            body: dict[str, Any] = {"query": a.get("query", ""), "page_size": a.get("page_size", 2)}
            if a.get("start_cursor"):
                body["start_cursor"] = a["start_cursor"]
            if a.get("filter_value", "page"):
                body["filter"] = {
                    "property": a.get("filter_property") or "object",
                    "value": a.get("filter_value", "page"),
                }
            if a.get("timestamp"):
                body["sort"] = {"timestamp": a["timestamp"], "direction": a.get("direction") or "descending"}
            data = self.call("POST", "/v1/search", body)
        elif slug == "NOTION_RETRIEVE_PAGE":
            data = self.call("GET", f"/v1/pages/{a['page_id']}")
        elif slug == "NOTION_FETCH_BLOCK_CONTENTS":
            params = {"page_size": a.get("page_size"), "start_cursor": a.get("start_cursor")}
            data = self.call("GET", f"/v1/blocks/{a['block_id']}/children", params=params)
        elif slug in ("NOTION_APPEND_TEXT_BLOCKS", "NOTION_APPEND_TASK_BLOCKS", "NOTION_APPEND_TABLE_BLOCKS"):
            body = {"children": a["children"]}
            if a.get("after"):
                body["after"] = a["after"]
            data = self.call("PATCH", f"/v1/blocks/{a['block_id']}/children", body)
        elif slug == "NOTION_UPDATE_BLOCK":
            data = self.call("PATCH", f"/v1/blocks/{a['block_id']}", {a["block_type"]: a["content"]})
        elif slug == "NOTION_DELETE_BLOCK":
            data = self.call("DELETE", f"/v1/blocks/{a['block_id']}")
        elif slug == "NOTION_UPDATE_PAGE":
            body = {k: a[k] for k in ("properties", "icon", "cover") if a.get(k)}
            if a.get("archived") is not None:
                body["in_trash"] = a["archived"]
            data = self.call("PATCH", f"/v1/pages/{a['page_id']}", body)
        elif slug == "NOTION_CREATE_NOTION_PAGE":
            body = {
                "parent": {"type": "page_id", "page_id": a["parent_id"]},
                "properties": {"title": {"title": [{"type": "text", "text": {"content": a["title"]}}]}},
            }
            data = self.call("POST", "/v1/pages", body)
        elif slug == "NOTION_ARCHIVE_NOTION_PAGE":
            data = self.call("PATCH", f"/v1/pages/{a['page_id']}", {"in_trash": a.get("archive", True)})
        else:
            raise NotionFailed(f"the fake has no Notion tool {slug}")
        return data
