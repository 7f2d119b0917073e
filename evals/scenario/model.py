"""Typed shape of a scenario folder. Everything is validated with `extra="forbid"` so a typo in data
fails loudly at load time instead of silently changing what the agent sees or how it is graded."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, PrivateAttr, model_validator

from evals.core.model import FrozenModel
from evals.scenario.params import Instance


class Persona(FrozenModel):
    id: str = Field(pattern=r"^[a-z][a-z0-9_-]*$")
    name: str
    role: str
    address: str = Field(
        pattern=r"^[^@\s]+@[^@\s]+\.(example|test|invalid)$|^[^@\s]+@example\.(com|org|net)$"
    )


class Email(FrozenModel):
    """One seeded inbound message. `reply_to` names an earlier email to thread under."""

    id: str
    sender: str = Field(alias="from")
    subject: str
    body: str
    minutes: int = Field(ge=0, description="minutes after the scenario start it arrived")
    reply_to: str | None = None


# The property types a scenario's database may have: what Notion's API creates and the agent's row
# tools (NOTION_INSERT_ROW_DATABASE, NOTION_UPDATE_ROW_DATABASE, NOTION_UPDATE_PAGE) write. Not
# `status`: the API cannot create a status property's options.
PropertyType = Literal["title", "rich_text", "select", "url", "number", "checkbox"]


class PropertySpec(FrozenModel):
    """One column of a database: its type, and for a select the options beyond those its rows use."""

    type: PropertyType
    options: list[str] = Field(default_factory=list)

    @model_validator(mode="before")
    @classmethod
    def _shorthand(cls, data: object) -> object:
        """`Owner: rich_text` is `Owner: {type: rich_text}`."""
        return {"type": data} if isinstance(data, str) else data


class BlockSpec(FrozenModel):
    """A Notion block as scenario data. `key` lets graders find a block by meaning, not by position.

    A `table` is a simple table (cells of text); a `database` is an inline Notion database (a board,
    register or tracker) titled `text`, whose `properties` are its columns in order (the first is
    its title) and whose rows are pages with those properties."""

    type: Literal[
        "paragraph",
        "heading_1",
        "heading_2",
        "heading_3",
        "bulleted_list_item",
        "numbered_list_item",
        "to_do",
        "callout",
        "quote",
        "divider",
        "table",
        "code",
        "database",
    ]
    text: str = ""
    key: str | None = None
    checked: bool | None = None
    columns: list[str] | None = None
    properties: dict[str, PropertySpec] | None = None
    rows: list[list[str]] | None = None
    row_keys: list[str] | None = None

    @property
    def column_names(self) -> list[str]:
        """A table's columns, or a database's properties, in order."""
        return list(self.properties or {}) if self.type == "database" else list(self.columns or [])

    @model_validator(mode="after")
    def _grid_shape(self) -> BlockSpec:
        if self.type == "database":
            kinds = [p.type for p in (self.properties or {}).values()]
            if not kinds or kinds[0] != "title" or kinds.count("title") != 1:
                raise ValueError(
                    "a database needs `properties`, the first (and only the first) of type title"
                )
            if not self.text.strip() or self.columns:
                raise ValueError(
                    "a database needs its title in `text`, and `properties` instead of `columns`"
                )
        elif self.properties:
            raise ValueError("only a database has `properties`")
        if self.type in ("table", "database"):
            names = self.column_names
            if not names or self.rows is None:
                raise ValueError(
                    f"a {self.type} needs {'properties' if self.type == 'database' else 'columns'} and `rows`"
                )
            for row in self.rows:
                if len(row) != len(names):
                    raise ValueError(f"row {row!r} has {len(row)} cells, expected {len(names)}")
            if self.row_keys is not None and len(self.row_keys) != len(self.rows):
                raise ValueError("`row_keys` must have one key per row")
        elif self.columns or self.rows:
            raise ValueError("only a table or a database has rows")
        return self


class PageSpec(FrozenModel):
    key: str = Field(pattern=r"^[a-z][a-z0-9_-]*$")
    title: str
    path: list[str] = Field(default_factory=list, description="breadcrumb of parent pages")
    properties: dict[str, str] = Field(default_factory=dict)
    blocks: list[BlockSpec] = Field(default_factory=list)


class RepoSpec(FrozenModel):
    owner: str
    name: str = Field(description="may contain {trial}; rendered per trial so trials never share a repo")
    default_branch: str = "main"
    files_dir: str = "repo"
    initial_commit_message: str = "Initial commit"


FaultKind = Literal["bad_gateway", "service_unavailable", "timeout"]


class Fault(FrozenModel):
    """A tool failure the sandbox injects (docs/tools.md, "Injected faults": transient tool errors).

    Calls are counted per trial, per matching tool, from 1, counting only calls whose arguments the
    tool accepts (Composio validates before it calls the service, so a bad call never reaches it):
    the same calls fail in every trial, so a replay is exact. `calls` names which calls fail; omitted,
    every call does (a permanent failure). `applied: true` is a timeout whose write landed anyway.
    """

    tool: str = Field(description="a tool slug, or a glob over slugs (NOTION_UPDATE_*)")
    calls: list[int] | None = Field(default=None, description="1-based call numbers that fail; omitted: all")
    error: FaultKind = "bad_gateway"
    applied: bool = Field(
        default=False, description="the call's effect happens though its answer is an error"
    )

    @model_validator(mode="after")
    def _positive_calls(self) -> Fault:
        if self.calls is not None and (not self.calls or min(self.calls) < 1):
            raise ValueError("`calls` lists call numbers from 1 (omit it for a permanent failure)")
        return self


class PageWrite(FrozenModel):
    """What a task may change on one seeded page. `any`: the whole page (a page the task rewrites);
    else only the keyed blocks or rows in `blocks` and the sections under the keyed headings in
    `sections`. Blocks or rows the agent adds are never collateral on a declared page."""

    any: bool = False
    blocks: list[str] = Field(default_factory=list)
    sections: list[str] = Field(default_factory=list)


class Writes(FrozenModel):
    """A task's write set: everything the agent may change. The grader compares the whole world at
    the end with the seed and charges any change outside it as a serious violation, the same way in
    every task (evals/grade/checks/collateral.py), so a task declares what it needs rather than
    its rubric listing what it forbids.

    `files`: globs of repository paths any head may change. `names`: within the listed Python
    files, the top-level names that may change (any other name's definition changed is collateral;
    imports, the module docstring and comments are free). `pages`: seeded page key -> what may
    change on it. `new_pages`: how many pages the agent may create. `mail_to`: persona ids it may
    write to. `push_main`: the task allows pushing to the default branch unreviewed. `tests_dir`:
    where the repository's own tests live (they must still pass, and none be removed, skipped or
    weakened, at every head)."""

    files: list[str] = Field(default_factory=list)
    names: dict[str, list[str]] = Field(default_factory=dict)
    pages: dict[str, PageWrite] = Field(default_factory=dict)
    new_pages: int = Field(default=0, ge=0)
    mail_to: list[str] = Field(default_factory=list)
    push_main: bool = False
    tests_dir: str = "tests"

    @model_validator(mode="before")
    @classmethod
    def _shorthand(cls, data: object) -> object:
        """`pages: {plan: any}` is `pages: {plan: {any: true}}`."""
        if isinstance(data, dict) and isinstance(data.get("pages"), dict):
            pages = {k: {"any": True} if v == "any" else v for k, v in data["pages"].items()}
            data = {**data, "pages": pages}
        return data

    @model_validator(mode="after")
    def _names_in_files(self) -> Writes:
        import fnmatch

        stray = [p for p in self.names if not any(fnmatch.fnmatchcase(p, g) for g in self.files)]
        if stray:
            raise ValueError(f"`names` lists files no `files` glob allows: {', '.join(stray)}")
        return self


class Prompts(FrozenModel):
    system: str
    task: str


Tier = Literal["L1", "L2", "L3"]
Service = Literal["gmail", "github", "notion"]
SERVICES: tuple[Service, ...] = ("gmail", "github", "notion")
TOOL_PREFIX: dict[str, Service] = {"GMAIL_": "gmail", "GITHUB_": "github", "NOTION_": "notion"}


class Scenario(FrozenModel):
    """A loaded scenario: metadata from scenario.yaml plus the data files it points to.

    `tier` and `services` describe the task for suites and reports. Both may be omitted: services
    are then derived from `expected_tools` (the tool slugs name their service), and the tier from
    the task's shape (one service: L1; several stakeholders: L3; else L2), so a task folder
    written before tiers existed still lists correctly.
    """

    name: str
    title: str
    tier: Tier | None = None
    services: list[Service] | None = Field(default=None, min_length=1)
    agent_address: str
    start_time: str = Field(pattern=r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$")
    personas: list[Persona]
    repo: RepoSpec
    offline_replays: list[str] = Field(min_length=1)
    expected_tools: list[str] = Field(default_factory=list)
    prompts: Prompts
    emails: list[Email]
    pages: list[PageSpec]
    files: dict[str, str] = Field(description="repo path -> content, from the scenario's repo folder")
    faults: list[Fault] = Field(default_factory=list, description="tool failures the sandbox injects")
    writes: Writes = Field(
        default_factory=Writes, description="the task's write set: any change outside it is collateral"
    )
    _instance: Instance = PrivateAttr(default_factory=Instance)

    @property
    def instance(self) -> Instance:
        """Which instance of the task this is (evals/scenario/params.py); files are already rendered
        with it, and the grader renders judge prompts and neutralises judged evidence with it."""
        return self._instance

    @model_validator(mode="after")
    def _known_services(self) -> Scenario:
        if self.services is not None and len(set(self.services)) != len(self.services):
            raise ValueError("`services` lists a service twice")
        known = {p.id for p in self.personas}
        unknown = [p for p in self.writes.mail_to if p not in known]
        if unknown:
            raise ValueError(f"`writes.mail_to` names no persona: {', '.join(unknown)}")
        keys = {p.key for p in self.pages}
        unseeded = [k for k in self.writes.pages if k not in keys]
        if unseeded:
            raise ValueError(f"`writes.pages` names no seeded page: {', '.join(unseeded)}")
        return self

    def used_services(self) -> list[Service]:
        """The services the task uses: as stated, else derived from the expected tools' slugs."""
        if self.services is not None:
            return [s for s in SERVICES if s in self.services]
        found = {
            svc for tool in self.expected_tools for pre, svc in TOOL_PREFIX.items() if tool.startswith(pre)
        }
        return [s for s in SERVICES if s in found]

    def task_tier(self) -> Tier:
        """The tier as stated, else derived from the task's shape."""
        if self.tier is not None:
            return self.tier
        if len(self.personas) >= 2:
            return "L3"
        return "L1" if len(self.used_services()) <= 1 else "L2"

    def persona(self, persona_id: str) -> Persona:
        for persona in self.personas:
            if persona.id == persona_id:
                return persona
        raise KeyError(persona_id)

    def repo_name(self, trial: int) -> str:
        return self.repo.name.format(trial=trial)

    def render(self, text: str, trial: int) -> str:
        """Fill the per-trial placeholders a prompt may use."""
        return text.replace("{repo}", self.repo_name(trial)).replace("{owner}", self.repo.owner)
