"""A trial's GitHub repository through PyGithub: seed it in one commit, snapshot it, delete it.

Seeding uses the Git Data API (one tree with every file inline, one root commit, one ref update)
rather than one contents-API commit per file: three writes whatever the repo's size, and a single
seed commit, as in the sandbox. The snapshot is the outcome contract `evals.world.outcome`.
"""

from __future__ import annotations

import base64
from dataclasses import dataclass

from github import Github, GithubException, InputGitTreeElement
from github.Repository import Repository

from evals.scenario.model import Scenario
from evals.world.live import polling
from evals.world.outcome import RepoSnapshot, pull_snapshot, repo_snapshot


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


def files_at(repo: Repository, sha: str) -> dict[str, str]:
    """Every file at a commit, as text (one tree request, then one request per blob)."""
    out = {}
    for entry in repo.get_git_tree(sha, recursive=True).tree:
        if entry.type == "blob":
            blob = repo.get_git_blob(entry.sha)
            out[entry.path] = base64.b64decode(blob.content).decode("utf-8", errors="replace")
    return dict(sorted(out.items()))


def snapshot_repo(gh: Github, seeded: SeededRepo) -> RepoSnapshot:
    repo = gh.get_repo(seeded.full_name)
    cache: dict[str, dict[str, str]] = {}

    def files(sha: str) -> dict[str, str]:
        if sha not in cache:
            cache[sha] = files_at(repo, sha)
        return cache[sha]

    branches = {b.name: b.commit.sha for b in repo.get_branches()}
    seed_files = files(seeded.seed_sha)
    main_files = files(branches.get(seeded.default_branch, seeded.seed_sha))
    pulls = []
    for pr in sorted(repo.get_pulls(state="all"), key=lambda p: p.number):
        head_sha = pr.head.sha
        base = repo.compare(pr.base.ref, head_sha).merge_base_commit.sha
        before, after = files(base), files(head_sha)
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
    return repo_snapshot(
        full_name=seeded.full_name,
        default_branch=seeded.default_branch,
        seed_files=seed_files,
        main_files=main_files,
        pulls=pulls,
        branches=branches,
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
