"""What the agent wrote that the grader cannot read, write or run: the agent's failure, never the grader's.

The grader reads bytes the model chose: file names it writes to disk for the confined checks,
Python it parses with `ast`, YAML, JSON or TOML it loads. Hostile or merely careless bytes make
those readers raise (a 300-byte file name is ENAMETOOLONG, `1+1+...` a hundred thousand terms
long is a RecursionError, a lone surrogate a UnicodeEncodeError). Left to the grader's generic
handler that is a "grader error": the part is unscored and `compare` leaves it out of both sides,
so one tool call could make a failing check disappear (issue #38).

The decision stays narrow so a bug in the grader is still a grader error: only the code that
touches the agent's bytes (`reading(...)` around a parser or the tree writer) turns the exceptions
such bytes cause into `AgentArtefactError`, and `grader._run_check` turns that into a failed
check with the reason. A parsed value is also held to `MAX_NESTING`, so the grader's own readers
(which recurse, like `ast.unparse`) only ever walk trees they can walk: a RecursionError after
that is the grader's bug again.
"""

from __future__ import annotations

import ast
import errno
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

# Deeper than code or configuration people write ever nests (none of 10,000 Python files of common
# packages nests deeper than 90 counted this way; CPython itself refuses more than 200 nested
# brackets), and shallow enough that the grader's recursive readers (ast.unparse, about three frames
# a level; the value resolver; yaml's constructor) stay inside Python's default limit of 1000 frames.
MAX_NESTING = 150


# What writing a file can fail with because of the name the agent chose: too long, not a name
# (EILSEQ), or a path that is a file and a folder at once ("a" and "a/b"). A full disk, a permission
# or a read-only filesystem are the machine's doing and stay errors of the grader.
NAME_ERRNOS = frozenset(
    {errno.ENAMETOOLONG, errno.EILSEQ, errno.ENOTDIR, errno.EISDIR, errno.EEXIST, errno.ELOOP, errno.EINVAL}
)


class AgentArtefactError(Exception):
    """A file the agent wrote cannot be written to disk, parsed or walked by the grader: the checks
    that read it fail with this reason (score 0), never a grader error."""


@contextmanager
def reading(what: str) -> Iterator[None]:
    """Around code that parses, writes or walks bytes the agent chose: the exceptions only such bytes
    cause (too deep, too big, not encodable, a name the filesystem refuses) become
    AgentArtefactError naming `what`. Anything else propagates unchanged (a grader bug)."""
    try:
        yield
    except AgentArtefactError:
        raise
    except RecursionError as exc:
        raise AgentArtefactError(f"{what} is nested too deeply to read ({exc})") from exc
    except MemoryError as exc:
        raise AgentArtefactError(f"{what} is too large to read") from exc
    except UnicodeError as exc:
        why = getattr(exc, "reason", str(exc))
        raise AgentArtefactError(f"{what} has characters that cannot be encoded ({why})") from exc
    except OSError as exc:
        if exc.errno not in NAME_ERRNOS:  # a full disk or a permission: the machine's, not the agent's
            raise
        raise AgentArtefactError(f"{what} cannot be written: {exc.strerror or exc}") from exc


def _children(item: Any) -> list[Any] | None:
    """The values a container holds, None for a scalar."""
    if isinstance(item, dict):
        return [*item.keys(), *item.values()]
    if isinstance(item, list | tuple | set | frozenset):
        return list(item)
    if isinstance(item, ast.AST):
        return list(ast.iter_child_nodes(item))
    return None


def nesting(value: Any) -> int:
    """How deeply a parsed value nests (dicts, lists, tuples, AST nodes; a scalar is 1), computed
    without recursion so a hostile value cannot make the count itself fail. A container met again
    through another parent (YAML aliases) is measured once, so a billion-laughs document costs what
    it stores; one that contains itself (`&a [*a]`) nests without end."""
    heights: dict[int, int] = {}
    open_: set[int] = set()  # containers whose children are being measured: the current path
    alive: list[Any] = []  # keeps every measured container alive, so no id is reused meanwhile
    stack: list[tuple[Any, bool]] = [(value, False)]
    while stack:
        item, finished = stack.pop()
        kids = _children(item)
        if kids is None:
            continue
        key = id(item)
        if finished:
            open_.discard(key)
            heights[key] = 1 + max((heights.get(id(k), 1) for k in kids), default=0)
        elif key in open_:
            return sys.maxsize  # a cycle
        elif key not in heights:
            open_.add(key)
            alive.append(item)
            stack.append((item, True))
            stack.extend((k, False) for k in kids)
    return heights.get(id(value), 1)


def tree_height(tree: ast.AST) -> int:
    """`nesting` of a tree `ast.parse` made, walked without `nesting`'s bookkeeping: such a tree has
    no cycle and shares only leaves (the `Load()` and operator singletons, which change no height),
    so the height is the longest path from the root. `nesting` took twice as long as the parse
    itself on a trial's files. Without recursion, as `nesting`."""
    deepest = 0
    stack: list[tuple[ast.AST, int]] = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        deepest = max(deepest, depth)
        depth += 1
        for name in node._fields:
            value = getattr(node, name, None)
            if isinstance(value, ast.AST):
                stack.append((value, depth))
            elif isinstance(value, list):
                stack += [(item, depth) for item in value if isinstance(item, ast.AST)]
    return deepest


def bounded_tree(tree: ast.Module, what: str, limit: int = MAX_NESTING) -> ast.Module:
    """`bounded` for a tree `ast.parse` made (`tree_height`)."""
    if tree_height(tree) > limit:
        raise AgentArtefactError(f"{what} nests deeper than {limit} levels")
    return tree


def bounded(value: Any, what: str, limit: int = MAX_NESTING) -> Any:
    """`value` when it nests no deeper than `limit`, else AgentArtefactError: what the grader's
    recursive readers could not walk is refused where it is read."""
    if nesting(value) > limit:
        raise AgentArtefactError(f"{what} nests deeper than {limit} levels")
    return value
