"""A trial's GitHub repository through PyGithub: seed it in one commit, snapshot it, delete it.

Seeding uses the Git Data API (one tree with every file inline, one root commit, one ref update)
rather than one contents-API commit per file: three writes whatever the repo's size, and a single
seed commit, as in the sandbox. The snapshot is the outcome contract `evals.world.outcome`: the
files on the default branch and at each PR head, and every commit the agent pushed after the seed.
"""

from __future__ import annotations

import base64
from dataclasses import dataclass

from github import Github, GithubException, InputGitTreeElement
from github.Repository import Repository

from evals.core.errors import InfrastructureError
from evals.scenario.model import Scenario
from evals.world.live import polling
from evals.world.outcome import CommitSnapshot, RepoSnapshot, pull_snapshot, repo_snapshot


@dataclass
class SeededRepo:
    full_name: str
    default_branch: str
    seed_sha: str


def create_repo(gh: Github, owner: str, name: str) -> Repository:
    """A private repository under the configured owner: the token's own account or an organisation."""
    user = gh.get_user()
    if user.login.lower() == owner.lower():
        return user.create_repo(name, private=True, auto_init=True, description="agent-evals trial")
    return gh.get_organization(owner).create_repo(
        name, private=True, auto_init=True, description="agent-evals trial"
    )


def seed_repo(gh: Github, owner: str, name: str, scenario: Scenario) -> SeededRepo:
    """Create the repo and replace its auto-init history with one commit holding the scenario's files.

    `auto_init` is needed because the Git Data API refuses writes to an empty repository.
    """
    try:
        repo = create_repo(gh, owner, name)
    except GithubException as exc:
        if exc.status != 422:
            raise
        # The name is unique to this run and trial: a repo holding it is a leftover of this very
        # trial (a killed attempt now being resumed), so it is replaced.
        delete_repo(gh, f"{owner}/{name}")
        repo = create_repo(gh, owner, name)
    elements = [
        InputGitTreeElement(path, "100644", "blob", content=content)
        for path, content in sorted(scenario.files.items())
    ]
    # A repository GitHub has just created can answer 404 (not everywhere yet) or 409 (its first
    # commit not written yet) for a moment: the first write waits for it, within a budget.
    tree = polling.retrying(
        lambda: repo.create_git_tree(elements), settling, f"GitHub to make the new repository {name} usable"
    )
    commit = repo.create_git_commit(scenario.repo.initial_commit_message, tree, [])
    branch = scenario.repo.default_branch
    try:
        repo.get_git_ref(f"heads/{branch}").edit(commit.sha, force=True)
    except GithubException as exc:
        if exc.status != 404:
            raise
        repo.create_git_ref(f"refs/heads/{branch}", commit.sha)
        repo.edit(default_branch=branch)
    return SeededRepo(repo.full_name, branch, commit.sha)


def settling(exc: Exception) -> bool:
    return isinstance(exc, GithubException) and exc.status in (404, 409)


class TreeReader:
    """A repository's trees and blobs, each read once: a tree as path -> blob sha (one request),
    a blob's text on first use. A truncated tree (GitHub's limit on a recursive listing) is an
    error, never a tree missing files."""

    def __init__(self, repo: Repository) -> None:
        self.repo = repo
        self._trees: dict[str, dict[str, str]] = {}
        self._blobs: dict[str, str] = {}

    def entries(self, sha: str) -> dict[str, str]:
        if sha not in self._trees:
            tree = self.repo.get_git_tree(sha, recursive=True)
            if tree.raw_data.get("truncated"):
                raise InfrastructureError(
                    f"{self.repo.full_name}: GitHub truncated the tree of {sha[:7]}: "
                    "its files cannot all be read"
                )
            self._trees[sha] = {e.path: e.sha for e in tree.tree if e.type == "blob"}
        return self._trees[sha]

    def text(self, blob: str) -> str:
        if blob not in self._blobs:
            raw = self.repo.get_git_blob(blob).content
            self._blobs[blob] = base64.b64decode(raw).decode("utf-8", errors="replace")
        return self._blobs[blob]

    def files(self, sha: str) -> dict[str, str]:
        """Every file at a commit, as text."""
        return {path: self.text(blob) for path, blob in sorted(self.entries(sha).items())}

    def changed(self, sha: str, parent: str | None) -> dict[str, str | None]:
        """Each path a commit changed against its parent (none: the empty tree): its text, None if deleted."""
        before, after = self.entries(parent) if parent else {}, self.entries(sha)
        return {
            path: (self.text(after[path]) if path in after else None)
            for path in sorted(set(before) | set(after))
            if before.get(path) != after.get(path)
        }


def pushed_commits(
    repo: Repository, reader: TreeReader, seed_sha: str, heads: list[str]
) -> list[CommitSnapshot]:
    """The agent's commits: every commit reachable from a head (a branch, a PR's head) and not from
    the seed commit, read by comparing the seed with each head (`GET /compare/{seed}...{head}`,
    oldest first), then ordered by commit date (a stable sort keeps a branch's own order), each
    with the files it changed against its first parent. A comparison GitHub cut short is an error.

    What no head reaches any more (a branch force-pushed over, or deleted without a PR) the REST API
    cannot list: those commits are not in the outcome (docs/live.md)."""
    found: dict[str, tuple[str, str | None, str]] = {}  # sha -> (date, parent, message), first seen first
    for head in dict.fromkeys(heads):
        comparison = repo.compare(seed_sha, head)
        listed = list(comparison.commits)
        if len(listed) != comparison.total_commits:
            raise InfrastructureError(
                f"{repo.full_name}: GitHub listed {len(listed)} of the {comparison.total_commits} commits "
                f"between the seed and {head}: the agent's commits cannot all be read"
            )
        for commit in listed:
            if commit.sha in found:
                continue
            parents = commit.parents
            date = commit.commit.committer.date.isoformat()
            found[commit.sha] = (date, parents[0].sha if parents else None, commit.commit.message)
    ordered = sorted(found.items(), key=lambda item: item[1][0])
    return [
        CommitSnapshot(sha=sha, parent=parent, message=message, files=reader.changed(sha, parent))
        for sha, (_, parent, message) in ordered
    ]


def snapshot_repo(gh: Github, seeded: SeededRepo) -> RepoSnapshot:
    """The repository as graders read it: files on the default branch and at each PR head, and
    every commit the agent pushed (on its branches, PR heads and the default branch)."""
    repo = gh.get_repo(seeded.full_name)
    reader = TreeReader(repo)
    branches = {b.name: b.commit.sha for b in repo.get_branches()}
    seed_files = reader.files(seeded.seed_sha)
    main_files = reader.files(branches.get(seeded.default_branch, seeded.seed_sha))
    pulls = []
    for pr in sorted(repo.get_pulls(state="all"), key=lambda p: p.number):
        head_sha = pr.head.sha
        base = repo.compare(pr.base.ref, head_sha).merge_base_commit.sha
        before, after = reader.files(base), reader.files(head_sha)
        pulls.append(
            pull_snapshot(
                number=pr.number,
                title=pr.title,
                body=pr.body or "",
                head=pr.head.ref,
                base=pr.base.ref,
                state=pr.state,
                merged=pr.merged_at is not None,
                url=pr.html_url,
                head_sha=head_sha,
                before=before,
                after=after,
            )
        )
    heads = [*branches.values(), *(p.head_sha for p in pulls)]
    return repo_snapshot(
        full_name=seeded.full_name,
        default_branch=seeded.default_branch,
        seed_files=seed_files,
        main_files=main_files,
        pulls=pulls,
        branches=branches,
        commits=pushed_commits(repo, reader, seeded.seed_sha, heads),
    )


def delete_repo(gh: Github, full_name: str) -> None:
    """Delete the repo; one already gone is fine (a janitor or a second close got there first)."""
    try:
        gh.get_repo(full_name).delete()
    except GithubException as exc:
        if exc.status != 404:
            raise


def list_trial_repos(gh: Github, owner: str) -> list[str]:
    """Full names of the owner's repositories (the janitor filters them by the naming convention)."""
    user = gh.get_user()
    if user.login.lower() == owner.lower():
        repos = user.get_repos(type="owner")
    else:
        repos = gh.get_organization(owner).get_repos(type="all")
    return [r.full_name for r in repos]
