"""Gmail calls as mail: who wrote to whom, the subject, the date, the thread and the decoded body.

A Composio message carries its headers in `payload.headers` and its body as base64url MIME parts
(text/plain and text/html, possibly nested under multipart/mixed); `messageText` is the text
Composio extracted. The body shown is the text/plain part decoded, else `messageText`, else the HTML
part's text with its tags dropped (shown as text, never rendered). Sending and replying are shown as
the mail that left, a reply with the subject of the thread it answers when an earlier call showed it.
"""

from __future__ import annotations

import html
import re
from typing import Any

from evals.report.viewer.results.shapes import Seen, Shape, cut, decode_base64, fields, mail, table

_TAG = re.compile(r"<[^>]*>")
_BREAK = re.compile(r"<br\s*/?>|</p>|</div>", re.IGNORECASE)


def _headers(payload: Any) -> dict[str, str]:
    if not isinstance(payload, dict):
        return {}
    return {str(h.get("name", "")).lower(): str(h.get("value", "")) for h in payload.get("headers") or []}


def _parts(payload: Any) -> list[dict[str, Any]]:
    """Every leaf MIME part, depth first (a message part may nest multiparts)."""
    if not isinstance(payload, dict):
        return []
    children = payload.get("parts") or []
    if not children:
        return [payload]
    return [leaf for child in children for leaf in _parts(child)]


def _body_of(part: dict[str, Any]) -> str | None:
    body = part.get("body") or {}
    return decode_base64(body.get("data")) if isinstance(body, dict) else None


def body(message: dict[str, Any]) -> tuple[str, str]:
    """(the body as text, a note on where it came from when it is not the plain-text part)."""
    leaves = _parts(message.get("payload"))
    for leaf in leaves:
        if str(leaf.get("mimeType", "")).startswith("text/plain") and (text := _body_of(leaf)) is not None:
            return text, ""
    if message.get("messageText"):
        return str(message["messageText"]), ""
    for leaf in leaves:
        if str(leaf.get("mimeType", "")).startswith("text/html") and (markup := _body_of(leaf)) is not None:
            return html.unescape(_TAG.sub("", _BREAK.sub("\n", markup))).strip(), "text of the HTML part"
    preview = message.get("preview")
    if isinstance(preview, dict) and preview.get("body"):
        return str(preview["body"]), "preview only: the body was not fetched"
    return "", "no body in this result (headers only)"


def message_view(message: dict[str, Any], seen: Seen) -> dict[str, Any]:
    head = _headers(message.get("payload"))
    text, note = body(message)
    thread = str(message.get("threadId") or "")
    subject = head.get("subject") or str(message.get("subject") or "")
    if thread and subject and thread not in seen.threads:
        seen.threads[thread] = subject
    return {
        "from": head.get("from") or str(message.get("sender") or ""),
        "to": head.get("to") or str(message.get("to") or ""),
        "cc": head.get("cc", ""),
        "bcc": head.get("bcc", ""),  # only on the sender's own copy, as Gmail keeps it
        "subject": subject,
        "date": head.get("date") or str(message.get("messageTimestamp") or ""),
        "thread": thread,
        "labels": ", ".join(str(label) for label in message.get("labelIds") or []),
        "body": cut(text),
        "note": note,
    }


def _messages(data: Any) -> list[dict[str, Any]] | None:
    if isinstance(data, dict) and isinstance(data.get("messages"), list):
        return [m for m in data["messages"] if isinstance(m, dict)]
    if isinstance(data, dict) and ("messageId" in data or "payload" in data):
        return [data]
    return None


def _by_thread(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Messages of one thread together, threads in the order they first appear."""
    order: dict[str, list[dict[str, Any]]] = {}
    for m in messages:
        order.setdefault(str(m.get("threadId") or m.get("messageId") or id(m)), []).append(m)
    return [m for group in order.values() for m in group]


def _outgoing(tool: str, args: dict[str, Any], seen: Seen) -> list[Shape]:
    """The mail the agent sent, as it left."""
    to = [args.get("recipient_email"), *(args.get("extra_recipients") or [])]
    subject = args.get("subject")
    thread = str(args.get("thread_id") or "")
    if tool == "GMAIL_REPLY_TO_THREAD":
        answered = seen.threads.get(thread)
        subject = f"Re: {answered}" if answered and not answered.lower().startswith("re:") else answered
    sent = {
        "from": "the agent",
        "to": ", ".join(str(a) for a in to if a),
        "cc": ", ".join(str(a) for a in args.get("cc") or []),
        "bcc": ", ".join(str(a) for a in args.get("bcc") or []),  # a blind copy shown as one
        "subject": subject or "",
        "date": "",
        "thread": thread,
        "labels": "",
        "body": cut(args.get("message_body") or args.get("body") or ""),
        "note": "HTML body, shown as text" if args.get("is_html") else "",
    }
    return [mail([sent])]


def present(tool: str, args: dict[str, Any], data: Any, seen: Seen) -> tuple[list[Shape], list[Shape]]:
    args_view = _outgoing(tool, args, seen) if tool in ("GMAIL_SEND_EMAIL", "GMAIL_REPLY_TO_THREAD") else []
    if data is None:
        return args_view, []
    messages = _messages(data)
    if messages is not None:
        return args_view, [mail([message_view(m, seen) for m in _by_thread(messages)])]
    if isinstance(data, dict) and isinstance(data.get("threads"), list):
        rows = [[t.get("id", ""), t.get("snippet", "")] for t in data["threads"] if isinstance(t, dict)]
        return args_view, [table("threads", ["thread", "latest message"], rows)]
    for key, title in (("response_data", "sent"), ("email", "message now")):
        found = data.get(key) if isinstance(data, dict) else None
        if isinstance(found, dict):
            labels = ", ".join(str(label) for label in found.get("labelIds") or [])
            pairs = [("message", found.get("id")), ("thread", found.get("threadId")), ("labels", labels)]
            return args_view, [fields(title, pairs)]
    return args_view, []
