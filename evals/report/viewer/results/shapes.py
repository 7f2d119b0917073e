"""The few shapes a call is shown as, and what earlier calls showed.

Each shape is a plain JSON object with a `kind`; the page (page.js) and the no-JavaScript part
(evals/report/viewer/static.py) each draw every kind, always as text:

    mail    {messages: [{from, to, cc, subject, date, thread, labels, body, note}]}
    code    {title, text}                 a file, as code
    diff    {title, text}                 a unified diff (lines starting + and - coloured)
    table   {title, columns, rows}        database rows, commits, branches, search results
    blocks  {title, blocks: [{type, text, checked, cells}]}    Notion blocks, as blocks
    fields  {title, pairs: [[name, value]]}                    a pull request, a branch, a page's head
    text    {title, text}                 a pull request's body, a commit message
    error   {text}                        the service's error

Strings are cut (`TEXT_LIMIT`, `CODE_LIMIT`) so one call cannot swell the page; the whole is in the
trial's transcript.json.
"""

from __future__ import annotations

import base64
import binascii
from dataclasses import dataclass, field
from typing import Any

Shape = dict[str, Any]
TEXT_LIMIT = 8_000
CODE_LIMIT = 20_000
ROWS_LIMIT = 200


def cut(text: Any, limit: int = TEXT_LIMIT) -> str:
    text = "" if text is None else str(text)
    return text if len(text) <= limit else f"{text[:limit]}… [{len(text) - limit} more characters]"


def mail(messages: list[dict[str, Any]]) -> Shape:
    return {"kind": "mail", "messages": messages}


def code(title: str, text: str) -> Shape:
    return {"kind": "code", "title": title, "text": cut(text, CODE_LIMIT)}


def diff(title: str, text: str) -> Shape:
    return {"kind": "diff", "title": title, "text": cut(text, CODE_LIMIT)}


def table(title: str | None, columns: list[str], rows: list[list[Any]]) -> Shape:
    shown = [[cut(c, 500) for c in row] for row in rows[:ROWS_LIMIT]]
    more = f" (first {ROWS_LIMIT} of {len(rows)})" if len(rows) > ROWS_LIMIT else ""
    return {"kind": "table", "title": (title or "") + more or None, "columns": columns, "rows": shown}


def blocks(title: str | None, items: list[dict[str, Any]]) -> Shape:
    return {"kind": "blocks", "title": title, "blocks": items[:ROWS_LIMIT]}


def fields(title: str | None, pairs: list[tuple[str, Any]]) -> Shape:
    shown = [[name, cut(value, 500)] for name, value in pairs if value not in (None, "", [])]
    return {"kind": "fields", "title": title, "pairs": shown}


def text(title: str, body: Any) -> Shape:
    return {"kind": "text", "title": title, "text": cut(body)}


def error(message: str) -> Shape:
    return {"kind": "error", "text": cut(message, 2_000)}


def obj(value: Any) -> dict[str, Any]:
    """`value` when it is a JSON object, else an empty one: results are read as they come."""
    return value if isinstance(value, dict) else {}


def decode_base64(value: Any) -> str | None:
    """The UTF-8 text a base64 (standard or URL-safe, padded or not, wrapped or not) string holds;
    None when it is not base64 of text."""
    if not isinstance(value, str):
        return None
    compact = "".join(value.split())
    alt = b"-_" if ("-" in compact or "_" in compact) else None
    try:
        raw = base64.b64decode(compact + "=" * (-len(compact) % 4), altchars=alt, validate=True)
        return raw.decode("utf-8")
    except (binascii.Error, ValueError):
        return None


@dataclass
class Seen:
    """What earlier calls of the same trial showed: files by (repo, path) as the agent read them,
    so a write reads as a diff; mail subjects by thread, so a reply says what it answers."""

    files: dict[tuple[str, str], str] = field(default_factory=dict)
    threads: dict[str, str] = field(default_factory=dict)
