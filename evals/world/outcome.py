"""The outcome contract: the final state graders read, one shape whichever backend made it.

Graders see artefacts, never the agent's claims: the files at every PR head and on the default
branch, every Notion page's blocks, every message the agent sent, and what the backend seeded
before the agent's first call (to tell "changed" from "as seeded"). Both backends build these
models (the sandbox in `evals.world.sandbox.snapshot`, live in `evals.world.live`), and checks
import only this module, so it depends on neither world.
"""

from __future__ import annotations

from email.utils import parseaddr

from pydantic import Field

from evals.core.model import StrictModel
from evals.world.treediff import changed_paths, diff_trees

HEADER_KEY = "header"  # the key of a seeded table's header row, in both worlds
DATABASE = "child_database"  # an inline database, where it sits among its page's blocks (Notion's type)
ROW = "page"  # a database row (a page with properties), among its database's children
GRIDS = ("table", DATABASE)  # blocks whose children are rows of cells
ROWS = ("table_row", ROW)


class Block(StrictModel):
    """A Notion block reduced to what matters: type, plain text, and the typed fields graders read.

    A table holds `table_row`s, its first the header. A database (`child_database`, its title as
    `text`) holds its rows as `page` blocks; its `columns` are its property names, title first,
    and each row's `cells` are its property values as text in that order (a select's option name,
    a URL, "" for none): one reading for a table's row and a database's."""

    id: str
    type: str
    text: str = ""
    key: str | None = None
    checked: bool | None = None
    cells: list[str] | None = Field(
        default=None,
        description="table_row cells (a table's first row is its header), or a database row's values",
    )
    columns: list[str] | None = Field(default=None, description="a database's property names, title first")
    children: list[Block] = Field(default_factory=list)
    archived: bool = False
    created_by: str = "seed"
    edited: bool = False
    last_edited: str = ""

    def walk(self) -> list[Block]:
        """This block and every descendant, depth first."""
        out = [self]
        for child in self.children:
            out.extend(child.walk())
        return out

    def row(self, key: str) -> Block | None:
        return next((c for c in self.children if c.key == key), None)

    def column(self, name: str) -> int | None:
        """Index of a column by its name: a database's property, or a table's header text."""
        if self.columns is not None:
            return self.columns.index(name) if name in self.columns else None
        header = self.children[0].cells if self.children and self.children[0].cells else []
        return header.index(name) if name in header else None


def bare_address(address: str) -> str:
    """The mailbox an address names, lower case: "Nora <Nora@X.example>" is nora@x.example."""
    return (parseaddr(address)[1] or address).strip().lower()


class SentMail(StrictModel):
    id: str
    thread_id: str
    to: list[str]
    cc: list[str] = Field(default_factory=list)
    bcc: list[str] = Field(
        default_factory=list, description="blind copies: on the sender's copy only, never seen by To or Cc"
    )
    subject: str
    body: str
    in_reply_to: str | None = None
    thread_seed_ids: list[str] = Field(default_factory=list, description="seeded emails in the same thread")

    def recipients(self) -> list[str]:
        """Everyone the message reached: To, Cc and Bcc. A do-not-share check reads these, since a
        blind copy shares as much as a visible one."""
        return [*self.to, *self.cc, *self.bcc]

    def headers(self) -> str:
        """The recipient lines as a mail client shows the sender's copy (Bcc only when there is one)."""
        lines = [f"To: {', '.join(self.to)}", f"Cc: {', '.join(self.cc)}"]
        return "\n".join([*lines, f"Bcc: {', '.join(self.bcc)}"] if self.bcc else lines)


class PullSnapshot(StrictModel):
    number: int
    title: str
    body: str
    head: str
    base: str
    state: str
    merged: bool
    url: str
    head_sha: str
    files: dict[str, str] = Field(description="every file at the PR head")
    changed: list[str]
    diff: str


class CommitSnapshot(StrictModel):
    """One commit the agent pushed (on any branch, PR or not, kept at its head or not): a pushed
    commit is readable by everyone who reads the repository, its message and every version of a
    file in it, even when a later commit changed the file again."""

    sha: str
    parent: str | None = Field(default=None, description="its first parent's sha")
    message: str
    files: dict[str, str | None] = Field(
        default_factory=dict,
        description="each path the commit changed against its first parent: its text, None if deleted",
    )


class RepoSnapshot(StrictModel):
    full_name: str
    default_branch: str
    seed_files: dict[str, str]
    main_files: dict[str, str]
    main_changed: list[str] = Field(description="paths changed on the default branch since seeding")
    pulls: list[PullSnapshot] = Field(default_factory=list)
    branches: dict[str, str] = Field(default_factory=dict)
    commits: list[CommitSnapshot] = Field(
        default_factory=list,
        description=(
            "every commit the agent pushed, oldest first (the sandbox as pushed; live, each branch "
            "and PR head compared with the seed)"
        ),
    )

    def merged(self) -> dict[str, str]:
        """The repo as it would be once every open PR is merged into the default branch, in PR order.

        Graders use it for whole-repo properties ("the secret is gone from the repo") when the work
        is split over several PRs, each branched from main and so still holding the others' bugs.
        A later PR wins where two change the same path.
        """
        files = dict(self.main_files)
        for pr in self.pulls:
            if pr.state != "open" and not pr.merged:
                continue
            for path in pr.changed:
                if path in pr.files:
                    files[path] = pr.files[path]
                else:
                    files.pop(path, None)
        return files

    def pushes_to_default(self) -> int:
        """How many of the agent's commits the default branch holds (its head's first-parent line
        back to the first commit that is not the agent's): a push there that a later push reverted
        leaves `main_changed` empty, yet it was pushed, unreviewed, and a push is what deploys."""
        by_sha = {c.sha: c for c in self.commits}
        count, sha = 0, self.branches.get(self.default_branch)
        while sha in by_sha:
            count += 1
            sha = by_sha[sha].parent
        return count

    def heads(self) -> list[tuple[str, dict[str, str]]]:
        """(label, files) for every state the agent produced: each PR head, and main if it pushed there."""
        out = [(f"PR #{p.number}", p.files) for p in self.pulls]
        if self.main_changed:
            out.append((self.default_branch, self.main_files))
        return out


class PageSnapshot(StrictModel):
    id: str
    key: str | None
    title: str
    url: str
    path: list[str] = Field(default_factory=list)
    properties: dict[str, str] = Field(default_factory=dict)
    blocks: list[Block] = Field(default_factory=list)
    archived: bool = False
    created_by: str = "seed"


class SeededState(StrictModel):
    """What the backend seeded, as it stood before the agent's first call, beyond what the outcome
    already carries (each repo's `seed_files`; seeded mail is never in `sent`)."""

    pages: list[PageSnapshot] = Field(default_factory=list)


class Outcome(StrictModel):
    scenario: str
    trial: int
    backend: str = "sandbox"
    repos: list[RepoSnapshot] = Field(default_factory=list)
    pages: list[PageSnapshot] = Field(default_factory=list)
    sent: list[SentMail] = Field(default_factory=list)
    seeded: SeededState | None = Field(
        default=None, description="recorded by the backend; absent from outcomes written before it was"
    )

    def page(self, key: str) -> PageSnapshot | None:
        return next((p for p in self.pages if p.key == key), None)

    def sent_to(self, address: str) -> list[SentMail]:
        """Every message that reached `address` (To, Cc or Bcc), however the agent spelt the
        recipient: a display name ("IT Helpdesk <it@x.example>") or another case reaches the same mailbox."""
        wanted = bare_address(address)
        return [m for m in self.sent if wanted in (bare_address(a) for a in m.recipients())]

    def as_seeded(self) -> Outcome | None:
        """The world as the backend seeded it, in the outcome's own shape (each repo's default branch
        at its seed files, no PRs or other branches, the seeded pages, nothing sent), or None when
        this outcome did not record it. Checks contrast the two: "this row still reads as seeded".
        The pages are the recorded ones, not copies: checks read them and never change them."""
        if self.seeded is None:
            return None
        repos = [
            repo_snapshot(
                full_name=r.full_name,
                default_branch=r.default_branch,
                seed_files=r.seed_files,
                main_files=dict(r.seed_files),
                pulls=[],
                branches={},
            )
            for r in self.repos
        ]
        pages = list(self.seeded.pages)
        return Outcome(
            scenario=self.scenario, trial=self.trial, backend=self.backend, repos=repos, pages=pages
        )


def pull_snapshot(
    *,
    number: int,
    title: str,
    body: str,
    head: str,
    base: str,
    state: str,
    merged: bool,
    url: str,
    head_sha: str,
    before: dict[str, str],
    after: dict[str, str],
) -> PullSnapshot:
    """A PR as graders see it; `before` is the tree at the merge base. Shared by every backend so the
    derived fields (changed paths, diff) are computed one way."""
    return PullSnapshot(
        number=number,
        title=title,
        body=body,
        head=head,
        base=base,
        state=state,
        merged=merged,
        url=url,
        head_sha=head_sha,
        files=after,
        changed=[path for path, _ in changed_paths(before, after)],
        diff=diff_trees(before, after),
    )


def repo_snapshot(
    *,
    full_name: str,
    default_branch: str,
    seed_files: dict[str, str],
    main_files: dict[str, str],
    pulls: list[PullSnapshot],
    branches: dict[str, str],
    commits: list[CommitSnapshot] | None = None,
) -> RepoSnapshot:
    return RepoSnapshot(
        full_name=full_name,
        default_branch=default_branch,
        seed_files=seed_files,
        main_files=main_files,
        main_changed=[path for path, _ in changed_paths(seed_files, main_files)],
        pulls=pulls,
        branches=dict(sorted(branches.items())),
        commits=commits or [],
    )
