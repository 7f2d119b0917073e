"""The world's state as typed data (the tau2 idea: the environment is a database).

Nothing here is random or read from the wall clock: ids and timestamps derive from the scenario,
the trial number and a logical clock that ticks once per mutation, so the same calls against the
same seed give byte-identical snapshots. Notion blocks are stored as the outcome contract's `Block`
(`evals.world.outcome`), the shape graders read, so a page snapshot is the page's blocks as they are.
"""

from __future__ import annotations

import hashlib
import uuid
from datetime import datetime, timedelta

from pydantic import Field

from evals.core.model import StrictModel
from evals.world.outcome import Block

ID_NAMESPACE = uuid.UUID("8f6a2d0e-5b1c-4c3e-9a7d-2f1e0b9c8d7a")


class Message(StrictModel):
    id: str
    thread_id: str
    sender: str
    to: list[str]
    cc: list[str] = Field(default_factory=list)
    bcc: list[str] = Field(default_factory=list, description="sent mail only: the sender's copy keeps Bcc")
    subject: str
    body: str
    labels: list[str]
    timestamp: str
    in_reply_to: str | None = None
    seed_id: str | None = Field(default=None, description="scenario email id, for seeded mail")


class Mailbox(StrictModel):
    owner: str
    messages: list[Message] = Field(default_factory=list)


class Commit(StrictModel):
    sha: str
    parents: list[str]
    message: str
    tree: dict[str, str] = Field(description="path -> blob sha")
    author: str
    timestamp: str


class PullRequest(StrictModel):
    number: int
    title: str
    body: str
    head: str
    base: str
    state: str = "open"
    merged: bool = False
    created_at: str


class Repo(StrictModel):
    owner: str
    name: str
    default_branch: str
    blobs: dict[str, str] = Field(default_factory=dict, description="blob sha -> text")
    commits: dict[str, Commit] = Field(default_factory=dict)
    branches: dict[str, str] = Field(default_factory=dict, description="branch -> commit sha")
    pulls: list[PullRequest] = Field(default_factory=list)
    seed_commit: str = ""

    @property
    def full_name(self) -> str:
        return f"{self.owner}/{self.name}"


class Page(StrictModel):
    """A page. A database row is a page too: `database` names its database, `key` its row key, and
    its `properties` are its values (text: a select's option name, a URL, a number as written; ""
    for none) for every column but the title, which is `title`."""

    id: str
    key: str | None = None
    title: str
    path: list[str] = Field(default_factory=list)
    properties: dict[str, str] = Field(default_factory=dict)
    blocks: list[Block] = Field(default_factory=list)
    archived: bool = False
    created_by: str = "seed"
    last_edited: str = ""
    database: str | None = Field(default=None, description="a row: the id of its database")
    edited: bool = False

    def walk(self) -> list[Block]:
        return [b for block in self.blocks for b in block.walk()]

    def block(self, key: str) -> Block | None:
        return next((b for b in self.walk() if b.key == key), None)

    @property
    def url(self) -> str:
        slug = "-".join(self.title.split())
        return f"https://www.notion.so/{slug}-{self.id.replace('-', '')}"


class Column(StrictModel):
    """A database property (a column): its name, type and, for a select, its options."""

    name: str
    type: str
    options: list[str] = Field(default_factory=list)


class Database(StrictModel):
    """A Notion database with its one data source (Notion API 2025-09-03: the data source holds the
    schema and the rows). It sits in `page` (a page's id, breadcrumb pages included) as the
    `child_database` block of the same id; its rows are the pages whose `database` is its id.
    `columns` are in order, the title first."""

    id: str
    data_source_id: str
    key: str | None = None
    title: str
    page: str = Field(description="the page it sits in; empty: the workspace")
    inline: bool = Field(
        default=True,
        description="a board inside its page's blocks; false: a full-page database, listed after the "
        "blocks of the page above it (the one-row database a page with properties is a row of)",
    )
    columns: list[Column]
    archived: bool = False
    created_by: str = "seed"
    last_edited: str = ""

    @property
    def title_column(self) -> str:
        return self.columns[0].name

    def column(self, name: str) -> Column | None:
        return next((c for c in self.columns if c.name == name), None)


class Notion(StrictModel):
    workspace: str = "Acme Internal Knowledge Base"
    pages: list[Page] = Field(default_factory=list)
    databases: list[Database] = Field(default_factory=list)

    def rows(self, database: str) -> list[Page]:
        return [p for p in self.pages if p.database == database]


class World(StrictModel):
    scenario: str
    trial: int
    start_time: str
    clock: int = 0
    agent_address: str
    mailbox: Mailbox
    repos: dict[str, Repo] = Field(default_factory=dict)
    notion: Notion = Field(default_factory=Notion)

    def tick(self) -> str:
        """Advance the logical clock one step and return its ISO timestamp."""
        self.clock += 1
        return self.at(self.clock)

    def at(self, minutes: int) -> str:
        start = datetime.strptime(self.start_time, "%Y-%m-%dT%H:%M:%SZ")
        return (start + timedelta(minutes=minutes)).strftime("%Y-%m-%dT%H:%M:%SZ")

    def make_id(self, kind: str, *parts: object) -> str:
        """A hex id derived from the scenario, trial, kind and the given parts."""
        text = ":".join([self.scenario, str(self.trial), kind, *map(str, parts)])
        return hashlib.sha1(text.encode()).hexdigest()[:16]

    def make_uuid(self, kind: str, *parts: object) -> str:
        return str(
            uuid.uuid5(ID_NAMESPACE, ":".join([self.scenario, str(self.trial), kind, *map(str, parts)]))
        )

    def repo(self, owner: str, name: str) -> Repo | None:
        repo = self.repos.get(name.lower())
        if repo is None or repo.owner.lower() != owner.lower():
            return None
        return repo
