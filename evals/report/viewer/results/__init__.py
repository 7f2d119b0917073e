"""A tool call's arguments and result shown as what they are, not as the JSON the service returned.

A fetched mail is a JSON tree with its body as base64 MIME parts; a file is base64; a Notion page is
nested rich text. A reviewer reads a mail as a mail (from, to, subject, date, its decoded body), a
file as code and a change to it as a diff, Notion blocks as blocks and database rows as a table. So
each call gets `args_view` and `view`: lists of a few display shapes (`evals.report.viewer.results.shapes`)
that the page draws with `textContent` and the no-JavaScript part draws as escaped HTML. The raw JSON
stays one click away, with every long base64 string replaced by a note (`raw.elide_base64`).

    mail     Gmail: messages (and the mail the agent sent) decoded from their MIME parts
    code     GitHub: files as code, a file the agent wrote as a diff against what it read, commits,
             pull requests, compares
    notion   Notion: pages by their properties, database rows as a table, blocks as blocks
    raw      the raw JSON with base64 strings elided
    shapes   the few display shapes a call is shown as, and what earlier calls showed

The presenters read the Composio shapes the sandbox returns (evals/world/sandbox/tools/*.py) by their
shape where they can, so a new tool that returns a known shape reads well too. A shape they do not
know gives no view (the raw JSON shows), and a presenter that trips over an odd result is caught
here: the page never fails for one strange call.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from evals.report.viewer.results import code, mail, notion
from evals.report.viewer.results.shapes import Seen, Shape, error

Presenter = Callable[[str, dict[str, Any], Any, Seen], tuple[list[Shape], list[Shape]]]
PRESENTERS: dict[str, Presenter] = {
    "GMAIL_": mail.present,
    "GITHUB_": code.present,
    "NOTION_": notion.present,
}


def present(tool: str, args: dict[str, Any], result: Any, seen: Seen) -> tuple[list[Shape], list[Shape]]:
    """(args_view, view) for one call; `seen` carries what earlier calls showed (files read, mail
    threads) so a later one can be read against it."""
    envelope = result if isinstance(result, dict) else {}
    failed = envelope.get("successful") is False or bool(envelope.get("error"))
    presenter = next((p for prefix, p in PRESENTERS.items() if tool.startswith(prefix)), None)
    args_view: list[Shape] = []
    view: list[Shape] = []
    if presenter is not None:
        try:
            args_view, view = presenter(tool, args, None if failed else envelope.get("data"), seen)
        except (KeyError, TypeError, ValueError, AttributeError, IndexError):
            args_view, view = [], []  # an odd shape: the raw JSON is there
    if failed:
        view = [error(str(envelope.get("error") or "the call failed"))]
    return args_view, view
