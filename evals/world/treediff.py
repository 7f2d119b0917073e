"""Differences between two file trees (path → text): which paths changed, and the unified diff.

Shared by the sandbox's git tools and by the outcome's PR snapshots of every backend, so a PR's
changed paths and diff are computed one way whichever world produced the trees.
"""

from __future__ import annotations

import difflib


def changed_paths(before: dict[str, str], after: dict[str, str]) -> list[tuple[str, str]]:
    """(path, status) for every path that differs: added, removed or modified."""
    out = []
    for path in sorted(set(before) | set(after)):
        if path not in before:
            out.append((path, "added"))
        elif path not in after:
            out.append((path, "removed"))
        elif before[path] != after[path]:
            out.append((path, "modified"))
    return out


def unified_diff(path: str, before: str | None, after: str | None) -> str:
    lines = difflib.unified_diff(
        (before or "").splitlines(keepends=True),
        (after or "").splitlines(keepends=True),
        fromfile=f"a/{path}" if before is not None else "/dev/null",
        tofile=f"b/{path}" if after is not None else "/dev/null",
    )
    return "".join(line if line.endswith("\n") else line + "\n" for line in lines)


def diff_trees(before: dict[str, str], after: dict[str, str]) -> str:
    return "".join(
        unified_diff(path, before.get(path), after.get(path)) for path, _ in changed_paths(before, after)
    )
