"""`seed(scenario, trial) -> World`: the fresh, isolated starting state of one trial.

Pure function of its inputs; no LLM, no randomness. The live backend (see evals/world/live) seeds real
services from the same scenario data so both worlds start from the same facts.
"""

from __future__ import annotations

from evals.scenario.model import BlockSpec, Scenario
from evals.world.outcome import HEADER_KEY, Block
from evals.world.sandbox.git import add_commit
from evals.world.sandbox.model import Column, Database, Mailbox, Message, Notion, Page, Repo, World
from evals.world.sandbox.tools.notion_tree import database_block, node


def seed(scenario: Scenario, trial: int) -> World:
    world = World(
        scenario=scenario.name,
        trial=trial,
        start_time=scenario.start_time,
        agent_address=scenario.agent_address,
        mailbox=Mailbox(owner=scenario.agent_address),
    )
    _seed_mail(world, scenario)
    _seed_repo(world, scenario, trial)
    world.notion = Notion()
    _seed_notion(world, scenario)
    world.clock = max((e.minutes for e in scenario.emails), default=0) + 5
    return world


def _seed_mail(world: World, scenario: Scenario) -> None:
    threads: dict[str, str] = {}
    for email in scenario.emails:
        message_id = world.make_id("message", email.id)
        thread_id = threads[email.reply_to] if email.reply_to else world.make_id("thread", email.id)
        threads[email.id] = thread_id
        world.mailbox.messages.append(
            Message(
                id=message_id,
                thread_id=thread_id,
                sender=scenario.persona(email.sender).address,
                to=[scenario.agent_address],
                subject=email.subject,
                body=email.body,
                labels=["INBOX", "UNREAD"],
                timestamp=world.at(email.minutes),
                in_reply_to=world.make_id("message", email.reply_to) if email.reply_to else None,
                seed_id=email.id,
            )
        )


def _seed_repo(world: World, scenario: Scenario, trial: int) -> None:
    spec = scenario.repo
    repo = Repo(owner=spec.owner, name=scenario.repo_name(trial), default_branch=spec.default_branch)
    commit = add_commit(
        repo,
        [],
        scenario.files,
        spec.initial_commit_message,
        author=f"{spec.owner}-bot",
        timestamp=world.at(0),
    )
    repo.branches[spec.default_branch] = commit.sha
    repo.seed_commit = commit.sha
    world.repos[repo.name.lower()] = repo


def _seed_notion(world: World, scenario: Scenario) -> None:
    """The scenario's pages, then the rows of their boards; a page with properties becomes the one
    row of a full-page database in the page above it, as a page can have properties only as a row
    (the live world builds the same)."""
    stamp = world.at(0)
    pages: list[Page] = []
    rows: list[Page] = []
    for spec in scenario.pages:
        page = Page(
            id=world.make_uuid("page", spec.key),
            key=spec.key,
            title=spec.title,
            path=list(spec.path),
            properties=dict(spec.properties),
            last_edited=stamp,
        )
        for index, block in enumerate(spec.blocks):
            if block.type == "database":
                page.blocks.append(_seed_database(world, page, index, block, rows, stamp))
            else:
                page.blocks.append(_seed_block(world, spec.key, index, block, stamp))
        pages.append(page)
    world.notion.pages = [*pages, *rows]
    for spec, page in zip(scenario.pages, pages, strict=True):
        if spec.properties:
            above = node(world, tuple(spec.path)) if spec.path else None
            database = Database(
                id=world.make_uuid("page-database", spec.key),
                data_source_id=world.make_uuid("page-data-source", spec.key),
                title=spec.title,
                page=above.id if above is not None else "",
                inline=False,
                columns=[Column(name="title", type="title")]
                + [Column(name=name, type="rich_text") for name in spec.properties],
                last_edited=stamp,
            )
            world.notion.databases.append(database)
            page.database = database.id


def _seed_database(
    world: World, page: Page, index: int, spec: BlockSpec, rows: list[Page], stamp: str
) -> Block:
    """A board: the database (one data source, its columns) and its rows, as pages; returns the
    `child_database` block that places it among the page's blocks."""
    names = spec.column_names
    columns = []
    for position, (name, prop) in enumerate((spec.properties or {}).items()):
        options = list(prop.options)
        if prop.type == "select":
            options += [r[position] for r in spec.rows or [] if r[position] and r[position] not in options]
            options = list(dict.fromkeys(options))
        columns.append(Column(name=name, type=prop.type, options=options))
    database = Database(
        id=world.make_uuid("database", page.key, index),
        data_source_id=world.make_uuid("data-source", page.key, index),
        key=spec.key,
        title=spec.text,
        page=page.id,
        columns=columns,
        last_edited=stamp,
    )
    world.notion.databases.append(database)
    for row_index, cells in enumerate(spec.rows or []):
        rows.append(
            Page(
                id=world.make_uuid("row", page.key, index, row_index),
                key=spec.row_keys[row_index] if spec.row_keys else None,
                title=cells[0],
                properties=dict(zip(names[1:], cells[1:], strict=True)),
                database=database.id,
                last_edited=stamp,
            )
        )
    return database_block(world, database)


def _seed_block(world: World, page_key: str, index: int, spec: BlockSpec, stamp: str) -> Block:
    block_id = world.make_uuid("block", page_key, index)
    if spec.type != "table":
        return Block(
            id=block_id, type=spec.type, text=spec.text, key=spec.key, checked=spec.checked, last_edited=stamp
        )
    header = Block(
        id=world.make_uuid("block", page_key, index, "header"),
        type="table_row",
        cells=list(spec.columns or []),
        key=HEADER_KEY,
        last_edited=stamp,
    )
    rows = [
        Block(
            id=world.make_uuid("block", page_key, index, row_index),
            type="table_row",
            cells=list(cells),
            key=spec.row_keys[row_index] if spec.row_keys else None,
            last_edited=stamp,
        )
        for row_index, cells in enumerate(spec.rows or [])
    ]
    return Block(
        id=block_id, type="table", text=spec.text, key=spec.key, children=[header, *rows], last_edited=stamp
    )
