"""GitHub tools over sandbox repos, with Composio's slugs and parameter names.

Results follow the GitHub REST shapes Composio passes through (file content base64-encoded, PRs
with `number` and `html_url`). As on GitHub, updating a file needs its current blob `sha`, and a
wrong path is a 404-style not-found.
"""

from __future__ import annotations

import base64
import binascii
from typing import Any

from pydantic import Field

from evals.tools.base import Params, ToolError, Toolkit
from evals.treediff import changed_paths, diff_trees, unified_diff
from evals.world.git import GitError, add_commit, files_at, history, resolve
from evals.world.model import Commit, PullRequest, Repo, World

TOOLS = Toolkit("github")
tool = TOOLS.tool

API = "https://api.github.com"


class RepoParams(Params):
    owner: str = Field(description="Account owner of the repository (not case sensitive).")
    repo: str = Field(description="Repository name without .git (not case sensitive).")


def _repo(world: World, p: RepoParams) -> Repo:
    repo = world.repo(p.owner, p.repo)
    if repo is None:
        raise ToolError(f"Not Found: repository {p.owner}/{p.repo}")
    return repo


def _resolve(repo: Repo, ref: str | None) -> Commit:
    try:
        return resolve(repo, ref)
    except GitError as exc:
        raise ToolError(str(exc)) from exc


def _commit_json(repo: Repo, commit: Commit) -> dict[str, Any]:
    return {
        "sha": commit.sha,
        "html_url": f"https://github.com/{repo.full_name}/commit/{commit.sha}",
        "commit": {"message": commit.message, "author": {"name": commit.author, "date": commit.timestamp}},
        "parents": [{"sha": s} for s in commit.parents],
    }


def _pull_json(repo: Repo, pr: PullRequest) -> dict[str, Any]:
    head = repo.branches.get(pr.head, "")
    return {
        "number": pr.number,
        "title": pr.title,
        "body": pr.body,
        "state": pr.state,
        "merged": pr.merged,
        "html_url": f"https://github.com/{repo.full_name}/pull/{pr.number}",
        "url": f"{API}/repos/{repo.full_name}/pulls/{pr.number}",
        "created_at": pr.created_at,
        "head": {"ref": pr.head, "sha": head},
        "base": {"ref": pr.base, "sha": repo.branches.get(pr.base, "")},
    }


def _pull(repo: Repo, number: int) -> PullRequest:
    for pr in repo.pulls:
        if pr.number == number:
            return pr
    raise ToolError(f"Not Found: pull request #{number}")


class GetContent(RepoParams):
    path: str = Field(description="File or directory path; empty for the root.")
    ref: str | None = Field(default=None, description="Branch, tag or commit; default branch if omitted.")


@tool("GITHUB_GET_REPOSITORY_CONTENT", GetContent)
def get_content(world: World, p: GetContent) -> Any:
    """Get a file (base64 content and blob sha) or, for a directory, the list of its entries."""
    repo = _repo(world, p)
    commit = _resolve(repo, p.ref)
    path = p.path.strip("/")
    if path in commit.tree:
        content = repo.blobs[commit.tree[path]]
        return {
            "type": "file",
            "name": path.rsplit("/", 1)[-1],
            "path": path,
            "sha": commit.tree[path],
            "size": len(content.encode()),
            "encoding": "base64",
            "content": base64.b64encode(content.encode()).decode(),
        }
    prefix = f"{path}/" if path else ""
    entries: dict[str, dict[str, Any]] = {}
    for file_path, sha in commit.tree.items():
        if file_path.startswith(prefix):
            name, _, rest = file_path[len(prefix) :].partition("/")
            kind = "dir" if rest else "file"
            entries.setdefault(
                name, {"type": kind, "name": name, "path": prefix + name, "sha": sha if not rest else ""}
            )
    if not entries:
        raise ToolError(f"Not Found: {p.path} at {p.ref or repo.default_branch}")
    return sorted(entries.values(), key=lambda e: (e["type"] != "dir", e["name"]))


class GetTree(RepoParams):
    tree_sha: str = Field(description="Branch name or commit sha.")
    recursive: str | None = Field(default=None, description="Any value lists the whole tree.")


@tool("GITHUB_GET_A_TREE", GetTree)
def get_tree(world: World, p: GetTree) -> dict[str, Any]:
    """List the files of a tree (the whole repository when recursive)."""
    repo = _repo(world, p)
    commit = _resolve(repo, p.tree_sha)
    paths = sorted(commit.tree) if p.recursive else sorted({path.split("/")[0] for path in commit.tree})
    return {
        "sha": commit.sha,
        "truncated": False,
        "tree": [
            {
                "path": path,
                "type": "blob" if path in commit.tree else "tree",
                "sha": commit.tree.get(path, ""),
            }
            for path in paths
        ],
    }


class CreateOrUpdateFile(RepoParams):
    path: str = Field(description="Full path of the file.")
    message: str = Field(description="Commit message.")
    content: str = Field(description="New file content, base64 encoded.")
    sha: str | None = Field(
        default=None, description="Blob sha of the file being replaced; required to update."
    )
    branch: str | None = Field(default=None, description="Branch; the default branch if omitted.")
    committer__name: str | None = None
    committer__email: str | None = None
    author__name: str | None = None
    author__email: str | None = None


@tool("GITHUB_CREATE_OR_UPDATE_FILE_CONTENTS", CreateOrUpdateFile)
def create_or_update_file(world: World, p: CreateOrUpdateFile) -> dict[str, Any]:
    """Create a file, or replace one given its current blob sha, as one commit on a branch."""
    repo = _repo(world, p)
    branch = p.branch or repo.default_branch
    if branch not in repo.branches:
        raise ToolError(f"Branch {branch} not found")
    try:
        text = base64.b64decode(p.content, validate=True).decode("utf-8")
    except (binascii.Error, UnicodeDecodeError) as exc:
        raise ToolError("content is not valid base64-encoded UTF-8") from exc
    head = repo.commits[repo.branches[branch]]
    path = p.path.strip("/")
    current = head.tree.get(path)
    if current is not None and p.sha != current:
        raise ToolError(
            f"{path} does not match {p.sha}" if p.sha else 'Invalid request. "sha" wasn\'t supplied.'
        )
    if current is None and p.sha:
        raise ToolError(f"Not Found: {path} does not exist on {branch}")
    files = files_at(repo, head)
    files[path] = text
    commit = add_commit(repo, [head.sha], files, p.message, p.author__name or "agent", world.tick())
    repo.branches[branch] = commit.sha
    return {"content": {"path": path, "sha": commit.tree[path]}, "commit": _commit_json(repo, commit)}


class CreateRef(RepoParams):
    ref: str = Field(description="Fully qualified ref, e.g. refs/heads/fix-oom.")
    sha: str = Field(description="Commit sha the ref points to.")


@tool("GITHUB_CREATE_A_REFERENCE", CreateRef)
def create_ref(world: World, p: CreateRef) -> dict[str, Any]:
    """Create a branch (refs/heads/NAME) pointing at a commit."""
    repo = _repo(world, p)
    if not p.ref.startswith("refs/") or p.ref.count("/") < 2:
        raise ToolError("ref must start with 'refs/' and contain at least two slashes")
    if not p.ref.startswith("refs/heads/"):
        raise ToolError("only branch refs (refs/heads/...) are supported")
    name = p.ref[len("refs/heads/") :]
    if name in repo.branches:
        raise ToolError("Reference already exists")
    if p.sha not in repo.commits:
        raise ToolError("Object does not exist")
    repo.branches[name] = p.sha
    world.tick()
    return {"ref": p.ref, "object": {"sha": p.sha, "type": "commit"}}


class GetBranch(RepoParams):
    branch: str


@tool("GITHUB_GET_A_BRANCH", GetBranch)
def get_branch(world: World, p: GetBranch) -> dict[str, Any]:
    """Get a branch and its head commit."""
    repo = _repo(world, p)
    if p.branch not in repo.branches:
        raise ToolError(f"Branch not found: {p.branch}")
    return {"name": p.branch, "commit": _commit_json(repo, repo.commits[repo.branches[p.branch]])}


class ListBranches(RepoParams):
    per_page: int = Field(default=30, ge=1, le=100)
    page: int = Field(default=1, ge=1)


@tool("GITHUB_LIST_BRANCHES", ListBranches)
def list_branches(world: World, p: ListBranches) -> list[dict[str, Any]]:
    """List branches with their head commit sha."""
    repo = _repo(world, p)
    names = sorted(repo.branches)[(p.page - 1) * p.per_page : p.page * p.per_page]
    return [{"name": n, "commit": {"sha": repo.branches[n]}} for n in names]


class CreatePull(RepoParams):
    head: str = Field(description="Branch with the changes.")
    base: str = Field(description="Branch to merge into.")
    title: str | None = Field(default=None)
    body: str | None = Field(default=None)
    draft: bool = Field(default=False)
    maintainer_can_modify: bool | None = None
    head_repo: str | None = None
    issue: int | None = None


@tool("GITHUB_CREATE_A_PULL_REQUEST", CreatePull)
def create_pull(world: World, p: CreatePull) -> dict[str, Any]:
    """Open a pull request from `head` into `base`."""
    repo = _repo(world, p)
    head = p.head.split(":", 1)[-1]
    for name in (head, p.base):
        if name not in repo.branches:
            raise ToolError(f"Validation Failed: branch {name} does not exist")
    if not p.title:
        raise ToolError("Validation Failed: title is required")
    if repo.branches[head] == repo.branches[p.base]:
        raise ToolError(f"Validation Failed: No commits between {p.base} and {head}")
    if any(pr.head == head and pr.state == "open" for pr in repo.pulls):
        raise ToolError(f"Validation Failed: A pull request already exists for {head}")
    pr = PullRequest(
        number=len(repo.pulls) + 1,
        title=p.title,
        body=p.body or "",
        head=head,
        base=p.base,
        created_at=world.tick(),
    )
    repo.pulls.append(pr)
    return _pull_json(repo, pr)


class ListPulls(RepoParams):
    state: str = Field(default="open", description="open, closed or all.")
    head: str | None = None
    base: str | None = None
    per_page: int = Field(default=30, ge=1, le=100)
    page: int = Field(default=1, ge=1)
    sort: str | None = None
    direction: str | None = None


@tool("GITHUB_LIST_PULL_REQUESTS", ListPulls)
def list_pulls(world: World, p: ListPulls) -> list[dict[str, Any]]:
    """List pull requests, newest first."""
    repo = _repo(world, p)
    pulls = [pr for pr in reversed(repo.pulls) if p.state == "all" or pr.state == p.state]
    pulls = [
        pr
        for pr in pulls
        if (p.base is None or pr.base == p.base) and (p.head is None or p.head.endswith(pr.head))
    ]
    return [_pull_json(repo, pr) for pr in pulls[(p.page - 1) * p.per_page : p.page * p.per_page]]


class GetPull(RepoParams):
    pull_number: int


@tool("GITHUB_GET_A_PULL_REQUEST", GetPull)
def get_pull(world: World, p: GetPull) -> dict[str, Any]:
    """Get one pull request."""
    repo = _repo(world, p)
    return _pull_json(repo, _pull(repo, p.pull_number))


class ListPullFiles(RepoParams):
    pull_number: int
    per_page: int = Field(default=30, ge=1, le=100)
    page: int = Field(default=1, ge=1)


@tool("GITHUB_LIST_PULL_REQUESTS_FILES", ListPullFiles)
def list_pull_files(world: World, p: ListPullFiles) -> list[dict[str, Any]]:
    """List the files a pull request changes, with a patch for each."""
    repo = _repo(world, p)
    pr = _pull(repo, p.pull_number)
    before = files_at(repo, _resolve(repo, pr.base))
    after = files_at(repo, _resolve(repo, pr.head))
    rows = [
        {"filename": path, "status": status, "patch": unified_diff(path, before.get(path), after.get(path))}
        for path, status in changed_paths(before, after)
    ]
    return rows[(p.page - 1) * p.per_page : p.page * p.per_page]


class Compare(RepoParams):
    basehead: str = Field(description="BASE...HEAD")
    per_page: int = Field(default=30, ge=1, le=100)
    page: int = Field(default=1, ge=1)


@tool("GITHUB_COMPARE_TWO_COMMITS", Compare)
def compare(world: World, p: Compare) -> dict[str, Any]:
    """Compare two refs: the commits and files between BASE...HEAD."""
    repo = _repo(world, p)
    base_ref, sep, head_ref = p.basehead.partition("...")
    if not sep:
        raise ToolError("basehead must look like BASE...HEAD")
    base, head = _resolve(repo, base_ref), _resolve(repo, head_ref)
    before, after = files_at(repo, base), files_at(repo, head)
    base_shas = {c.sha for c in history(repo, base)}
    commits = [c for c in reversed(history(repo, head)) if c.sha not in base_shas]
    return {
        "status": "ahead" if commits else "identical",
        "ahead_by": len(commits),
        "commits": [_commit_json(repo, c) for c in commits],
        "files": [{"filename": path, "status": status} for path, status in changed_paths(before, after)],
        "diff": diff_trees(before, after),
    }


class ListCommits(RepoParams):
    sha: str | None = Field(default=None, description="Branch or commit to start from.")
    path: str | None = None
    per_page: int = Field(default=1, ge=1, le=100)
    page: int = Field(default=1, ge=1)
    author: str | None = None
    committer: str | None = None
    since: str | None = None
    until: str | None = None


@tool("GITHUB_LIST_COMMITS", ListCommits)
def list_commits(world: World, p: ListCommits) -> list[dict[str, Any]]:
    """List commits reachable from a ref, newest first (Composio's default page size is 1)."""
    repo = _repo(world, p)
    commits = history(repo, _resolve(repo, p.sha))
    if p.path:
        commits = [
            c
            for c in commits
            if not c.parents or c.tree.get(p.path) != repo.commits[c.parents[0]].tree.get(p.path)
        ]
    return [_commit_json(repo, c) for c in commits[(p.page - 1) * p.per_page : p.page * p.per_page]]
