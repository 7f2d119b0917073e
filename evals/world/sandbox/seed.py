"""`seed(scenario, trial) -> World`: the fresh, isolated starting state of one trial.

Pure function of its inputs; no LLM, no randomness. The live backend (see evals/world/live) seeds real
services from the same scenario data so both worlds start from the same facts.
"""

from __future__ import annotations

from evals.scenario.model import BlockSpec, PageSpec, Scenario
from evals.world.outcome import HEADER_KEY, Block
from evals.world.sandbox.git import add_commit
from evals.world.sandbox.model import Mailbox, Message, Notion, Page, Repo, World


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
    world.notion = Notion(pages=[_seed_page(world, spec) for spec in scenario.pages])
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


def _seed_page(world: World, spec: PageSpec) -> Page:
    stamp = world.at(0)
    blocks = [_seed_block(world, spec.key, index, block, stamp) for index, block in enumerate(spec.blocks)]
    return Page(
        id=world.make_uuid("page", spec.key),
        key=spec.key,
        title=spec.title,
        path=list(spec.path),
        properties=dict(spec.properties),
        blocks=blocks,
        last_edited=stamp,
    )


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
