"""The outcome snapshot: the final state graders read, identical in shape for sandbox and live worlds.

Graders see artefacts, never the agent's claims: the files at every PR head and on the default
branch, every Notion page's blocks, every message the agent sent.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from evals.world.git import changed_paths, diff_trees, files_at, merge_base, resolve
from evals.world.model import Block, Repo, World


class Snap(BaseModel):
    model_config = ConfigDict(extra="forbid")


class SentMail(Snap):
    id: str
    thread_id: str
    to: list[str]
    cc: list[str] = Field(default_factory=list)
    subject: str
    body: str
    in_reply_to: str | None = None
    thread_seed_ids: list[str] = Field(default_factory=list, description="seeded emails in the same thread")


class PullSnapshot(Snap):
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


class RepoSnapshot(Snap):
    full_name: str
    default_branch: str
    seed_files: dict[str, str]
    main_files: dict[str, str]
    main_changed: list[str] = Field(description="paths changed on the default branch since seeding")
    pulls: list[PullSnapshot] = Field(default_factory=list)
    branches: dict[str, str] = Field(default_factory=dict)

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

    def heads(self) -> list[tuple[str, dict[str, str]]]:
        """(label, files) for every state the agent produced: each PR head, and main if it pushed there."""
        out = [(f"PR #{p.number}", p.files) for p in self.pulls]
        if self.main_changed:
            out.append((self.default_branch, self.main_files))
        return out


class PageSnapshot(Snap):
    id: str
    key: str | None
    title: str
    url: str
    path: list[str] = Field(default_factory=list)
    properties: dict[str, str] = Field(default_factory=dict)
    blocks: list[Block] = Field(default_factory=list)
    archived: bool = False
    created_by: str = "seed"


class Outcome(Snap):
    scenario: str
    trial: int
    backend: str = "sandbox"
    repos: list[RepoSnapshot] = Field(default_factory=list)
    pages: list[PageSnapshot] = Field(default_factory=list)
    sent: list[SentMail] = Field(default_factory=list)

    def page(self, key: str) -> PageSnapshot | None:
        return next((p for p in self.pages if p.key == key), None)

    def sent_to(self, address: str) -> list[SentMail]:
        wanted = address.lower()
        return [m for m in self.sent if wanted in (a.lower() for a in [*m.to, *m.cc])]


def _pull_url(repo: Repo, number: int) -> str:
    return f"https://github.com/{repo.full_name}/pull/{number}"


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
) -> RepoSnapshot:
    return RepoSnapshot(
        full_name=full_name,
        default_branch=default_branch,
        seed_files=seed_files,
        main_files=main_files,
        main_changed=[path for path, _ in changed_paths(seed_files, main_files)],
        pulls=pulls,
        branches=dict(sorted(branches.items())),
    )


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
    )


def outcome(world: World) -> Outcome:
    seeded = {m.id: m.seed_id for m in world.mailbox.messages if m.seed_id}
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
            subject=m.subject,
            body=m.body,
            in_reply_to=m.in_reply_to,
            thread_seed_ids=by_thread.get(m.thread_id, []),
        )
        for m in world.mailbox.messages
        if "SENT" in m.labels and m.id not in seeded
    ]
    pages = [
        PageSnapshot(
            id=p.id,
            key=p.key,
            title=p.title,
            url=p.url,
            path=p.path,
            properties=p.properties,
            blocks=p.blocks,
            archived=p.archived,
            created_by=p.created_by,
        )
        for p in world.notion.pages
    ]
    return Outcome(
        scenario=world.scenario,
        trial=world.trial,
        repos=[snapshot_repo(r) for _, r in sorted(world.repos.items())],
        pages=pages,
        sent=sent,
    )
