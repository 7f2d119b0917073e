"""GitHub tools over sandbox repos, with Composio's slugs, parameters and result shapes.

Parameters follow Composio's GitHub schemas (tests/fixtures/composio/tools.json holds them). Results
are GitHub's REST objects as Composio passes them through, with Composio's two changes: `data` is
always an object, so a list GitHub returns arrives as `{"details": [...]}`; and
GITHUB_GET_REPOSITORY_CONTENT on a directory gives the directory's own metadata, not its entries
(list a directory with GITHUB_GET_A_TREE). As on GitHub, updating a file needs its current blob
`sha`, a compare lists each changed file with its own `patch`, and a wrong path is a not-found.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
from typing import Any, Literal

from pydantic import Field
from pydantic.json_schema import SkipJsonSchema

from evals.core.jsonio import canonical
from evals.world.paths import tool_path
from evals.world.sandbox.git import GitError, add_commit, blob_sha, files_at, history, merge_base, resolve
from evals.world.sandbox.model import Commit, PullRequest, Repo, World
from evals.world.sandbox.tools.base import Params, Toolkit
from evals.world.toolset import ToolError
from evals.world.treediff import changed_paths, unified_diff

TOOLS = Toolkit("github")
tool = TOOLS.tool

API = "https://api.github.com"
WEB = "https://github.com"
# An optional parameter Composio declares as a plain type: null is not advertised (None = omitted).
OptStr = str | SkipJsonSchema[None]


def listing(items: list[dict[str, Any]]) -> dict[str, Any]:
    """Composio's `data` is an object: a list GitHub returns is wrapped under `details`."""
    return {"details": items}


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


def tree_sha(entries: dict[str, str]) -> str:
    """A directory's sha: derived from its entries (names -> shas), so equal trees share a sha."""
    return hashlib.sha1(b"tree " + canonical(entries).encode()).hexdigest()


def _directory(tree: dict[str, str], path: str) -> dict[str, tuple[str, str]] | None:
    """The entries of directory `path` ('' is the root) in a flat path -> blob tree: name ->
    (type, sha), or None when no file lives under it."""
    prefix = f"{path}/" if path else ""
    under: dict[str, dict[str, str]] = {}
    out: dict[str, tuple[str, str]] = {}
    for file_path, sha in tree.items():
        if not file_path.startswith(prefix):
            continue
        name, _, rest = file_path[len(prefix) :].partition("/")
        if rest:
            under.setdefault(name, {})[rest] = sha
        else:
            out[name] = ("blob", sha)
    for name, files in under.items():
        out[name] = ("tree", tree_sha(files))
    return out if out else None


def _subtree(tree: dict[str, str], path: str) -> dict[str, str]:
    prefix = f"{path}/" if path else ""
    return {p[len(prefix) :]: sha for p, sha in tree.items() if p.startswith(prefix)}


def _links(repo: Repo, path: str, sha: str, ref: str, kind: str) -> dict[str, Any]:
    git = f"{API}/repos/{repo.full_name}/git/{'blobs' if kind == 'file' else 'trees'}/{sha}"
    html = f"{WEB}/{repo.full_name}/{'blob' if kind == 'file' else 'tree'}/{ref}/{path}"
    return {
        "url": f"{API}/repos/{repo.full_name}/contents/{path}?ref={ref}",
        "git_url": git,
        "html_url": html,
        "_links": {
            "self": f"{API}/repos/{repo.full_name}/contents/{path}?ref={ref}",
            "git": git,
            "html": html,
        },
    }


def _user(name: str, date: str) -> dict[str, Any]:
    return {"name": name, "email": f"{name}@users.noreply.github.com", "date": date}


def _commit_json(repo: Repo, commit: Commit) -> dict[str, Any]:
    """A commit as the REST commits endpoints give it (GET /repos/.../commits/{sha})."""
    return {
        "sha": commit.sha,
        "url": f"{API}/repos/{repo.full_name}/commits/{commit.sha}",
        "html_url": f"{WEB}/{repo.full_name}/commit/{commit.sha}",
        "commit": {
            "message": commit.message,
            "author": _user(commit.author, commit.timestamp),
            "committer": _user(commit.author, commit.timestamp),
            "tree": {"sha": tree_sha(commit.tree)},
        },
        "parents": [{"sha": s, "url": f"{API}/repos/{repo.full_name}/commits/{s}"} for s in commit.parents],
    }


def _git_commit_json(repo: Repo, commit: Commit) -> dict[str, Any]:
    """A commit as the Git Data API and the contents API give it (no nested `commit`)."""
    return {
        "sha": commit.sha,
        "url": f"{API}/repos/{repo.full_name}/git/commits/{commit.sha}",
        "html_url": f"{WEB}/{repo.full_name}/commit/{commit.sha}",
        "message": commit.message,
        "author": _user(commit.author, commit.timestamp),
        "committer": _user(commit.author, commit.timestamp),
        "tree": {"sha": tree_sha(commit.tree)},
        "parents": [{"sha": s, "html_url": f"{WEB}/{repo.full_name}/commit/{s}"} for s in commit.parents],
    }


def _pull_json(repo: Repo, pr: PullRequest, full: bool = True) -> dict[str, Any]:
    """A pull request as GitHub gives one (`full`), or as its list gives each (without `merged`)."""
    url = f"{WEB}/{repo.full_name}/pull/{pr.number}"
    merged = {"merged": pr.merged} if full else {}
    return {
        "number": pr.number,
        "title": pr.title,
        "body": pr.body,
        "state": pr.state,
        **merged,
        "merged_at": pr.created_at if pr.merged else None,
        "draft": False,
        "html_url": url,
        "diff_url": f"{url}.diff",
        "patch_url": f"{url}.patch",
        "url": f"{API}/repos/{repo.full_name}/pulls/{pr.number}",
        "created_at": pr.created_at,
        "updated_at": pr.created_at,
        "head": {"ref": pr.head, "sha": repo.branches.get(pr.head, ""), "label": f"{repo.owner}:{pr.head}"},
        "base": {"ref": pr.base, "sha": repo.branches.get(pr.base, ""), "label": f"{repo.owner}:{pr.base}"},
    }


def _file_change(repo: Repo, path: str, status: str, before: str | None, after: str | None) -> dict[str, Any]:
    """One changed file as GitHub lists it in a compare or a pull request: counts and its own
    patch (the hunks, without the ---/+++ file header)."""
    hunks = [
        line for line in unified_diff(path, before, after).splitlines() if not line.startswith(("---", "+++"))
    ]
    additions = sum(line.startswith("+") for line in hunks)
    deletions = sum(line.startswith("-") for line in hunks)
    return {
        "sha": blob_sha(after if after is not None else before or ""),
        "filename": path,
        "status": status,
        "additions": additions,
        "deletions": deletions,
        "changes": additions + deletions,
        "patch": "\n".join(hunks),
        "contents_url": f"{API}/repos/{repo.full_name}/contents/{path}",
    }


def _changes(repo: Repo, before: dict[str, str], after: dict[str, str]) -> list[dict[str, Any]]:
    return [
        _file_change(repo, path, status, before.get(path), after.get(path))
        for path, status in changed_paths(before, after)
    ]


def _pull(repo: Repo, number: int) -> PullRequest:
    for pr in repo.pulls:
        if pr.number == number:
            return pr
    raise ToolError(f"Not Found: pull request #{number}")


def _page(items: list[Any], page: int, per_page: int) -> list[Any]:
    return items[(page - 1) * per_page : page * per_page]


class GetContent(RepoParams):
    path: str = Field(description="File or directory path; empty for the root.")
    ref: OptStr = Field(default=None, description="Branch, tag or commit; default branch if omitted.")


@tool("GITHUB_GET_REPOSITORY_CONTENT", GetContent)
def get_content(world: World, p: GetContent) -> dict[str, Any]:
    """Get a file (base64 content and blob sha) or a directory's own metadata (not its entries: list
    a directory with GITHUB_GET_A_TREE)."""
    repo = _repo(world, p)
    ref = p.ref or repo.default_branch
    commit = _resolve(repo, p.ref)
    path = tool_path(p.path, allow_root=True)
    name = path.rsplit("/", 1)[-1]
    if path in commit.tree:
        sha = commit.tree[path]
        content = repo.blobs[sha].encode()
        return {
            "type": "file",
            "encoding": "base64",
            "size": len(content),
            "name": name,
            "path": path,
            "content": base64.b64encode(content).decode(),
            "sha": sha,
            "download_url": f"https://raw.githubusercontent.com/{repo.full_name}/{ref}/{path}",
            **_links(repo, path, sha, ref, "file"),
        }
    if _directory(commit.tree, path) is None:
        raise ToolError(f"Not Found: {p.path} at {ref}")
    sha = tree_sha(_subtree(commit.tree, path))
    return {
        "type": "dir",
        "size": 0,
        "name": name,
        "path": path,
        "sha": sha,
        "download_url": None,
        **_links(repo, path, sha, ref, "dir"),
    }


class GetTree(RepoParams):
    tree_sha: str = Field(description="A tree sha (a directory's), a branch name or a commit sha.")
    recursive: OptStr = Field(default=None, description="Any value lists the whole tree.")


def _find_tree(repo: Repo, wanted: str) -> dict[str, str]:
    """The flat file map of the tree a ref, commit or tree sha names."""
    try:
        return resolve(repo, wanted).tree
    except GitError:
        pass
    for commit in repo.commits.values():
        paths = {p.rsplit("/", 1)[0] for p in commit.tree if "/" in p}
        dirs = {"/".join(p.split("/")[: i + 1]) for p in paths for i in range(p.count("/") + 1)}
        for directory in ["", *sorted(dirs)]:
            files = _subtree(commit.tree, directory)
            if tree_sha(files) == wanted:
                return files
    raise ToolError(f"Not Found: no tree {wanted}")


@tool("GITHUB_GET_A_TREE", GetTree)
def get_tree(world: World, p: GetTree) -> dict[str, Any]:
    """List a tree's entries: a directory's files and subdirectories (every file when recursive)."""
    repo = _repo(world, p)
    files = _find_tree(repo, p.tree_sha)
    entries: list[dict[str, Any]] = []
    for path, sha in sorted(files.items()):
        parts = path.split("/")
        for depth in range(1, len(parts)) if p.recursive else ():
            directory = "/".join(parts[:depth])
            if not any(e["path"] == directory for e in entries):
                entries.append({"path": directory, "mode": "040000", "type": "tree"})
        if p.recursive:
            entries.append({"path": path, "mode": "100644", "type": "blob", "sha": sha})
    if not p.recursive:
        for name, (kind, sha) in sorted((_directory(files, "") or {}).items()):
            entries.append(
                {"path": name, "mode": "100644" if kind == "blob" else "040000", "type": kind, "sha": sha}
            )
    for entry in entries:
        if entry["type"] == "tree" and "sha" not in entry:
            entry["sha"] = tree_sha(_subtree(files, entry["path"]))
        if entry["type"] == "blob":
            entry["size"] = len(repo.blobs[entry["sha"]].encode())
        kind = "blobs" if entry["type"] == "blob" else "trees"
        entry["url"] = f"{API}/repos/{repo.full_name}/git/{kind}/{entry['sha']}"
    sha = tree_sha(files)
    return {
        "sha": sha,
        "url": f"{API}/repos/{repo.full_name}/git/trees/{sha}",
        "tree": entries,
        "truncated": False,
    }


class CreateOrUpdateFile(RepoParams):
    path: str = Field(description="Full path of the file.")
    message: str = Field(description="Commit message.")
    content: str = Field(description="New file content, base64 encoded.")
    sha: OptStr = Field(default=None, description="Blob sha of the file being replaced; required to update.")
    branch: OptStr = Field(default=None, description="Branch; the default branch if omitted.")
    committer__name: OptStr = None
    committer__email: OptStr = None
    committer__date: OptStr = None
    author__name: OptStr = None
    author__email: OptStr = None
    author__date: OptStr = None


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
    path = tool_path(p.path)
    current = head.tree.get(path)
    if current is not None and p.sha != current:
        raise ToolError(
            f"{path} does not match {p.sha}" if p.sha else 'Invalid request. "sha" wasn\'t supplied.'
        )
    if current is None and p.sha:
        raise ToolError(f"Not Found: {path} does not exist on {branch}")
    if current is None:  # a name is a file or a folder, never both (git's tree, any checkout)
        parents = ["/".join(path.split("/")[:i]) for i in range(1, path.count("/") + 1)]
        if clash := next((d for d in parents if d in head.tree), None):
            raise ToolError(f"Invalid path: {clash} is a file, so {path} cannot be created under it")
        if any(other.startswith(path + "/") for other in head.tree):
            raise ToolError(f"Invalid path: {path} is a directory")
    files = files_at(repo, head)
    files[path] = text
    commit = add_commit(repo, [head.sha], files, p.message, p.author__name or "agent", world.tick())
    repo.branches[branch] = commit.sha
    sha = commit.tree[path]
    return {
        "content": {
            "type": "file",
            "name": path.rsplit("/", 1)[-1],
            "path": path,
            "sha": sha,
            "size": len(text.encode()),
            "download_url": f"https://raw.githubusercontent.com/{repo.full_name}/{branch}/{path}",
            **_links(repo, path, sha, branch, "file"),
        },
        "commit": _git_commit_json(repo, commit),
    }


class CreateRef(RepoParams):
    ref: str = Field(description="Fully qualified ref, e.g. refs/heads/fix-oom.")
    sha: str = Field(description="Commit sha the ref points to.")


def _ref_json(repo: Repo, ref: str, sha: str) -> dict[str, Any]:
    return {
        "ref": ref,
        "node_id": "REF_" + hashlib.sha1(f"{repo.full_name}:{ref}".encode()).hexdigest()[:16],
        "url": f"{API}/repos/{repo.full_name}/git/{ref}",
        "object": {"sha": sha, "type": "commit", "url": f"{API}/repos/{repo.full_name}/git/commits/{sha}"},
    }


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
    return _ref_json(repo, p.ref, p.sha)


class GetBranch(RepoParams):
    branch: str


@tool("GITHUB_GET_A_BRANCH", GetBranch)
def get_branch(world: World, p: GetBranch) -> dict[str, Any]:
    """Get a branch and its head commit."""
    repo = _repo(world, p)
    if p.branch not in repo.branches:
        raise ToolError(f"Branch not found: {p.branch}")
    return {
        "name": p.branch,
        "commit": _commit_json(repo, repo.commits[repo.branches[p.branch]]),
        "protected": False,
        "_links": {
            "self": f"{API}/repos/{repo.full_name}/branches/{p.branch}",
            "html": f"{WEB}/{repo.full_name}/tree/{p.branch}",
        },
    }


class ListBranches(RepoParams):
    per_page: int = Field(default=30, ge=1, le=100)
    page: int = Field(default=1, ge=1)
    protected: bool | SkipJsonSchema[None] = Field(
        default=None, description="true: only protected branches (the sandbox protects none)."
    )


@tool("GITHUB_LIST_BRANCHES", ListBranches)
def list_branches(world: World, p: ListBranches) -> dict[str, Any]:
    """List branches with their head commit sha, under `details`."""
    repo = _repo(world, p)
    names = [] if p.protected else sorted(repo.branches)
    return listing(
        [
            {
                "name": n,
                "commit": {
                    "sha": repo.branches[n],
                    "url": f"{API}/repos/{repo.full_name}/commits/{repo.branches[n]}",
                },
                "protected": False,
            }
            for n in _page(names, p.page, p.per_page)
        ]
    )


class CreatePull(RepoParams):
    head: str = Field(description="Branch with the changes.")
    base: str = Field(description="Branch to merge into.")
    title: OptStr = Field(default=None, description="Title; required unless `issue` is given.")
    body: OptStr = Field(default=None)
    draft: bool | SkipJsonSchema[None] = Field(default=None)
    maintainer_can_modify: bool | SkipJsonSchema[None] = None
    head_repo: OptStr = Field(default=None, json_schema_extra={"format": "repo.nwo"})
    issue: int | SkipJsonSchema[None] = None


@tool("GITHUB_CREATE_A_PULL_REQUEST", CreatePull)
def create_pull(world: World, p: CreatePull) -> dict[str, Any]:
    """Open a pull request from `head` into `base`."""
    repo = _repo(world, p)
    head = p.head.split(":", 1)[-1]
    for name in (head, p.base):
        if name not in repo.branches:
            raise ToolError(f"Validation Failed: branch {name} does not exist")
    if not p.title:
        raise ToolError("Validation Failed: title is required (the sandbox has no issues to convert)")
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
    head: OptStr = None
    base: OptStr = None
    per_page: int = Field(default=30, ge=1, le=100)
    page: int = Field(default=1, ge=1)
    sort: str = Field(default="created", description="created, updated, popularity or long-running.")
    direction: OptStr = Field(default=None, description="asc or desc.")


@tool("GITHUB_LIST_PULL_REQUESTS", ListPulls)
def list_pulls(world: World, p: ListPulls) -> dict[str, Any]:
    """List pull requests, newest first, under `details`."""
    repo = _repo(world, p)
    pulls = [pr for pr in reversed(repo.pulls) if p.state == "all" or pr.state == p.state]
    pulls = [
        pr
        for pr in pulls
        if (p.base is None or pr.base == p.base) and (p.head is None or p.head.endswith(pr.head))
    ]
    if p.direction == "asc":
        pulls.reverse()
    return listing([_pull_json(repo, pr, full=False) for pr in _page(pulls, p.page, p.per_page)])


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
def list_pull_files(world: World, p: ListPullFiles) -> dict[str, Any]:
    """List the files a pull request changes, each with its patch, under `details`."""
    repo = _repo(world, p)
    pr = _pull(repo, p.pull_number)
    head = _resolve(repo, pr.head)
    base = merge_base(repo, _resolve(repo, pr.base), head)
    changes = _changes(repo, files_at(repo, base), files_at(repo, head))
    return listing(_page(changes, p.page, p.per_page))


class Compare(RepoParams):
    basehead: str = Field(description="BASE...HEAD")
    per_page: int = Field(default=30, ge=1, le=100)
    page: int = Field(default=1, ge=1)


@tool("GITHUB_COMPARE_TWO_COMMITS", Compare)
def compare(world: World, p: Compare) -> dict[str, Any]:
    """Compare two refs: the commits and the changed files (each with its patch) from BASE to HEAD."""
    repo = _repo(world, p)
    base_ref, sep, head_ref = p.basehead.partition("...")
    if not sep:
        raise ToolError("basehead must look like BASE...HEAD")
    base, head = _resolve(repo, base_ref), _resolve(repo, head_ref)
    try:
        common = merge_base(repo, base, head)
    except GitError as exc:
        raise ToolError(str(exc)) from exc
    ahead = [c for c in reversed(history(repo, head)) if c.sha not in {x.sha for x in history(repo, common)}]
    behind = [c for c in history(repo, base) if c.sha not in {x.sha for x in history(repo, common)}]
    status: Literal["identical", "ahead", "behind", "diverged"] = (
        "diverged" if ahead and behind else "ahead" if ahead else "behind" if behind else "identical"
    )
    url = f"{WEB}/{repo.full_name}/compare/{p.basehead}"
    return {
        "url": f"{API}/repos/{repo.full_name}/compare/{p.basehead}",
        "html_url": url,
        "permalink_url": f"{WEB}/{repo.full_name}/compare/{base.sha[:7]}...{head.sha[:7]}",
        "diff_url": f"{url}.diff",
        "patch_url": f"{url}.patch",
        "base_commit": _commit_json(repo, base),
        "merge_base_commit": _commit_json(repo, common),
        "status": status,
        "ahead_by": len(ahead),
        "behind_by": len(behind),
        "total_commits": len(ahead),
        "commits": [_commit_json(repo, c) for c in _page(ahead, p.page, p.per_page)],
        "files": _page(_changes(repo, files_at(repo, common), files_at(repo, head)), p.page, p.per_page),
    }


class ListCommits(RepoParams):
    sha: OptStr = Field(default=None, description="Branch or commit to start from.")
    path: OptStr = None
    per_page: int = Field(default=1, ge=1, le=100)
    page: int = Field(default=1, ge=1)
    author: OptStr = None
    committer: OptStr = None
    since: OptStr = None
    until: OptStr = None


@tool("GITHUB_LIST_COMMITS", ListCommits)
def list_commits(world: World, p: ListCommits) -> dict[str, Any]:
    """List commits reachable from a ref, newest first, under `details` (Composio's page size is 1)."""
    repo = _repo(world, p)
    commits = history(repo, _resolve(repo, p.sha))
    if p.path:
        tool_path(p.path)
        commits = [
            c
            for c in commits
            if not c.parents or c.tree.get(p.path) != repo.commits[c.parents[0]].tree.get(p.path)
        ]
    if p.author:
        commits = [c for c in commits if p.author.lower() in c.author.lower()]
    if p.since:
        commits = [c for c in commits if c.timestamp >= p.since]
    if p.until:
        commits = [c for c in commits if c.timestamp < p.until]
    return listing([_commit_json(repo, c) for c in _page(commits, p.page, p.per_page)])
