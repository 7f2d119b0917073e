"""The one rule for a file path the agent chose: relative, inside, and spelt one way.

A path an agent passes to a tool ends up as a key of a repository tree, and the grader later writes
those trees to disk to run code (evals/grade/confine/). `..`, an absolute path, an empty segment
(`a//b`) or a NUL would either escape that tree or name one file two ways, so every tool
that takes a path validates it here and answers a refusal as an error envelope (`ToolError`), as
the real service refuses a malformed path; the trial goes on. The grader's tree writer applies the
same rule again, because a stored outcome is data anyone could have edited. The tools also refuse
what GitHub would not store (`service_path`: a name over 255 bytes, a path over 4096, a character
UTF-8 cannot encode), so one tool call cannot leave the grader a tree it cannot write.
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


# What GitHub will store, measured in UTF-8 bytes as git stores a name. A segment is one tree
# entry's name: GitHub's file systems (ext4, like Linux generally) refuse more than 255 bytes
# (ENAMETOOLONG), and so does a checkout anywhere. A whole path: git's own PATH_MAX (4096, which
# libgit2 enforces as GIT_PATH_MAX and git's `fsck` checks a tree against), since a longer one
# cannot be checked out on Linux either. Sources: git's fsck.h ("on Linux you'll generally get
# ENAMETOOLONG for anything over 255 bytes"), libgit2 commit 3db1af1 ("Git already enforces a
# maximum path length of 4096 bytes").
MAX_SEGMENT_BYTES = 255
MAX_PATH_BYTES = 4096


def service_path(path: str) -> str:
    """`path` if GitHub would store it: valid UTF-8 (no lone surrogate), no segment over
    MAX_SEGMENT_BYTES, MAX_PATH_BYTES in all; else UnsafePath saying which limit it breaks. Applied
    by the sandbox tools on top of `checked_path` (the grader's writer does not: a stored tree with
    such a name fails the checks that write it, evals/grade/artefact.py)."""
    try:
        size = len(path.encode("utf-8"))
    except UnicodeEncodeError as exc:
        raise UnsafePath(f"the path is not valid UTF-8 ({exc.reason} at character {exc.start})") from exc
    if size > MAX_PATH_BYTES:
        raise UnsafePath(f"the path is {size} bytes long; at most {MAX_PATH_BYTES} are allowed")
    for segment in path.split("/"):
        length = len(segment.encode("utf-8"))
        if length > MAX_SEGMENT_BYTES:
            shown = f"{segment[:40]}...{segment[-12:]}"
            raise UnsafePath(
                f"the name {shown!r} is {length} bytes long; at most {MAX_SEGMENT_BYTES} are allowed"
            )
    return path


def tool_path(path: str, *, allow_root: bool = False) -> str:
    """`checked_path` and `service_path` for a tool: a refusal is the tool's error envelope."""
    try:
        return service_path(checked_path(path, allow_root=allow_root))
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
