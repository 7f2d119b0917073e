"""A trial's Notion pages through notion-client: create them fresh, read them back, archive them.

Each trial gets one container page under the configured parent, named like the trial's repo, and
inside it the scenario's pages under their breadcrumb pages ("Engineering" > "Infrastructure" >
the spec), as the sandbox has them, so a search for a breadcrumb finds a page in both worlds.
Seeded blocks are mapped to scenario keys by position right after creation (block ids are
Notion's, not ours), so the snapshot gives graders the same `key`s as the sandbox and tells seeded
blocks from ones the agent added. Notion indexes new pages for search asynchronously: setup waits
until search finds every seeded page, reading every page of results.

A board (a scenario `database` block) is made as Notion and the sandbox model it: an inline
database (`POST /v1/databases`, its schema as the initial data source's properties) at its place
among the page's blocks, and its rows as pages in that data source; the snapshot reads it back as
the sandbox does, a `child_database` block whose rows are `page` blocks with their values in
column order. A page with properties is the one row of a database of its own (a page under a page
can only have a title), as the sandbox builds it. The API version is pinned (`clients.NOTION_VERSION`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from notion_client import Client
from notion_client.errors import APIResponseError

from evals.core.errors import InfrastructureError
from evals.scenario.model import BlockSpec, PageSpec, Scenario
from evals.world.live import polling
from evals.world.outcome import DATABASE, HEADER_KEY, ROW, Block, PageSnapshot

MAX_CHILDREN = 100  # Notion's limit per create/append request


def _d(result: object) -> dict[str, Any]:
    """notion-client's sync methods are typed as sync-or-async; ours are always sync dicts."""
    if not isinstance(result, dict):
        raise TypeError(f"expected a JSON object from Notion, got {type(result).__name__}")
    return result


def rich_text(text: str) -> list[dict[str, Any]]:
    return [{"type": "text", "text": {"content": text}}] if text else []


def plain(items: list[dict[str, Any]]) -> str:
    return "".join(str(item.get("plain_text", item.get("text", {}).get("content", ""))) for item in items)


def block_body(spec: BlockSpec) -> dict[str, Any]:
    """The Notion API object for one scenario block (a table carries its rows, header first)."""
    if spec.type == "divider":
        return {"object": "block", "type": "divider", "divider": {}}
    if spec.type == "table":
        columns = list(spec.columns or [])
        rows = [columns, *(spec.rows or [])]
        return {
            "object": "block",
            "type": "table",
            "table": {
                "table_width": len(columns),
                "has_column_header": True,
                "has_row_header": False,
                "children": [
                    {
                        "object": "block",
                        "type": "table_row",
                        "table_row": {"cells": [rich_text(c) for c in row]},
                    }
                    for row in rows
                ],
            },
        }
    body: dict[str, Any] = {"rich_text": rich_text(spec.text)}
    if spec.type == "to_do":
        body["checked"] = bool(spec.checked)
    if spec.type == "code":
        body["language"] = "plain text"
    return {"object": "block", "type": spec.type, spec.type: body}


@dataclass
class SeededBlock:
    key: str | None
    block: Block
    table: str | None = None  # a table row's table, or a database row's database


@dataclass
class SeededPage:
    key: str
    id: str
    title: str
    path: list[str]
    seeded: dict[str, SeededBlock] = field(default_factory=dict)  # block id -> seed


@dataclass
class SeededNotion:
    container_id: str
    pages: list[SeededPage]
    crumbs: dict[tuple[str, ...], str] = field(default_factory=dict)  # breadcrumb -> its page
    columns: dict[str, list[str]] = field(default_factory=dict)  # a seeded database -> its columns, in order
    rows: dict[str, str | None] = field(default_factory=dict)  # a seeded row's page id -> its row key


def _children(notion: Client, block_id: str) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    cursor: str | None = None
    while True:
        kwargs: dict[str, Any] = {"block_id": block_id, "page_size": MAX_CHILDREN}
        if cursor:
            kwargs["start_cursor"] = cursor
        response = _d(notion.blocks.children.list(**kwargs))
        out.extend(response["results"])
        cursor = response.get("next_cursor") if response.get("has_more") else None
        if not cursor:
            return out


def value_text(prop: dict[str, Any]) -> str:
    """A property value as the text the sandbox stores: rich text as plain text, a select's option
    name, a URL, a number as %g, a checkbox as true/false; "" for none."""
    kind = str(prop.get("type", ""))
    body = prop.get(kind)
    if kind in ("title", "rich_text"):
        return plain(body or [])
    if kind in ("select", "status"):
        return str(body.get("name", "")) if isinstance(body, dict) else ""
    if kind == "number":
        return "" if body is None else f"{float(body):g}"
    if kind == "checkbox":
        return "true" if body else "false"
    return "" if body is None else str(body)


def _query(notion: Client, source: str) -> list[dict[str, Any]]:
    """Every row of a data source (trashed rows are not listed), page by page."""
    out: list[dict[str, Any]] = []
    cursor: str | None = None
    while True:
        kwargs: dict[str, Any] = {"data_source_id": source, "page_size": MAX_CHILDREN}
        if cursor:
            kwargs["start_cursor"] = cursor
        response = _d(notion.data_sources.query(**kwargs))
        out.extend(response["results"])
        cursor = response.get("next_cursor") if response.get("has_more") else None
        if not cursor:
            return out


def _columns(notion: Client, source: str) -> list[str]:
    """A data source's property names, the title first (Notion's order of the others is kept)."""
    properties = _d(notion.data_sources.retrieve(data_source_id=source)).get("properties") or {}
    titles = [n for n, p in properties.items() if p.get("type") == "title"]
    return titles + [n for n in properties if n not in titles]


def database_block(
    notion: Client, raw: dict[str, Any], keys: dict[str, SeededBlock], seeded: SeededNotion | None
) -> Block:
    """A `child_database` block read as the sandbox gives it: its columns, and its rows (every page
    of its data source) as `page` blocks with their values in column order and, as children, the
    row page's own content (its block children: a note written inside a colleague's ticket)."""
    database = _d(notion.databases.retrieve(database_id=raw["id"]))
    source = str(database["data_sources"][0]["id"])
    columns = (seeded.columns.get(raw["id"]) if seeded else None) or _columns(notion, source)
    rows = []
    for page in _query(notion, source):
        properties = page.get("properties") or {}
        cells = [value_text(properties[c]) if c in properties else "" for c in columns]
        rows.append(
            Block(
                id=page["id"],
                type=ROW,
                key=seeded.rows.get(page["id"]) if seeded else None,
                cells=cells,
                children=[to_block(notion, child, keys, seeded) for child in _children(notion, page["id"])],
                archived=bool(page.get("archived") or page.get("in_trash")),
                created_by="seed" if seeded and page["id"] in seeded.rows else "agent",
                last_edited=str(page.get("last_edited_time", "")),
            )
        )
        seed = keys.get(page["id"])
        if seed is not None:
            rows[-1].edited = rows[-1].cells != seed.block.cells
    return Block(
        id=raw["id"],
        type=DATABASE,
        text=plain(database.get("title") or []),
        columns=columns,
        children=rows,
        archived=bool(database.get("in_trash") or database.get("archived")),
        last_edited=str(raw.get("last_edited_time", "")),
    )


def to_block(
    notion: Client, raw: dict[str, Any], keys: dict[str, SeededBlock], seeded: SeededNotion | None = None
) -> Block:
    """A Notion block object as the sandbox Block graders read; tables read their rows too, and a
    database its rows."""
    kind = str(raw["type"])
    body = raw.get(kind) or {}
    seed = keys.get(raw["id"])
    if kind == DATABASE:
        block = database_block(notion, raw, keys, seeded)
    else:
        block = Block(
            id=raw["id"],
            type=kind,
            text=plain(body.get("rich_text", [])),
            checked=body.get("checked") if kind == "to_do" else None,
            cells=[plain(c) for c in body["cells"]] if kind == "table_row" else None,
            archived=bool(raw.get("archived") or raw.get("in_trash")),
            last_edited=str(raw.get("last_edited_time", "")),
        )
        if kind == "table" or (raw.get("has_children") and kind != "child_page"):
            block.children = [to_block(notion, child, keys, seeded) for child in _children(notion, raw["id"])]
    block.key = seed.key if seed else None
    block.created_by = "seed" if seed else "agent"
    if seed is not None:
        before = seed.block
        block.edited = (block.text, block.checked, block.cells) != (before.text, before.checked, before.cells)
    return block


def _keys_by_position(blocks: list[Block], specs: list[BlockSpec]) -> dict[str, SeededBlock]:
    """Pair the blocks read back after creation with the specs they were created from (a board's
    rows are keyed already, by the ids they were created with)."""
    out: dict[str, SeededBlock] = {}
    for block, spec in zip(blocks, specs, strict=True):
        out[block.id] = SeededBlock(spec.key, block.model_copy(deep=True))
        if spec.type == "table":
            keys: list[str | None] = [None] * len(spec.rows or [])
            if spec.row_keys:
                keys = [*spec.row_keys]
            row_keys = [HEADER_KEY, *keys]
            for row, key in zip(block.children, row_keys, strict=True):
                out[row.id] = SeededBlock(key, row.model_copy(deep=True), table=block.id)
        elif spec.type == "database":
            for row in block.children:
                out[row.id] = SeededBlock(row.key, row.model_copy(deep=True), table=block.id)
    return out


def schema(spec: BlockSpec) -> dict[str, Any]:
    """A board's columns as a data source's properties: a select with its options (the declared
    ones, then the values its rows use)."""
    out: dict[str, Any] = {}
    for position, (name, prop) in enumerate((spec.properties or {}).items()):
        config: dict[str, Any] = {}
        if prop.type == "select":
            used = [r[position] for r in spec.rows or [] if r[position]]
            names = list(dict.fromkeys([*prop.options, *used]))
            config = {"options": [{"name": n} for n in names]}
        out[name] = {prop.type: config}
    return out


def row_properties(spec: BlockSpec, cells: list[str]) -> dict[str, Any]:
    """One board row's values as the Notion API takes them, by column type."""
    out: dict[str, Any] = {}
    for (name, prop), text in zip((spec.properties or {}).items(), cells, strict=True):
        value: Any
        if prop.type in ("title", "rich_text"):
            value = rich_text(text)
        elif prop.type == "select":
            value = {"name": text} if text else None
        elif prop.type == "number":
            value = float(text) if text else None
        elif prop.type == "checkbox":
            value = text.lower() == "true"
        else:
            value = text or None
        out[name] = {prop.type: value}
    return out


def _create_board(notion: Client, page_id: str, spec: BlockSpec, seeded: SeededNotion) -> None:
    """An inline database at the end of the page so far (where the spec places it), and its rows."""
    database = _d(
        notion.databases.create(
            parent={"type": "page_id", "page_id": page_id},
            title=rich_text(spec.text),
            is_inline=True,
            initial_data_source={"properties": schema(spec)},
        )
    )
    source = str(database["data_sources"][0]["id"])
    seeded.columns[str(database["id"])] = spec.column_names
    keys: list[str | None] = [*spec.row_keys] if spec.row_keys else [None] * len(spec.rows or [])
    for cells, key in zip(spec.rows or [], keys, strict=True):
        row = _d(
            notion.pages.create(
                parent={"type": "data_source_id", "data_source_id": source},
                properties=row_properties(spec, cells),
            )
        )
        seeded.rows[str(row["id"])] = key


def _page_parent(notion: Client, container: str, spec: PageSpec) -> dict[str, str]:
    """A page under a page has only a title; one with properties gets a one-row database of its own
    whose columns are exactly its properties (text), so it reads back as the sandbox page does."""
    if not spec.properties:
        return {"type": "page_id", "page_id": container}
    columns: dict[str, Any] = {"title": {"title": {}}}
    columns.update({name: {"rich_text": {}} for name in spec.properties})
    database = _d(
        notion.databases.create(
            parent={"type": "page_id", "page_id": container},
            title=rich_text(spec.title),
            initial_data_source={"properties": columns},
        )
    )
    source = str(database["data_sources"][0]["id"])
    return {"type": "data_source_id", "data_source_id": source}


def read_properties(raw: dict[str, Any]) -> dict[str, str]:
    """A page's text properties (the title is the page's title, not a property, as in the sandbox)."""
    out = {}
    for name, prop in (raw.get("properties") or {}).items():
        if isinstance(prop, dict) and prop.get("type") == "rich_text":
            out[name] = plain(prop.get("rich_text") or [])
    return out


def _append(notion: Client, page_id: str, bodies: list[dict[str, Any]]) -> None:
    for start in range(0, len(bodies), MAX_CHILDREN):
        notion.blocks.children.append(block_id=page_id, children=bodies[start : start + MAX_CHILDREN])


def _create_page(notion: Client, container: str, spec: PageSpec, seeded: SeededNotion) -> SeededPage:
    """The page with its blocks in order: blocks are created with the page or appended, a board is
    created where it sits (Notion puts a new database at the end of its page), its rows after it."""
    runs: list[list[BlockSpec]] = [[]]
    boards: list[BlockSpec] = []
    for block in spec.blocks:
        if block.type == "database":
            boards.append(block)
            runs.append([])
        else:
            runs[-1].append(block)
    properties: dict[str, Any] = {"title": {"title": rich_text(spec.title)}}
    properties.update({name: {"rich_text": rich_text(value)} for name, value in spec.properties.items()})
    first = [block_body(b) for b in runs[0]]
    page = _d(
        notion.pages.create(
            parent=_page_parent(notion, container, spec), properties=properties, children=first[:MAX_CHILDREN]
        )
    )
    _append(notion, page["id"], first[MAX_CHILDREN:])
    for board, after in zip(boards, runs[1:], strict=True):
        _create_board(notion, page["id"], board, seeded)
        _append(notion, page["id"], [block_body(b) for b in after])
    read = [to_block(notion, raw, {}, seeded) for raw in _children(notion, page["id"])]
    return SeededPage(spec.key, page["id"], spec.title, list(spec.path), _keys_by_position(read, spec.blocks))


def _titled_page(notion: Client, parent: str, title: str) -> str:
    page = _d(
        notion.pages.create(
            parent={"type": "page_id", "page_id": parent},
            properties={"title": {"title": rich_text(title)}},
        )
    )
    return str(page["id"])


def create_container(notion: Client, parent: str, title: str) -> SeededNotion:
    """The trial's own page under `parent`: trashing it removes everything the trial created."""
    return SeededNotion(_titled_page(notion, parent, title), [])


def _crumb(notion: Client, seeded: SeededNotion, path: tuple[str, ...]) -> str:
    """The page a breadcrumb names, made (with the ones above it) the first time it is needed."""
    if not path:
        return seeded.container_id
    if path not in seeded.crumbs:
        seeded.crumbs[path] = _titled_page(notion, _crumb(notion, seeded, path[:-1]), path[-1])
    return seeded.crumbs[path]


def seed_pages(notion: Client, seeded: SeededNotion, scenario: Scenario) -> None:
    """Every scenario page under its breadcrumb pages inside the container, recorded as each is made."""
    for spec in scenario.pages:
        parent = _crumb(notion, seeded, tuple(spec.path))
        seeded.pages.append(_create_page(notion, parent, spec, seeded))


def _searchable(notion: Client, page: SeededPage) -> bool:
    """Whether search finds the page by its title, on any page of the results."""
    wanted = page.id.replace("-", "")
    cursor: str | None = None
    while True:
        kwargs: dict[str, Any] = {"query": page.title, "filter": {"property": "object", "value": "page"}}
        if cursor:
            kwargs["start_cursor"] = cursor
        found = _d(notion.search(**kwargs))
        if any(str(r.get("id", "")).replace("-", "") == wanted for r in found.get("results") or []):
            return True
        cursor = found.get("next_cursor") if found.get("has_more") else None
        if not cursor:
            return False


def wait_until_searchable(notion: Client, seeded: SeededNotion) -> None:
    """Wait (bounded) until Notion's search finds every seeded page by its title, so an agent that
    starts by searching sees what an agent in the sandbox sees."""
    waiting = list(seeded.pages)

    def all_found() -> bool | None:
        waiting[:] = [page for page in waiting if not _searchable(notion, page)]
        return True if not waiting else None

    try:
        polling.until(all_found, "Notion search to find the seeded pages")
    except InfrastructureError as exc:
        raise InfrastructureError(f"{exc} (still missing: {', '.join(p.title for p in waiting)})") from exc


def _deleted(blocks: list[Block], seeded: dict[str, SeededBlock]) -> list[Block]:
    """Seeded blocks the agent deleted, as archived blocks (as the sandbox keeps them): a deleted
    table row or database row goes back into its table or database; other blocks are returned to
    append to the page."""
    present = {b.id: b for top in blocks for b in top.walk()}
    out = []
    for block_id, seed in seeded.items():
        if block_id in present:
            continue
        gone = seed.block.model_copy(update={"archived": True, "key": seed.key}, deep=True)
        if seed.table is None:
            out.append(gone)
        elif seed.table in present:
            present[seed.table].children.append(gone)
    return out


def snapshot_pages(notion: Client, seeded: SeededNotion) -> list[PageSnapshot]:
    pages = []
    for page in seeded.pages:
        raw = _d(notion.pages.retrieve(page_id=page.id))
        blocks = [to_block(notion, b, page.seeded, seeded) for b in _children(notion, page.id)]
        blocks.extend(_deleted(blocks, page.seeded))
        pages.append(
            PageSnapshot(
                id=page.id,
                key=page.key,
                title=page.title,
                url=str(raw.get("url", "")),
                path=page.path,
                properties=read_properties(raw),
                blocks=blocks,
                archived=bool(raw.get("archived") or raw.get("in_trash")),
            )
        )
    return pages


def seeded_pages(seeded: SeededNotion, scenario: Scenario, final: list[PageSnapshot]) -> list[PageSnapshot]:
    """Each page as it was seeded, for `Outcome.seeded`: the blocks read back right after creation,
    under their scenario keys, and the properties it was created with (its URL is the one it has)."""
    specs = {spec.key: spec for spec in scenario.pages}
    urls = {page.id: page.url for page in final}

    def keyed(page: SeededPage, block: Block) -> Block:
        seed = page.seeded.get(block.id)
        children = [keyed(page, child) for child in block.children]
        return block.model_copy(
            update={"key": seed.key if seed else None, "created_by": "seed", "children": children}
        )

    return [
        PageSnapshot(
            id=page.id,
            key=page.key,
            title=page.title,
            url=urls.get(page.id, ""),
            path=page.path,
            properties=dict(specs[page.key].properties),
            blocks=[keyed(page, seed.block) for seed in page.seeded.values() if seed.table is None],
        )
        for page in seeded.pages
    ]


def archive_page(notion: Client, page_id: str) -> None:
    """Move a page (and everything under it) to the trash; one already gone is fine."""
    try:
        notion.pages.update(page_id=page_id, in_trash=True)
    except APIResponseError as exc:
        if exc.status != 404:
            raise


def list_child_pages(notion: Client, parent: str) -> list[tuple[str, str]]:
    """(id, title) of the pages directly under `parent` (the janitor filters them by name)."""
    return [
        (b["id"], str(b.get("child_page", {}).get("title", "")))
        for b in _children(notion, parent)
        if b.get("type") == "child_page"
    ]
