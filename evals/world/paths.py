"""The one rule for a file path the agent chose: relative, inside, and spelt one way.

A path an agent passes to a tool ends up as a key of a repository tree, and the grader later writes
those trees to disk to run code (evals/grade/confine/). `..`, an absolute path, an empty segment
(`a//b`) or a NUL would either escape that tree or name one file two ways, so every tool
that takes a path validates it here and answers a refusal as an error envelope (`ToolError`), as
the real service refuses a malformed path; the trial goes on. The grader's tree writer applies the
same rule again, because a stored outcome is data anyone could have edited.
"""

from __future__ import annotations

from pathlib import Path

from evals.world.toolset import ToolError


class UnsafePath(ValueError):
    """A path that is not a plain relative path inside its tree."""


def checked_path(path: str, *, allow_root: bool = False) -> str:
    """`path` if it is a plain relative POSIX path (no `..`, `.`, empty or NUL segment, not
    absolute), else UnsafePath saying which rule it breaks. `allow_root`: "" names the root."""
    if path == "" and allow_root:
        return path
    if not path:
        raise UnsafePath("the path is empty")
    if "\x00" in path:
        raise UnsafePath("the path contains a NUL character")
    if path.startswith("/"):
        raise UnsafePath(f"{path!r} is absolute; give a path relative to the repository root")
    for segment in path.split("/"):
        if segment == "":
            raise UnsafePath(f"{path!r} has an empty segment")
        if segment in (".", ".."):
            raise UnsafePath(f"{path!r} has a {segment!r} segment")
    return path


def tool_path(path: str, *, allow_root: bool = False) -> str:
    """`checked_path` for a tool: a refusal is the tool's error envelope."""
    try:
        return checked_path(path, allow_root=allow_root)
    except UnsafePath as exc:
        raise ToolError(f"Invalid path: {exc}") from exc


def contained(root: Path, path: str) -> Path:
    """Where `path` (checked) goes under `root`, resolved and proven inside it: UnsafePath otherwise
    (a symlink already in the tree could still point out)."""
    base = root.resolve()
    dest = (base / checked_path(path)).resolve()
    if not dest.is_relative_to(base) or dest == base:
        raise UnsafePath(f"{path!r} resolves outside {root}")
    return dest
