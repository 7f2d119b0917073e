"""GitHub calls as code and diffs: a file read is its decoded text, a file written is a diff against
what the agent last read of it (or its whole new text), a compare or a pull request's files are
their patches, commits and branches are tables, a pull request is its title, branches and body.
"""

from __future__ import annotations

import difflib
from typing import Any

from evals.report.viewer.results.shapes import (
    Seen,
    Shape,
    code,
    decode_base64,
    diff,
    fields,
    obj,
    table,
    text,
)


def _repo(args: dict[str, Any]) -> str:
    return f"{args.get('owner', '')}/{args.get('repo', '')}"


def _file(args: dict[str, Any], data: dict[str, Any], seen: Seen) -> list[Shape]:
    if data.get("type") != "file":
        return [fields("directory", [("path", data.get("path") or "/"), ("sha", data.get("sha"))])]
    content = decode_base64(data.get("content"))
    path = str(data.get("path") or args.get("path") or "")
    if content is None:
        return [fields("file (not text)", [("path", path), ("size", data.get("size"))])]
    seen.files[(_repo(args), path)] = content
    ref = f" @ {args['ref']}" if args.get("ref") else ""
    return [code(f"{path}{ref}", content)]


def _written(args: dict[str, Any], seen: Seen) -> list[Shape]:
    """The file the agent wrote: a diff against what it read of it, else its whole text."""
    path = str(args.get("path") or "")
    new = decode_base64(args.get("content"))
    head = fields(None, [("branch", args.get("branch")), ("commit message", args.get("message"))])
    if new is None:
        return [head]
    old = seen.files.get((_repo(args), path))
    seen.files[(_repo(args), path)] = new
    if old is None:
        return [head, code(f"{path} (new text; the agent had not read it before)", new)]
    lines = difflib.unified_diff(
        old.splitlines(), new.splitlines(), f"a/{path}", f"b/{path}", lineterm="", n=3
    )
    patch = "\n".join(lines) or "(no change to the text)"
    return [head, diff(f"{path}: against what the agent read", patch)]


def _commit_row(c: dict[str, Any]) -> list[Any]:
    inner = obj(c.get("commit")) or c
    author = obj(inner.get("author"))
    message = str(inner.get("message") or "")
    return [str(c.get("sha", ""))[:12], author.get("name", ""), author.get("date", ""), message]


def _commits(title: str, items: list[Any]) -> Shape:
    rows = [_commit_row(c) for c in items if isinstance(c, dict)]
    return table(title, ["commit", "author", "date", "message"], rows)


def _patches(files: list[Any]) -> list[Shape]:
    shapes = []
    for f in files:
        if isinstance(f, dict):
            counts = f"{f.get('status', '')}, +{f.get('additions', 0)} -{f.get('deletions', 0)}"
            shapes.append(diff(f"{f.get('filename', '')} ({counts})", str(f.get("patch") or "(no patch)")))
    return shapes


def _branches(ref: Any) -> str:
    return str(ref.get("ref", "")) if isinstance(ref, dict) else ""


def _pull(data: dict[str, Any]) -> list[Shape]:
    pairs = [
        ("pull request", f"#{data.get('number')} {data.get('title', '')}"),
        ("state", "merged" if data.get("merged") else data.get("state")),
        ("branches", f"{_branches(data.get('head'))} → {_branches(data.get('base'))}"),
        ("url", data.get("html_url")),
    ]
    body = [text("body", data["body"])] if data.get("body") else []
    return [fields(None, pairs), *body]


def _listing(tool: str, items: list[Any]) -> list[Shape]:
    dicts = [i for i in items if isinstance(i, dict)]
    commits = dicts and "commit" in dicts[0] and "sha" in dicts[0] and tool != "GITHUB_LIST_BRANCHES"
    if tool == "GITHUB_LIST_COMMITS" or commits:
        return [_commits("commits", dicts)]
    if dicts and "filename" in dicts[0]:
        return _patches(dicts)
    if dicts and "number" in dicts[0]:
        rows = [
            [
                f"#{p.get('number')}",
                p.get("title", ""),
                p.get("state", ""),
                f"{_branches(p.get('head'))} → {_branches(p.get('base'))}",
            ]
            for p in dicts
        ]
        return [table("pull requests", ["#", "title", "state", "branches"], rows)]
    if dicts and "name" in dicts[0]:
        rows = [[b.get("name", ""), str((b.get("commit") or {}).get("sha", ""))[:12]] for b in dicts]
        return [table("branches", ["branch", "head"], rows)]
    return []


def _result(tool: str, args: dict[str, Any], data: Any, seen: Seen) -> list[Shape]:
    if not isinstance(data, dict):
        return []
    if isinstance(data.get("details"), list):
        return _listing(tool, data["details"])
    if "encoding" in data or data.get("type") in ("file", "dir"):
        return _file(args, data, seen)
    if isinstance(data.get("tree"), list):
        rows = [
            [e.get("path", ""), e.get("type", ""), e.get("size", "")]
            for e in data["tree"]
            if isinstance(e, dict)
        ]
        return [table("tree", ["path", "type", "size"], rows)]
    if isinstance(data.get("files"), list) or isinstance(data.get("commits"), list):
        counts = [("status", data.get("status")), ("ahead by", data.get("ahead_by"))]
        head = fields(None, [*counts, ("behind by", data.get("behind_by"))])
        return [head, _commits("commits", data.get("commits") or []), *_patches(data.get("files") or [])]
    if "number" in data and "head" in data:
        return _pull(data)
    if isinstance(data.get("commit"), dict) and "name" in data:  # a branch
        return [fields("branch " + str(data["name"]), []), _commits("head commit", [data["commit"]])]
    if isinstance(data.get("content"), dict) and isinstance(data.get("commit"), dict):  # a file written
        commit = data["commit"]
        return [
            fields(
                "committed",
                [("path", data["content"].get("path")), ("commit", str(commit.get("sha", ""))[:12])],
            )
        ]
    if "ref" in data and isinstance(data.get("object"), dict):
        return [fields("reference", [("ref", data["ref"]), ("at", str(data["object"].get("sha", ""))[:12])])]
    return []


def _args(tool: str, args: dict[str, Any], seen: Seen) -> list[Shape]:
    if tool == "GITHUB_CREATE_OR_UPDATE_FILE_CONTENTS":
        return _written(args, seen)
    if tool == "GITHUB_CREATE_A_PULL_REQUEST":
        pairs = [
            ("title", args.get("title")),
            ("branches", f"{args.get('head', '')} → {args.get('base', '')}"),
        ]
        return [fields(None, pairs), *([text("body", args["body"])] if args.get("body") else [])]
    return []


def present(tool: str, args: dict[str, Any], data: Any, seen: Seen) -> tuple[list[Shape], list[Shape]]:
    args_view = _args(tool, args, seen)
    return args_view, [] if data is None else _result(tool, args, data, seen)
