"""Git semantics for sandbox repos: content-addressed blobs, commits, branches, history.

Diffs between two trees are in `evals.world.treediff`, shared with the outcome snapshots of every backend.

Blob shas are computed exactly as git does (`blob <len>\\0<content>`), so an agent that learns a
file's sha from one tool and passes it to another sees the same behaviour as on GitHub.
"""

from __future__ import annotations

import hashlib

from evals.core.jsonio import canonical
from evals.world.sandbox.model import Commit, Repo


class GitError(Exception):
    """A git-level refusal (unknown ref, stale sha); tools turn it into an error envelope."""


def blob_sha(content: str) -> str:
    data = content.encode("utf-8")
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


def commit_sha(parents: list[str], tree: dict[str, str], message: str, author: str, timestamp: str) -> str:
    payload = canonical({"p": parents, "t": tree, "m": message, "a": author, "ts": timestamp})
    return hashlib.sha1(b"commit " + payload.encode()).hexdigest()


def add_commit(
    repo: Repo, parents: list[str], files: dict[str, str], message: str, author: str, timestamp: str
) -> Commit:
    tree: dict[str, str] = {}
    for path, content in sorted(files.items()):
        sha = blob_sha(content)
        repo.blobs[sha] = content
        tree[path] = sha
    commit = Commit(
        sha=commit_sha(parents, tree, message, author, timestamp),
        parents=parents,
        message=message,
        tree=tree,
        author=author,
        timestamp=timestamp,
    )
    repo.commits[commit.sha] = commit
    return commit


def resolve(repo: Repo, ref: str | None) -> Commit:
    """A branch name, `refs/heads/x`, or a (possibly abbreviated) commit sha -> commit."""
    name = ref or repo.default_branch
    if name.startswith("refs/heads/"):
        name = name[len("refs/heads/") :]
    if name in repo.branches:
        return repo.commits[repo.branches[name]]
    if len(name) >= 7:
        matches = [sha for sha in repo.commits if sha.startswith(name)]
        if len(matches) == 1:
            return repo.commits[matches[0]]
    raise GitError(f"No commit found for the ref {name}")


def files_at(repo: Repo, commit: Commit) -> dict[str, str]:
    return {path: repo.blobs[sha] for path, sha in commit.tree.items()}


def history(repo: Repo, head: Commit) -> list[Commit]:
    """First-parent history, newest first."""
    out = []
    current: Commit | None = head
    while current is not None:
        out.append(current)
        current = repo.commits[current.parents[0]] if current.parents else None
    return out


def merge_base(repo: Repo, a: Commit, b: Commit) -> Commit:
    ancestors = {c.sha for c in history(repo, a)}
    for commit in history(repo, b):
        if commit.sha in ancestors:
            return commit
    raise GitError("no common ancestor")
