"""A trial's Notion pages through notion-client: create them fresh, read them back, archive them.

Each trial gets one container page under the configured parent, named like the trial's repo, and
inside it the scenario's pages under their breadcrumb pages ("Engineering" > "Infrastructure" >
the spec), as the sandbox has them, so a search for a breadcrumb finds a page in both worlds.
Seeded blocks are mapped to scenario keys by position right after creation (block ids are
Notion's, not ours), so the snapshot gives graders the same `key`s as the sandbox and tells seeded
blocks from ones the agent added. Notion indexes new pages for search asynchronously: setup waits
until search finds every seeded page.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from notion_client import Client
from notion_client.errors import APIResponseError

from evals.core.errors import InfrastructureError
from evals.scenario.model import BlockSpec, PageSpec, Scenario
from evals.world.live import polling
from evals.world.outcome import HEADER_KEY, Block, PageSnapshot

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
    table: str | None = None  # a table row's table


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
    # The one-row databases (and their data sources) made for pages with properties: the harness's
    # scaffolding, which the sandbox does not have, so the agent's searches do not show them.
    databases: set[str] = field(default_factory=set)


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


def to_block(notion: Client, raw: dict[str, Any], keys: dict[str, SeededBlock]) -> Block:
    """A Notion block object as the sandbox Block graders read; tables read their rows too."""
    kind = str(raw["type"])
    body = raw.get(kind) or {}
    seed = keys.get(raw["id"])
    block = Block(
        id=raw["id"],
        type=kind,
        text=plain(body.get("rich_text", [])),
        key=seed.key if seed else None,
        checked=body.get("checked") if kind == "to_do" else None,
        cells=[plain(c) for c in body["cells"]] if kind == "table_row" else None,
        archived=bool(raw.get("archived") or raw.get("in_trash")),
        created_by="seed" if seed else "agent",
        last_edited=str(raw.get("last_edited_time", "")),
    )
    if kind == "table" or (raw.get("has_children") and kind != "child_page"):
        block.children = [to_block(notion, child, keys) for child in _children(notion, raw["id"])]
    if seed is not None:
        before = seed.block
        block.edited = (block.text, block.checked, block.cells) != (before.text, before.checked, before.cells)
    return block


def _keys_by_position(blocks: list[Block], specs: list[BlockSpec]) -> dict[str, SeededBlock]:
    """Pair the blocks read back after creation with the specs they were created from."""
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
    return out


def _page_parent(notion: Client, container: str, spec: PageSpec, databases: set[str]) -> dict[str, str]:
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
    databases.update({str(database["id"]), source})
    return {"type": "data_source_id", "data_source_id": source}


def read_properties(raw: dict[str, Any]) -> dict[str, str]:
    """A page's text properties (the title is the page's title, not a property, as in the sandbox)."""
    out = {}
    for name, prop in (raw.get("properties") or {}).items():
        if isinstance(prop, dict) and prop.get("type") == "rich_text":
            out[name] = plain(prop.get("rich_text") or [])
    return out


def _create_page(notion: Client, container: str, spec: PageSpec, databases: set[str]) -> SeededPage:
    bodies = [block_body(b) for b in spec.blocks]
    properties: dict[str, Any] = {"title": {"title": rich_text(spec.title)}}
    properties.update({name: {"rich_text": rich_text(value)} for name, value in spec.properties.items()})
    page = _d(
        notion.pages.create(
            parent=_page_parent(notion, container, spec, databases),
            properties=properties,
            children=bodies[:MAX_CHILDREN],
        )
    )
    for start in range(MAX_CHILDREN, len(bodies), MAX_CHILDREN):
        notion.blocks.children.append(block_id=page["id"], children=bodies[start : start + MAX_CHILDREN])
    read = [to_block(notion, raw, {}) for raw in _children(notion, page["id"])]
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
        seeded.pages.append(_create_page(notion, parent, spec, seeded.databases))


def _searchable(notion: Client, page: SeededPage) -> bool:
    found = _d(notion.search(query=page.title, filter={"property": "object", "value": "page"}))
    wanted = page.id.replace("-", "")
    return any(str(r.get("id", "")).replace("-", "") == wanted for r in found.get("results") or [])


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
    table row goes back into its table; other blocks are returned to append to the page."""
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
        blocks = [to_block(notion, b, page.seeded) for b in _children(notion, page.id)]
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
