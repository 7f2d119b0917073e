"""Snapshot a sandbox World into the outcome contract (`evals.world.outcome`) graders read.

The live backend builds the same models from real services (`evals.world.live`); this is the sandbox's
side: the repo at every PR head, the Notion pages, the mail the agent sent, and (recorded when the
trial's world is created) what was seeded.
"""

from __future__ import annotations

from evals.world.outcome import (
    DATABASE,
    ROW,
    Block,
    CommitSnapshot,
    Outcome,
    PageSnapshot,
    RepoSnapshot,
    SeededState,
    SentMail,
    pull_snapshot,
    repo_snapshot,
)
from evals.world.sandbox.git import files_at, history, merge_base, resolve
from evals.world.sandbox.model import Repo, World
from evals.world.sandbox.tools.notion_tree import placed_pages


def _pull_url(repo: Repo, number: int) -> str:
    return f"https://github.com/{repo.full_name}/pull/{number}"


def snapshot_repo(repo: Repo) -> RepoSnapshot:
    pulls = []
    for pr in repo.pulls:
        head = resolve(repo, pr.head)
        base = merge_base(repo, resolve(repo, pr.base), head)
        pulls.append(
            pull_snapshot(
                number=pr.number,
                title=pr.title,
                body=pr.body,
                head=pr.head,
                base=pr.base,
                state=pr.state,
                merged=pr.merged,
                url=_pull_url(repo, pr.number),
                head_sha=head.sha,
                before=files_at(repo, base),
                after=files_at(repo, head),
            )
        )
    return repo_snapshot(
        full_name=repo.full_name,
        default_branch=repo.default_branch,
        seed_files=files_at(repo, repo.commits[repo.seed_commit]),
        main_files=files_at(repo, resolve(repo, repo.default_branch)),
        pulls=pulls,
        branches=repo.branches,
        commits=pushed_commits(repo),
    )


def pushed_commits(repo: Repo) -> list[CommitSnapshot]:
    """The agent's commits (every commit not in the seed's history), oldest first, each with the
    files it changed against its first parent: what a reader of the remote's history sees."""
    seeded = {c.sha for c in history(repo, repo.commits[repo.seed_commit])}
    out = []
    for commit in sorted(repo.commits.values(), key=lambda c: (c.timestamp, c.sha)):
        if commit.sha in seeded:
            continue
        before = repo.commits[commit.parents[0]].tree if commit.parents else {}
        changed = {
            path: (repo.blobs[commit.tree[path]] if path in commit.tree else None)
            for path in sorted(set(before) | set(commit.tree))
            if before.get(path) != commit.tree.get(path)
        }
        parent = commit.parents[0] if commit.parents else None
        out.append(CommitSnapshot(sha=commit.sha, parent=parent, message=commit.message, files=changed))
    return out


def board(world: World, block: Block) -> Block:
    """A `child_database` block with what graders read of its database: its columns (title first)
    and its rows, each a `page` block whose cells are its values in column order and whose children
    are the row page's own content (a note written inside a colleague's ticket changes the ticket)."""
    database = next((d for d in world.notion.databases if d.id == block.id), None)
    if database is None:
        return block
    rows = [
        Block(
            id=row.id,
            type=ROW,
            key=row.key,
            cells=[row.title, *(row.properties.get(c.name, "") for c in database.columns[1:])],
            children=[b.model_copy(deep=True) for b in row.blocks],
            archived=row.archived,
            created_by=row.created_by,
            edited=row.edited,
            last_edited=row.last_edited,
        )
        for row in world.notion.rows(database.id)
    ]
    columns = [c.name for c in database.columns]
    return block.model_copy(update={"columns": columns, "children": rows, "archived": database.archived})


def snapshot_pages(world: World) -> list[PageSnapshot]:
    """Every page of the hierarchy (board rows are read inside their board, not as pages)."""
    return [
        PageSnapshot(
            id=p.id,
            key=p.key,
            title=p.title,
            url=p.url,
            path=p.path,
            properties=p.properties,
            blocks=[board(world, b) if b.type == DATABASE else b for b in p.blocks],
            archived=p.archived,
            created_by=p.created_by,
        )
        for p in placed_pages(world)
    ]


def seeded_state(world: World) -> SeededState:
    """What a freshly seeded world holds beyond its repos' seed files: its pages, deep-copied so the
    agent's later edits to the world do not reach the record."""
    return SeededState(pages=[page.model_copy(deep=True) for page in snapshot_pages(world)])


def outcome(world: World, seeded: SeededState | None = None) -> Outcome:
    """The world's final state; `seeded` is what the backend recorded when it seeded the world."""
    seeded_ids = {m.id for m in world.mailbox.messages if m.seed_id}
    by_thread: dict[str, list[str]] = {}
    for message in world.mailbox.messages:
        if message.seed_id:
            by_thread.setdefault(message.thread_id, []).append(message.seed_id)
    sent = [
        SentMail(
            id=m.id,
            thread_id=m.thread_id,
            to=m.to,
            cc=m.cc,
            bcc=m.bcc,
            subject=m.subject,
            body=m.body,
            in_reply_to=m.in_reply_to,
            thread_seed_ids=by_thread.get(m.thread_id, []),
        )
        for m in world.mailbox.messages
        if "SENT" in m.labels and m.id not in seeded_ids
    ]
    return Outcome(
        scenario=world.scenario,
        trial=world.trial,
        repos=[snapshot_repo(r) for _, r in sorted(world.repos.items())],
        pages=snapshot_pages(world),
        sent=sent,
        seeded=seeded,
    )
