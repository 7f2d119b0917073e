"""A small stateful Notion API fake for notion-client and the fake Composio, over the universe's
Notion pages.

Pages created through it are kept as sandbox `Page`s (flat, with a breadcrumb path), with a parent
map on the side, because Notion nests pages. Objects are rendered here from the Notion API's own
documented shapes (block, page, list, search results, errors), not by the sandbox's tools. Search
matches titles, as Notion's does, and can lag: with `search_lag = N`, a page stays invisible to
search for the first N searches after it was created (Notion indexes new pages asynchronously).
"""

from __future__ import annotations

from typing import Any

from evals.world.outcome import Block
from evals.world.sandbox.model import Page
from tests.support.fakes import FakeServer, Handler, HttpError, Request, Universe

TEXT = {
    "paragraph",
    "heading_1",
    "heading_2",
    "heading_3",
    "bulleted_list_item",
    "numbered_list_item",
    "to_do",
    "toggle",
    "callout",
    "quote",
    "code",
}
ANNOTATIONS = {
    "bold": False,
    "italic": False,
    "strikethrough": False,
    "underline": False,
    "code": False,
    "color": "default",
}


def error(status: int, code: str, message: str) -> HttpError:
    return HttpError(status, {"object": "error", "status": status, "code": code, "message": message})


def not_found(what: str) -> HttpError:
    return error(404, "object_not_found", f"Could not find {what}")


def invalid(message: str) -> HttpError:
    return error(400, "validation_error", message)


def text_of(items: Any, where: str) -> str:
    """The text of a rich text array as the API accepts it ({text: {content}} objects, content at
    most 2000 characters); anything else is a validation error, as Notion answers it."""
    if not isinstance(items, list):
        raise invalid(f"body failed validation: {where} should be an array, instead was `{items!r}`.")
    out = []
    for item in items:
        content = item.get("text", {}).get("content") if isinstance(item, dict) else None
        if not isinstance(content, str):
            raise invalid(f"body failed validation: {where}[].text.content should be defined.")
        if len(content) > 2000:
            raise invalid(f"body failed validation: {where}[].text.content.length should be ≤ 2000.")
        out.append(content)
    return "".join(out)


def rich(text: str) -> list[dict[str, Any]]:
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


class FakeNotion(FakeServer):
    def __init__(self, universe: Universe, token: str) -> None:
        self.token = token
        self.parents: dict[str, str] = {}  # page or database -> its parent page or database
        self.databases: dict[str, str] = {}  # database id -> title
        self.sources: dict[str, str] = {}  # data source id -> database id
        self.trashed: set[str] = set()  # trashed databases (trashed pages are `archived`)
        self.created: dict[str, int] = {}  # page or database -> searches made before it was created
        self.searches = 0
        self.search_lag = 0  # fault: searches a new page stays invisible to
        self.count = 0
        routes: list[tuple[str, str, Handler]] = [
            ("POST", r"/v1/pages", self.create_page),
            ("POST", r"/v1/databases", self.create_database),
            ("POST", r"/v1/search", self.search),
            ("GET", r"/v1/pages/(?P<id>[^/]+)", self.get_page),
            ("PATCH", r"/v1/pages/(?P<id>[^/]+)", self.update_page),
            ("GET", r"/v1/blocks/(?P<id>[^/]+)/children", self.list_children),
            ("PATCH", r"/v1/blocks/(?P<id>[^/]+)/children", self.append_children),
            ("GET", r"/v1/blocks/(?P<id>[^/]+)", self.get_block),
            ("PATCH", r"/v1/blocks/(?P<id>[^/]+)", self.update_block),
            ("DELETE", r"/v1/blocks/(?P<id>[^/]+)", self.delete_block),
        ]
        super().__init__(universe, routes)
        self.denied = {
            "object": "error",
            "status": 401,
            "code": "unauthorized",
            "message": "API token is invalid.",
        }

    def authorised(self, request: Request) -> bool:
        return request.headers.get("authorization") == f"Bearer {self.token}"

    # -- state --------------------------------------------------------------------------------------

    def new_id(self, kind: str) -> str:
        self.count += 1
        return self.universe.world.make_uuid("fake-notion", kind, self.count)

    def add_root(self, title: str) -> str:
        """A page that exists before any run: the configured parent of every trial's pages."""
        page = Page(id=self.new_id("page"), title=title, last_edited=self.universe.world.at(0))
        self.universe.world.notion.pages.append(page)
        return page.id

    def page(self, page_id: str) -> Page:
        wanted = page_id.replace("-", "")
        for page in self.universe.world.notion.pages:
            if page.id.replace("-", "") == wanted:
                return page
        raise not_found(f"page with ID: {page_id}")

    def find(self, block_id: str) -> tuple[Page, Block | None, Block | None]:
        """(page, block or None for the page itself, the block holding it or None at the top)."""
        wanted = block_id.replace("-", "")
        for page in self.universe.world.notion.pages:
            if page.id.replace("-", "") == wanted:
                return page, None, None
            stack: list[tuple[Block, Block | None]] = [(b, None) for b in page.blocks]
            while stack:
                block, holder = stack.pop()
                if block.id.replace("-", "") == wanted:
                    return page, block, holder
                stack.extend((c, block) for c in block.children)
        raise not_found(f"block with ID: {block_id}")

    def breadcrumb(self, page_id: str) -> list[str]:
        out: list[str] = []
        current = self.parents.get(page_id)
        while current is not None:
            out.insert(0, self.databases[current] if current in self.databases else self.page(current).title)
            current = self.parents.get(current)
        return out

    def user(self) -> dict[str, Any]:
        return {"object": "user", "id": self.universe.world.make_uuid("fake-notion", "integration")}

    def block(self, raw: dict[str, Any], stamp: str) -> Block:
        kind = str(raw.get("type") or next((k for k, v in raw.items() if isinstance(v, dict)), ""))
        body = raw.get(kind)
        if not isinstance(body, dict):
            raise invalid(f"body failed validation: children[].{kind} should be defined.")
        block = Block(id=self.new_id("block"), type=kind, last_edited=stamp, created_by="api")
        if kind == "table":
            block.children = [self.block(row, stamp) for row in body.get("children", [])]
        elif kind == "table_row":
            block.cells = [text_of(cell, "table_row.cells[]") for cell in body.get("cells", [])]
        elif kind in TEXT:
            block.text = text_of(body.get("rich_text"), f"{kind}.rich_text")
            if kind == "to_do":
                block.checked = bool(body.get("checked"))
        elif kind != "divider":
            raise invalid(f"body failed validation: unsupported block type {kind}")
        return block

    # -- rendering (the Notion API's objects) ----------------------------------------------------------

    def block_json(self, block: Block, parent: dict[str, Any]) -> dict[str, Any]:
        body: dict[str, Any]
        if block.type == "table_row":
            body = {"cells": [rich(c) for c in block.cells or []]}
        elif block.type == "table":
            width = len(block.children[0].cells or []) if block.children else 0
            body = {"table_width": width, "has_column_header": True, "has_row_header": False}
        elif block.type == "divider":
            body = {}
        else:
            body = {"rich_text": rich(block.text), "color": "default"}
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
            "created_time": block.last_edited,
            "last_edited_time": block.last_edited,
            "created_by": self.user(),
            "last_edited_by": self.user(),
            "has_children": bool(block.children),
            "archived": block.archived,
            "in_trash": block.archived,
            "type": block.type,
            block.type: body,
        }

    def parent_json(self, child: str) -> dict[str, Any]:
        parent = self.parents.get(child)
        if parent in self.databases:
            source = next(s for s, d in self.sources.items() if d == parent)
            return {"type": "data_source_id", "data_source_id": source, "database_id": parent}
        if parent:
            return {"type": "page_id", "page_id": parent}
        return {"type": "workspace", "workspace": True}

    def page_json(self, page: Page) -> dict[str, Any]:
        properties: dict[str, Any] = {"title": {"id": "title", "type": "title", "title": rich(page.title)}}
        for name, value in page.properties.items():
            properties[name] = {"id": name[:4].lower(), "type": "rich_text", "rich_text": rich(value)}
        return {
            "object": "page",
            "id": page.id,
            "created_time": page.last_edited,
            "last_edited_time": page.last_edited,
            "created_by": self.user(),
            "last_edited_by": self.user(),
            "cover": None,
            "icon": None,
            "parent": self.parent_json(page.id),
            "archived": page.archived,
            "in_trash": page.archived,
            "properties": properties,
            "url": f"https://www.notion.so/{'-'.join(page.title.split())}-{page.id.replace('-', '')}",
            "public_url": None,
        }

    def database_json(self, database: str) -> dict[str, Any]:
        title = self.databases[database]
        return {
            "object": "database",
            "id": database,
            "title": rich(title),
            "parent": self.parent_json(database),
            "data_sources": [{"id": s, "name": title} for s, d in self.sources.items() if d == database],
            "in_trash": database in self.trashed,
            "archived": database in self.trashed,
        }

    def listing(self, items: list[dict[str, Any]], request: Request, kind: str) -> dict[str, Any]:
        body = request.body if isinstance(request.body, dict) else {}
        start = int(request.query.get("start_cursor") or body.get("start_cursor") or 0)
        size = int(request.query.get("page_size") or body.get("page_size") or 100)
        more = start + size < len(items)
        return {
            "object": "list",
            "results": items[start : start + size],
            "next_cursor": str(start + size) if more else None,
            "has_more": more,
            "type": kind,
            kind: {},
        }

    # -- handlers ---------------------------------------------------------------------------------

    def parent_of(self, body: dict[str, Any]) -> str:
        """The id a new page or database hangs under: a live page, or a live database's data source."""
        parent = body.get("parent") or {}
        if parent.get("data_source_id"):
            database = self.sources.get(str(parent["data_source_id"]))
            if database is None or database in self.trashed:
                raise not_found(f"data source with ID: {parent['data_source_id']}")
            return database
        page = self.page(str(parent.get("page_id", "")))
        if page.archived:
            raise invalid("parent is archived")
        return page.id

    def create_database(self, request: Request) -> tuple[int, Any]:
        body = request.body or {}
        parent = self.parent_of(body)
        database, source = self.new_id("database"), self.new_id("data-source")
        self.databases[database] = text_of(body.get("title", []), "title")
        self.sources[source] = database
        self.parents[database] = parent
        self.created[database] = self.searches
        return 200, self.database_json(database)

    def create_page(self, request: Request) -> tuple[int, Any]:
        body = request.body or {}
        parent_id = self.parent_of(body)
        properties = body.get("properties", {})
        title_value = properties.get("title", {})
        title = text_of(
            title_value.get("title", []) if isinstance(title_value, dict) else title_value, "title"
        )
        stamp = self.universe.world.tick()
        page = Page(id=self.new_id("page"), title=title, last_edited=stamp, created_by="api")
        page.properties = {
            name: text_of(value["rich_text"], f"properties.{name}.rich_text")
            for name, value in properties.items()
            if name != "title" and isinstance(value, dict) and "rich_text" in value
        }
        page.blocks = [self.block(raw, stamp) for raw in body.get("children", [])]
        self.parents[page.id] = parent_id
        self.created[page.id] = self.searches
        page.path = self.breadcrumb(page.id)
        self.universe.world.notion.pages.append(page)
        return 200, self.page_json(page)

    def get_page(self, request: Request) -> tuple[int, Any]:
        return 200, self.page_json(self.page(request.params["id"]))

    def trash(self, root: str) -> None:
        trashed = {root}
        while True:  # everything under it goes with it: pages, databases, their rows
            more = {child for child, parent in self.parents.items() if parent in trashed} - trashed
            if not more:
                break
            trashed |= more
        for other in self.universe.world.notion.pages:
            if other.id in trashed:
                other.archived = True
        self.trashed |= trashed & set(self.databases)

    def update_page(self, request: Request) -> tuple[int, Any]:
        page = self.page(request.params["id"])
        body = request.body or {}
        if body.get("in_trash") or body.get("archived"):
            self.trash(page.id)
        elif body.get("in_trash") is False or body.get("archived") is False:
            page.archived = False
        for name, value in (body.get("properties") or {}).items():
            if not isinstance(value, dict | list):
                raise invalid(f"body failed validation: properties.{name} should be an object or array.")
            if isinstance(value, list) or "title" in value:
                page.title = text_of(
                    value if isinstance(value, list) else value["title"], f"properties.{name}"
                )
            elif name not in page.properties:
                raise invalid(f"{name} is not a property that exists.")
            elif "rich_text" in value:
                page.properties[name] = text_of(value["rich_text"], f"properties.{name}.rich_text")
            elif isinstance(value.get("select"), dict):
                page.properties[name] = str(value["select"].get("name", ""))
        page.last_edited = self.universe.world.tick()
        return 200, self.page_json(page)

    def visible(self, item: str) -> bool:
        return self.searches - self.created.get(item, -(10**9)) > self.search_lag

    def search(self, request: Request) -> tuple[int, Any]:
        """Pages (and databases) whose title contains the query, once indexed."""
        self.searches += 1
        body = request.body or {}
        words = str(body.get("query") or "").lower().split()
        wanted = (body.get("filter") or {}).get("value")
        items: list[dict[str, Any]] = []
        if wanted in (None, "page"):
            items += [
                self.page_json(p)
                for p in self.universe.world.notion.pages
                if not p.archived and self.visible(p.id) and all(w in p.title.lower() for w in words)
            ]
        if wanted in (None, "database", "data_source"):
            items += [
                self.database_json(d)
                for d, title in self.databases.items()
                if d not in self.trashed and self.visible(d) and all(w in title.lower() for w in words)
            ]
        sort = body.get("sort") or {}
        if sort.get("timestamp") == "last_edited_time":
            items.sort(
                key=lambda i: str(i.get("last_edited_time", "")), reverse=sort.get("direction") != "ascending"
            )
        return 200, self.listing(items, request, "page_or_database")

    def children(self, block_id: str) -> list[dict[str, Any]]:
        page, block, _ = self.find(block_id)
        if block is not None:
            parent = {"type": "block_id", "block_id": block.id}
            return [self.block_json(b, parent) for b in block.children if not b.archived]
        parent = {"type": "page_id", "page_id": page.id}
        out = [self.block_json(b, parent) for b in page.blocks if not b.archived]
        for database, title in self.databases.items():
            if self.parents.get(database) == page.id and database not in self.trashed:
                out.append(self.child(database, "child_database", title, parent, False))
        for child in self.universe.world.notion.pages:
            if self.parents.get(child.id) == page.id and not child.archived:
                out.append(self.child(child.id, "child_page", child.title, parent, bool(child.blocks)))
        return out

    def child(self, item: str, kind: str, title: str, parent: dict[str, Any], nested: bool) -> dict[str, Any]:
        stamp = self.universe.world.at(0)
        return {
            "object": "block",
            "id": item,
            "parent": parent,
            "created_time": stamp,
            "last_edited_time": stamp,
            "created_by": self.user(),
            "last_edited_by": self.user(),
            "has_children": nested,
            "archived": False,
            "in_trash": False,
            "type": kind,
            kind: {"title": title},
        }

    def list_children(self, request: Request) -> tuple[int, Any]:
        return 200, self.listing(self.children(request.params["id"]), request, "block")

    def append_children(self, request: Request) -> tuple[int, Any]:
        page, block, _ = self.find(request.params["id"])
        body = request.body or {}
        stamp = self.universe.world.tick()
        new = [self.block(raw, stamp) for raw in body.get("children", [])]
        target = block.children if block is not None else page.blocks
        if block is not None and block.type == "table":
            width = len(block.children[0].cells or []) if block.children else None
            for row in new:
                if row.type != "table_row" or (width is not None and len(row.cells or []) != width):
                    raise invalid("Number of cells in table row must match the table width.")
        position = len(target)
        after = body.get("after")
        if after:
            ids = [b.id.replace("-", "") for b in target]
            if str(after).replace("-", "") not in ids:
                raise invalid(f"after: block {after} is not a child of {request.params['id']}")
            position = ids.index(str(after).replace("-", "")) + 1
        target[position:position] = new
        page.last_edited = stamp
        parent = (
            {"type": "block_id", "block_id": block.id} if block else {"type": "page_id", "page_id": page.id}
        )
        return 200, {
            "object": "list",
            "results": [self.block_json(b, parent) for b in new],
            "next_cursor": None,
            "has_more": False,
            "type": "block",
            "block": {},
        }

    def block_parent(self, page: Page, holder: Block | None) -> dict[str, Any]:
        return (
            {"type": "block_id", "block_id": holder.id} if holder else {"type": "page_id", "page_id": page.id}
        )

    def get_block(self, request: Request) -> tuple[int, Any]:
        page, block, holder = self.find(request.params["id"])
        if block is None:
            return 200, self.child(
                page.id, "child_page", page.title, self.parent_json(page.id), bool(page.blocks)
            )
        return 200, self.block_json(block, self.block_parent(page, holder))

    def update_block(self, request: Request) -> tuple[int, Any]:
        """PATCH /v1/blocks/{id}: the block type's object ({rich_text}, {checked}, {cells})."""
        page, block, holder = self.find(request.params["id"])
        body = request.body or {}
        if block is None:
            raise invalid("block_id is a page: update pages with PATCH /v1/pages")
        update = body.get(block.type)
        other = next((k for k in body if k in TEXT | {"table_row"} and k != block.type), None)
        if other is not None:
            raise invalid(f"body failed validation: block is a {block.type}, not a {other}")
        if isinstance(update, dict):
            if block.type == "table_row" and "cells" in update:
                cells = update["cells"]
                if not isinstance(cells, list) or len(cells) != len(block.cells or []):
                    raise invalid("Number of cells in table row must match the table width.")
                block.cells = [text_of(c, "table_row.cells[]") for c in cells]
            if "rich_text" in update:
                block.text = text_of(update["rich_text"], f"{block.type}.rich_text")
            if block.type == "to_do" and "checked" in update:
                block.checked = bool(update["checked"])
        block.edited = True
        block.last_edited = page.last_edited = self.universe.world.tick()
        return 200, self.block_json(block, self.block_parent(page, holder))

    def delete_block(self, request: Request) -> tuple[int, Any]:
        page, block, holder = self.find(request.params["id"])
        stamp = self.universe.world.tick()
        if block is None:
            self.trash(page.id)
            return 200, self.child(page.id, "child_page", page.title, self.parent_json(page.id), False)
        block.archived = True
        block.last_edited = page.last_edited = stamp
        return 200, self.block_json(block, self.block_parent(page, holder))
