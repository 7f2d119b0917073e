"""A small stateful Notion API fake (version 2025-09-03) for notion-client and the fake Composio,
over the universe's Notion pages.

Pages created through it are kept as sandbox `Page`s (flat, with a breadcrumb path), with a parent
map on the side, because Notion nests pages. A database has one data source holding its schema
(typed properties, select options) and its rows, which are pages whose parent is the data source;
creating a database puts its `child_database` block at the end of its parent page, as Notion does.
Objects are rendered here from the Notion API's own documented shapes (block, page, database, data
source, list, search results, errors), not by the sandbox's tools, and property values are checked
as the API checks them ("X is not a property that exists", "X is expected to be Y"). Search matches
titles, as Notion's does, and can lag: with `search_lag = N`, a page stays invisible to search for
the first N searches after it was created (Notion indexes new pages asynchronously). The data
source endpoints exist only for requests that send `Notion-Version: 2025-09-03`.
"""

from __future__ import annotations

from typing import Any

from evals.world.outcome import Block
from evals.world.sandbox.model import Column, Page
from tests.support.fakes import FakeServer, Handler, HttpError, Request, Universe

VERSION = "2025-09-03"

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
        self.columns: dict[str, list[Column]] = {}  # database id -> its data source's properties
        self.inline: set[str] = set()  # databases made with is_inline
        self.versions: list[str] = []  # the Notion-Version of every request
        self.trashed: set[str] = set()  # trashed databases (trashed pages are `archived`)
        self.created: dict[str, int] = {}  # page or database -> searches made before it was created
        self.searches = 0
        self.search_lag = 0  # fault: searches a new page stays invisible to
        self.search_page = 100  # results per search page when the request names none (Notion: 100)
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
            ("GET", r"/v1/databases/(?P<id>[^/]+)", self.get_database),
            ("GET", r"/v1/data_sources/(?P<id>[^/]+)", self.get_data_source),
            ("POST", r"/v1/data_sources/(?P<id>[^/]+)/query", self.query_data_source),
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
        version = request.headers.get("notion-version", "")
        self.versions.append(version)
        if request.path.startswith("/v1/data_sources") and version != VERSION:
            raise error(400, "invalid_request_url", "Invalid request URL.")
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
        elif block.type == "child_database":
            body = {"title": block.text}
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
            "has_children": bool(block.children) and block.type != "child_database",
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

    def value_json(self, column: Column, page: Page) -> dict[str, Any]:
        """One property value as the API returns it ({id, type, <type>: value})."""
        text = page.title if column.type == "title" else page.properties.get(column.name, "")
        value: Any = text or None
        if column.type in ("title", "rich_text"):
            value = rich(text)
        elif column.type == "select":
            value = (
                {"id": f"opt-{column.options.index(text)}", "name": text, "color": "default"}
                if text
                else None
            )
        elif column.type == "number":
            value = float(text) if text else None
        elif column.type == "checkbox":
            value = text == "true"
        key = "title" if column.type == "title" else column.name[:4].lower()
        return {"id": key, "type": column.type, column.type: value}

    def page_json(self, page: Page) -> dict[str, Any]:
        properties: dict[str, Any] = {"title": {"id": "title", "type": "title", "title": rich(page.title)}}
        database = self.parents.get(page.id)
        if database in self.columns:
            properties = {c.name: self.value_json(c, page) for c in self.columns[database]}
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
        """A database (2025-09-03): its data sources, no schema."""
        title = self.databases[database]
        stamp = self.universe.world.at(0)
        return {
            "object": "database",
            "id": database,
            "title": rich(title),
            "description": [],
            "parent": self.parent_json(database),
            "is_inline": database in self.inline,
            "is_locked": False,
            "in_trash": database in self.trashed,
            "archived": database in self.trashed,
            "created_time": stamp,
            "last_edited_time": stamp,
            "created_by": self.user(),
            "last_edited_by": self.user(),
            "icon": None,
            "cover": None,
            "url": f"https://www.notion.so/{database.replace('-', '')}",
            "public_url": None,
            "data_sources": [{"id": s, "name": title} for s, d in self.sources.items() if d == database],
        }

    def schema_json(self, database: str) -> dict[str, Any]:
        out = {}
        for column in self.columns[database]:
            config: dict[str, Any] = {}
            if column.type == "select":
                config = {
                    "options": [
                        {"id": f"opt-{n}", "name": o, "color": "default"}
                        for n, o in enumerate(column.options)
                    ]
                }
            elif column.type == "number":
                config = {"format": "number"}
            key = "title" if column.type == "title" else column.name[:4].lower()
            out[column.name] = {"id": key, "name": column.name, "type": column.type, column.type: config}
        return out

    def source(self, source_id: str) -> str:
        database = self.sources.get(source_id)
        if database is None or database in self.trashed:
            raise not_found(f"data source with ID: {source_id}")
        return database

    def listing(
        self, items: list[dict[str, Any]], request: Request, kind: str, default: int = 100
    ) -> dict[str, Any]:
        body = request.body if isinstance(request.body, dict) else {}
        start = int(request.query.get("start_cursor") or body.get("start_cursor") or 0)
        size = int(request.query.get("page_size") or body.get("page_size") or default)
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
        """POST /v1/databases: under a page (at its end, as a child_database block), with its first
        data source's properties (`initial_data_source.properties`, exactly one title)."""
        body = request.body or {}
        parent = self.parent_of(body)
        if parent in self.databases:
            raise invalid("Can't create databases parented by a database.")
        columns = []
        for name, config in ((body.get("initial_data_source") or {}).get("properties") or {}).items():
            kind = next(iter(config), "") if isinstance(config, dict) else ""
            if kind not in ("title", "rich_text", "select", "url", "number", "checkbox"):
                raise invalid(f"body failed validation: properties.{name} has no supported type")
            options = (
                [str(o["name"]) for o in (config[kind] or {}).get("options", [])] if kind == "select" else []
            )
            columns.append(Column(name=name, type=kind, options=options))
        if [c.type for c in columns].count("title") != 1:
            raise invalid("body failed validation: a data source needs exactly one title property.")
        database, source = self.new_id("database"), self.new_id("data-source")
        title = text_of(body.get("title", []), "title")
        self.databases[database] = title
        self.sources[source] = database
        self.columns[database] = columns
        self.parents[database] = parent
        self.created[database] = self.searches
        if body.get("is_inline"):
            self.inline.add(database)
        holder = self.page(parent)
        holder.blocks.append(
            Block(id=database, type="child_database", text=title, last_edited=self.universe.world.at(0))
        )
        return 200, self.database_json(database)

    def get_database(self, request: Request) -> tuple[int, Any]:
        database = request.params["id"]
        match = next((d for d in self.databases if d.replace("-", "") == database.replace("-", "")), None)
        if match is None:
            raise not_found(f"database with ID: {database}")
        return 200, self.database_json(match)

    def get_data_source(self, request: Request) -> tuple[int, Any]:
        source = request.params["id"]
        database = self.source(source)
        stamp = self.universe.world.at(0)
        return 200, {
            "object": "data_source",
            "id": source,
            "title": rich(self.databases[database]),
            "properties": self.schema_json(database),
            "parent": {"type": "database_id", "database_id": database},
            "database_parent": self.parent_json(database),
            "created_time": stamp,
            "last_edited_time": stamp,
            "archived": database in self.trashed,
            "in_trash": database in self.trashed,
        }

    def query_data_source(self, request: Request) -> tuple[int, Any]:
        """POST /v1/data_sources/{id}/query: its rows (not trashed), sorted by property or timestamp."""
        database = self.source(request.params["id"])
        body = request.body or {}
        rows = [
            p
            for p in self.universe.world.notion.pages
            if self.parents.get(p.id) == database and not p.archived
        ]
        names = {c.name: c for c in self.columns[database]}
        for sort in reversed(body.get("sorts") or []):
            descending = sort.get("direction") == "descending"
            if "timestamp" in sort:
                rows.sort(key=lambda p: p.last_edited, reverse=descending)
                continue
            column = names.get(str(sort.get("property")))
            if column is None:
                raise invalid(f"Could not find sort property with name or id: {sort.get('property')}")
            rows.sort(
                key=lambda p, c=column: p.title if c.type == "title" else p.properties.get(c.name, ""),
                reverse=descending,
            )
        return 200, self.listing([self.page_json(p) for p in rows], request, "page_or_data_source")

    def write_properties(self, page: Page, database: str, properties: dict[str, Any]) -> None:
        """Property values checked against the data source as the API checks them, then stored."""
        staged: list[tuple[Column, str]] = []
        for name, value in properties.items():
            column = next((c for c in self.columns[database] if c.name == name), None)
            if column is None:
                raise invalid(f"{name} is not a property that exists.")
            kind = next((k for k in value if k not in ("id", "type")), "") if isinstance(value, dict) else ""
            if kind != column.type:
                raise invalid(f"{name} is expected to be {column.type}.")
            body = value[kind]
            if kind in ("title", "rich_text"):
                staged.append((column, text_of(body, f"properties.{name}.{kind}")))
            elif kind == "select":
                option = "" if body is None else str(body.get("name", ""))
                if "," in option:
                    raise invalid(f"Select option names cannot contain commas: {option}")
                if option and option not in column.options:
                    column.options.append(option)
                staged.append((column, option))
            elif kind == "number":
                staged.append((column, "" if body is None else f"{float(body):g}"))
            elif kind == "checkbox":
                staged.append((column, "true" if body else "false"))
            else:
                staged.append((column, "" if body is None else str(body)))
        for column, text in staged:
            if column.type == "title":
                page.title = text
            else:
                page.properties[column.name] = text

    def create_page(self, request: Request) -> tuple[int, Any]:
        body = request.body or {}
        parent_id = self.parent_of(body)
        properties = body.get("properties", {})
        stamp = self.universe.world.tick()
        page = Page(id=self.new_id("page"), title="", last_edited=stamp, created_by="api")
        if parent_id in self.columns:
            page.database = parent_id
            page.properties = {c.name: "" for c in self.columns[parent_id] if c.type != "title"}
            self.write_properties(page, parent_id, properties)
        else:
            title_value = properties.get("title", {})
            page.title = text_of(
                title_value.get("title", []) if isinstance(title_value, dict) else title_value, "title"
            )
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
        properties = body.get("properties") or {}
        for name, value in properties.items():
            if not isinstance(value, dict | list):
                raise invalid(f"body failed validation: properties.{name} should be an object or array.")
        database = self.parents.get(page.id)
        if database in self.columns and properties:
            self.write_properties(page, database, properties)
        for name, value in properties.items() if database not in self.columns else []:
            if isinstance(value, list) or "title" in value:
                page.title = text_of(
                    value if isinstance(value, list) else value["title"], f"properties.{name}"
                )
            else:
                raise invalid(f"{name} is not a property that exists.")
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
        if wanted in (None, "database", "data_source"):  # the 2025-09-03 value is data_source
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
        return 200, self.listing(items, request, "page_or_database", self.search_page)

    def children(self, block_id: str) -> list[dict[str, Any]]:
        page, block, _ = self.find(block_id)
        if block is not None:
            parent = {"type": "block_id", "block_id": block.id}
            return [self.block_json(b, parent) for b in block.children if not b.archived]
        if page.id in self.trashed:
            raise not_found(f"block with ID: {block_id}")
        parent = {"type": "page_id", "page_id": page.id}
        out = [
            self.child(b.id, "child_database", self.databases[b.id], parent, False)
            if b.type == "child_database"
            else self.block_json(b, parent)
            for b in page.blocks
            if not b.archived and b.id not in self.trashed
        ]
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
        if block is not None and block.type == "child_database":
            raise invalid("Block type child_database does not support children.")
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
        if block is not None and block.type == "child_database":
            block.archived = True
            self.trash(block.id)
            self.trashed.add(block.id)
            gone = self.child(
                block.id, "child_database", self.databases[block.id], self.block_parent(page, holder), False
            )
            return 200, {**gone, "archived": True, "in_trash": True}
        if block is None:
            self.trash(page.id)
            return 200, self.child(page.id, "child_page", page.title, self.parent_json(page.id), False)
        block.archived = True
        block.last_edited = page.last_edited = stamp
        return 200, self.block_json(block, self.block_parent(page, holder))
