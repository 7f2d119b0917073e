"""A tool call reads as what it is: a mail as a mail with its decoded body, a file as code and a write
as a diff against what the agent read, Notion rows as a table of their properties, blocks as blocks;
the raw JSON stays, without its base64.

The Gmail messages below are written from the Gmail API's documented `users.messages` resource
(a `payload` MessagePart tree, bodies as base64url `body.data`, headers as name/value pairs), not from
the sandbox; the tour runs every sandbox tool once, as an agent would.
"""

from __future__ import annotations

import asyncio
import base64
import json
import re
from typing import Any

import pytest

from evals.report.viewer.results import present
from evals.report.viewer.results.raw import elide_base64
from evals.report.viewer.results.shapes import Seen
from evals.report.viewer.timeline import bounded
from evals.scenario.load import load_scenario
from evals.world.live.tour import Call, Tour
from evals.world.sandbox.seed import seed
from evals.world.sandbox.tools.toolset import SandboxToolset
from tests.support.paths import ROOT

RUN = re.compile(r"[A-Za-z0-9+/_=-]{81,}")


def base64_runs(text: str) -> list[str]:
    """Runs of more than 80 base64 characters that decode to text (a URL's path is not one)."""
    found = []
    for run in RUN.findall(text):
        try:
            alt = b"-_" if "-" in run or "_" in run else None
            base64.b64decode(run + "=" * (-len(run) % 4), altchars=alt, validate=True).decode("utf-8")
        except ValueError:
            continue
        found.append(run)
    return found


def b64url(text: str) -> str:
    return base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")


def gmail_message(body: str, html: str | None = None, cc: str = "") -> dict[str, Any]:
    """A message as the Gmail API documents it: multipart/mixed holding multipart/alternative."""
    headers = [
        {"name": "From", "value": "Priya Sharma <priya.sharma@acme.example>"},
        {"name": "To", "value": "agent@acme.example"},
        {"name": "Subject", "value": "Quarterly numbers"},
        {"name": "Date", "value": "Mon, 14 Jul 2025 02:58:00 +0000"},
        *([{"name": "Cc", "value": cc}] if cc else []),
    ]
    parts = [{"partId": "0.0", "mimeType": "text/plain", "body": {"size": len(body), "data": b64url(body)}}]
    if html is not None:
        parts.append(
            {"partId": "0.1", "mimeType": "text/html", "body": {"size": len(html), "data": b64url(html)}}
        )
    alternative = {"partId": "0", "mimeType": "multipart/alternative", "body": {"size": 0}, "parts": parts}
    return {
        "messageId": "18f2a",
        "threadId": "18f29",
        "labelIds": ["INBOX"],
        "payload": {
            "mimeType": "multipart/mixed",
            "headers": headers,
            "body": {"size": 0},
            "parts": [alternative],
        },
    }


def envelope(data: Any) -> dict[str, Any]:
    return {"data": data, "successful": True, "error": None}


def test_a_fetched_mail_reads_as_a_mail_with_its_body_decoded_from_nested_mime_parts() -> None:
    body = "Hi,\n\nThe numbers are in the sheet. " + "More detail follows. " * 20
    message = gmail_message(body, "<p>ignored</p>", cc="alex.mercer@acme.example")
    _, (view,) = present(
        "GMAIL_FETCH_EMAILS", {"query": "in:inbox"}, envelope({"messages": [message]}), Seen()
    )
    (mail,) = view["messages"]
    assert view["kind"] == "mail" and mail["body"] == body and mail["note"] == ""
    assert (mail["from"], mail["cc"], mail["subject"], mail["thread"]) == (
        "Priya Sharma <priya.sharma@acme.example>",
        "alex.mercer@acme.example",
        "Quarterly numbers",
        "18f29",
    )
    # the raw JSON one click away keeps the structure, not the base64
    raw = json.dumps(elide_base64(message), ensure_ascii=False)
    assert (
        base64_runs(json.dumps(message))
        and not base64_runs(raw)
        and "‹base64, " in raw
        and '"mimeType": "text/plain"' in raw
    )


def test_an_html_only_mail_is_read_as_the_text_of_its_markup_never_as_markup() -> None:
    message = gmail_message("", None)
    part = message["payload"]["parts"][0]["parts"][0]
    part.update(
        mimeType="text/html", body={"data": b64url("<div>Ship it<br>on <b>Friday</b> &amp; tell Sam</div>")}
    )
    _, (view,) = present("GMAIL_FETCH_MESSAGE_BY_MESSAGE_ID", {}, envelope(message), Seen())
    (mail,) = view["messages"]
    assert mail["body"] == "Ship it\non Friday & tell Sam" and mail["note"] == "text of the HTML part"


def test_a_reply_reads_as_the_mail_that_left_with_the_subject_of_its_thread() -> None:
    seen = Seen()
    present("GMAIL_FETCH_EMAILS", {}, envelope({"messages": [gmail_message("Hi")]}), seen)
    args = {
        "thread_id": "18f29",
        "recipient_email": "priya.sharma@acme.example",
        "message_body": "Done.",
        "cc": ["x@acme.example"],
    }
    (sent,), _ = present("GMAIL_REPLY_TO_THREAD", args, envelope({"response_data": {"id": "1"}}), seen)
    (mail,) = sent["messages"]
    assert (mail["to"], mail["cc"], mail["subject"], mail["body"]) == (
        "priya.sharma@acme.example",
        "x@acme.example",
        "Re: Quarterly numbers",
        "Done.",
    )


def test_a_file_the_agent_wrote_is_a_diff_against_what_it_read() -> None:
    seen = Seen()
    repo = {"owner": "acme", "repo": "hydra-0"}
    old = "BUFFER = 512\nDEBUG = True\n"
    content = {
        "type": "file",
        "encoding": "base64",
        "path": "hydra/config.py",
        "content": base64.b64encode(old.encode()).decode(),
    }
    _, (read,) = present(
        "GITHUB_GET_REPOSITORY_CONTENT", {**repo, "path": "hydra/config.py"}, envelope(content), seen
    )
    assert (read["kind"], read["text"]) == ("code", old)
    new = base64.b64encode(b"BUFFER = 2048\nDEBUG = True\n").decode()
    args = {**repo, "path": "hydra/config.py", "content": new, "message": "fix: buffer", "branch": "fix/oom"}
    (head, change), _ = present("GITHUB_CREATE_OR_UPDATE_FILE_CONTENTS", args, envelope({}), seen)
    assert ["commit message", "fix: buffer"] in head["pairs"]
    assert change["kind"] == "diff" and "-BUFFER = 512\n+BUFFER = 2048" in change["text"]
    # a file it never read is shown whole
    (_, whole), _ = present(
        "GITHUB_CREATE_OR_UPDATE_FILE_CONTENTS", {**args, "path": "new.py"}, envelope({}), seen
    )
    assert whole["kind"] == "code" and whole["text"] == "BUFFER = 2048\nDEBUG = True\n"


def test_database_rows_read_as_a_table_of_their_properties_whatever_their_types() -> None:
    """Pages whose parent is a database, with the property types the Notion API documents."""

    def row(title: str, status: str, done: bool, due: str) -> dict[str, Any]:
        return {
            "object": "page",
            "id": "p-" + title,
            "parent": {"type": "database_id", "database_id": "db"},
            "properties": {
                "Task": {"id": "title", "type": "title", "title": [{"type": "text", "plain_text": title}]},
                "Status": {"id": "a", "type": "status", "status": {"name": status}},
                "Done": {"id": "b", "type": "checkbox", "checkbox": done},
                "Due": {"id": "c", "type": "date", "date": {"start": due, "end": None}},
                "Tags": {
                    "id": "d",
                    "type": "multi_select",
                    "multi_select": [{"name": "api"}, {"name": "v2"}],
                },
                "Points": {"id": "e", "type": "number", "number": 3},
                "Owner": {
                    "id": "f",
                    "type": "people",
                    "people": [{"object": "user", "id": "u1", "name": "Sam"}],
                },
            },
        }

    data = {
        "object": "list",
        "results": [
            row("Export CSV", "Done", True, "2025-07-14"),
            row("Fix OOM", "In progress", False, "2025-07-15"),
        ],
    }
    _, (table,) = present("NOTION_QUERY_DATABASE", {"database_id": "db"}, envelope(data), Seen())
    assert table["columns"] == ["title", "kind", "Status", "Done", "Due", "Tags", "Points", "Owner"]
    assert table["rows"][0] == ["Export CSV", "page", "Done", "☑", "2025-07-14", "api, v2", "3", "Sam"]
    assert table["rows"][1][:4] == ["Fix OOM", "page", "In progress", "☐"]


def test_notion_blocks_read_as_blocks_and_an_error_as_the_services_error() -> None:
    rich = [{"type": "text", "text": {"content": "Ship the fix"}}]
    children = [
        {"type": "to_do", "to_do": {"rich_text": rich, "checked": True}},
        {"type": "table_row", "table_row": {"cells": [rich, [{"plain_text": "Done"}]]}},
    ]
    (blocks,), _ = present(
        "NOTION_APPEND_TASK_BLOCKS", {"block_id": "p", "children": children}, envelope({}), Seen()
    )
    assert blocks["blocks"] == [
        {"type": "to_do", "text": "Ship the fix", "checked": True},
        {"type": "table_row", "text": "Ship the fix | Done", "cells": ["Ship the fix", "Done"]},
    ]
    failed = {"data": {}, "successful": False, "error": "Could not find block with ID: p"}
    _, view = present("NOTION_FETCH_BLOCK_CONTENTS", {"block_id": "p"}, failed, Seen())
    assert view == [{"kind": "error", "text": "Could not find block with ID: p"}]


@pytest.mark.parametrize(
    "result",
    [
        envelope({"messages": "not a list"}),
        envelope({"details": [1, None, "x"]}),
        envelope(
            {
                "results": [
                    {"object": "page", "properties": {"x": {"type": "rollup", "rollup": {"array": [1]}}}}
                ]
            }
        ),
        envelope("a plain string"),
        {"unexpected": True},
        envelope({"payload": {"parts": [{"body": {"data": "%%%"}}]}}),
    ],
)
def test_a_shape_no_presenter_knows_gives_no_view_and_never_fails(result: Any) -> None:
    for tool in ("GMAIL_FETCH_EMAILS", "GITHUB_LIST_COMMITS", "NOTION_SEARCH_NOTION_PAGE", "SLACK_SEND"):
        args_view, view = present(tool, {"x": [1]}, result, Seen())
        assert isinstance(args_view, list) and isinstance(view, list)


@pytest.fixture(scope="module")
def tour() -> list[Call]:
    scenario = load_scenario(ROOT / "scenario", "trial-run")
    toolset = SandboxToolset(seed(scenario, 0))
    return asyncio.run(Tour(toolset, "acme-ai-labs", "demo-repo-0", "sam.rivera@acme.example").run())


def test_every_sandbox_tool_gets_a_view_and_no_view_or_raw_json_holds_base64(tour: list[Call]) -> None:
    seen = Seen()
    silent = []
    for call in tour:
        args_view, view = present(call.slug, call.args, call.result, seen)
        if not view and not args_view:
            silent.append(call.slug)
        shown = json.dumps(
            [args_view, view, bounded(call.args, "t"), bounded(call.result, "t")], ensure_ascii=False
        )
        assert not base64_runs(shown), call.slug
    assert silent == []
    views = [present(call.slug, call.args, call.result, Seen()) for call in tour]
    kinds = {s["kind"] for args_view, view in views for s in [*args_view, *view]}
    assert {"mail", "code", "diff", "table", "blocks", "fields"} <= kinds


def test_a_blind_copy_is_shown_as_bcc_not_as_cc() -> None:
    """Composio's GMAIL_SEND_EMAIL takes `cc` and `bcc` apart; a reader of the timeline must see
    who was copied openly and who blindly (a do-not-share task turns on it)."""
    args = {
        "recipient_email": "nora@example.com",
        "cc": ["dev@example.com"],
        "bcc": ["outsider@example.org"],
        "subject": "Status",
        "message_body": "All done.",
    }
    (sent,), _ = present("GMAIL_SEND_EMAIL", args, None, Seen())
    shown = json.dumps(sent)
    assert '"cc": "dev@example.com"' in shown
    assert '"bcc": "outsider@example.org"' in shown
