"""A small stateful Notion API fake for notion-client, over the sandbox world's Notion pages.

Pages created through it become sandbox `Page`s (so the fake Composio's Notion tools see them),
with a parent map on the side: Notion nests pages, the sandbox keeps them flat with a breadcrumb.
Block objects are rendered by the sandbox's own Notion renderer, the shape Composio passes through.
"""

from __future__ import annotations

from typing import Any

from evals.outcome import Block
from evals.tools.notion import plain, render_block, render_page
from evals.world.model import Page
from tests.fakes import FakeServer, Handler, HttpError, Request, Universe

TEXT = {
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


def not_found(what: str) -> HttpError:
    return HttpError(
        404,
        {"object": "error", "status": 404, "code": "object_not_found", "message": f"Could not find {what}"},
    )


class FakeNotion(FakeServer):
    def __init__(self, universe: Universe, token: str) -> None:
        self.token = token
        self.parents: dict[str, str] = {}  # page or database -> its parent page or database
        self.databases: dict[str, str] = {}  # database id -> title
        self.sources: dict[str, str] = {}  # data source id -> database id
        self.trashed: set[str] = set()  # trashed databases (trashed pages are `archived`)
        self.count = 0
        routes: list[tuple[str, str, Handler]] = [
            ("POST", r"/v1/pages", self.create_page),
            ("POST", r"/v1/databases", self.create_database),
            ("GET", r"/v1/pages/(?P<id>[^/]+)", self.get_page),
            ("PATCH", r"/v1/pages/(?P<id>[^/]+)", self.update_page),
            ("GET", r"/v1/blocks/(?P<id>[^/]+)/children", self.list_children),
            ("PATCH", r"/v1/blocks/(?P<id>[^/]+)/children", self.append_children),
            ("GET", r"/v1/blocks/(?P<id>[^/]+)", self.get_block),
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

    def find(self, block_id: str) -> tuple[Page | None, Block | None]:
        wanted = block_id.replace("-", "")
        for page in self.universe.world.notion.pages:
            if page.id.replace("-", "") == wanted:
                return page, None
            for block in page.walk():
                if block.id.replace("-", "") == wanted:
                    return page, block
        raise not_found(f"block with ID: {block_id}")

    def breadcrumb(self, page_id: str) -> list[str]:
        out: list[str] = []
        current = self.parents.get(page_id)
        while current is not None:
            out.insert(0, self.databases[current] if current in self.databases else self.page(current).title)
            current = self.parents.get(current)
        return out

    def block(self, raw: dict[str, Any], stamp: str) -> Block:
        kind = str(raw.get("type"))
        body = raw.get(kind)
        if not isinstance(body, dict):
            raise HttpError(
                400,
                {
                    "object": "error",
                    "status": 400,
                    "code": "validation_error",
                    "message": f"bad block {kind!r}",
                },
            )
        block = Block(id=self.new_id("block"), type=kind, last_edited=stamp, created_by="api")
        if kind == "table":
            block.children = [self.block(row, stamp) for row in body.get("children", [])]
        elif kind == "table_row":
            block.cells = [plain(cell) for cell in body.get("cells", [])]
        elif kind in TEXT:
            block.text = plain(body.get("rich_text", []))
            if kind == "to_do":
                block.checked = bool(body.get("checked"))
        elif kind != "divider":
            raise HttpError(
                400,
                {
                    "object": "error",
                    "status": 400,
                    "code": "validation_error",
                    "message": f"unsupported {kind}",
                },
            )
        return block

    def page_json(self, page: Page) -> dict[str, Any]:
        out = render_page(page)
        parent = self.parents.get(page.id)
        if parent in self.databases:
            source = next(s for s, d in self.sources.items() if d == parent)
            out["parent"] = {"type": "data_source_id", "data_source_id": source, "database_id": parent}
        elif parent:
            out["parent"] = {"type": "page_id", "page_id": parent}
        else:
            out["parent"] = {"type": "workspace", "workspace": True}
        out["in_trash"] = page.archived
        out["created_time"] = page.last_edited
        return out

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
            raise HttpError(
                400,
                {
                    "object": "error",
                    "status": 400,
                    "code": "validation_error",
                    "message": "parent is archived",
                },
            )
        return page.id

    def create_database(self, request: Request) -> tuple[int, Any]:
        body = request.body or {}
        parent = self.parent_of(body)
        database, source = self.new_id("database"), self.new_id("data-source")
        self.databases[database] = plain(body.get("title", []))
        self.sources[source] = database
        self.parents[database] = parent
        return 200, {
            "object": "database",
            "id": database,
            "title": body.get("title", []),
            "parent": {"type": "page_id", "page_id": parent},
            "data_sources": [{"id": source, "name": self.databases[database]}],
            "in_trash": False,
        }

    def create_page(self, request: Request) -> tuple[int, Any]:
        body = request.body or {}
        parent_id = self.parent_of(body)
        properties = body.get("properties", {})
        title = plain(properties.get("title", {}).get("title", []))
        stamp = self.universe.world.tick()
        page = Page(id=self.new_id("page"), title=title, last_edited=stamp, created_by="api")
        page.properties = {
            name: plain(value["rich_text"])
            for name, value in properties.items()
            if name != "title" and isinstance(value, dict) and "rich_text" in value
        }
        page.blocks = [self.block(raw, stamp) for raw in body.get("children", [])]
        self.parents[page.id] = parent_id
        page.path = self.breadcrumb(page.id)
        self.universe.world.notion.pages.append(page)
        return 200, self.page_json(page)

    def get_page(self, request: Request) -> tuple[int, Any]:
        return 200, self.page_json(self.page(request.params["id"]))

    def update_page(self, request: Request) -> tuple[int, Any]:
        page = self.page(request.params["id"])
        body = request.body or {}
        if body.get("in_trash") or body.get("archived"):
            trashed = {page.id}
            while True:  # everything under it goes with it: pages, databases, their rows
                more = {child for child, parent in self.parents.items() if parent in trashed} - trashed
                if not more:
                    break
                trashed |= more
            for other in self.universe.world.notion.pages:
                if other.id in trashed:
                    other.archived = True
            self.trashed |= trashed & set(self.databases)
        return 200, self.page_json(page)

    def children(self, block_id: str) -> list[dict[str, Any]]:
        page, block = self.find(block_id)
        if block is not None:
            return [render_block(b) for b in block.children if not b.archived]
        assert page is not None
        out = [render_block(b) for b in page.blocks if not b.archived]
        for database, title in self.databases.items():
            if self.parents.get(database) == page.id and database not in self.trashed:
                out.append(
                    {
                        "object": "block",
                        "id": database,
                        "type": "child_database",
                        "has_children": False,
                        "archived": False,
                        "child_database": {"title": title},
                    }
                )
        for child in self.universe.world.notion.pages:
            if self.parents.get(child.id) == page.id and not child.archived:
                out.append(
                    {
                        "object": "block",
                        "id": child.id,
                        "type": "child_page",
                        "has_children": bool(child.blocks),
                        "archived": False,
                        "last_edited_time": child.last_edited,
                        "child_page": {"title": child.title},
                    }
                )
        return out

    def list_children(self, request: Request) -> tuple[int, Any]:
        items = self.children(request.params["id"])
        start = int(request.query.get("start_cursor") or 0)
        size = int(request.query.get("page_size") or 100)
        more = start + size < len(items)
        return 200, {
            "object": "list",
            "results": items[start : start + size],
            "has_more": more,
            "next_cursor": str(start + size) if more else None,
            "type": "block",
            "block": {},
        }

    def append_children(self, request: Request) -> tuple[int, Any]:
        page, block = self.find(request.params["id"])
        stamp = self.universe.world.tick()
        new = [self.block(raw, stamp) for raw in (request.body or {}).get("children", [])]
        target = block.children if block is not None else page.blocks  # type: ignore[union-attr]
        target.extend(new)
        return 200, {
            "object": "list",
            "results": [render_block(b) for b in new],
            "has_more": False,
            "next_cursor": None,
        }

    def get_block(self, request: Request) -> tuple[int, Any]:
        _, block = self.find(request.params["id"])
        if block is None:
            raise not_found(f"block with ID: {request.params['id']}")
        return 200, render_block(block)
