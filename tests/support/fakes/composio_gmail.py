"""The fake Composio's Gmail tools, over the universe's mailbox.

Messages are built as the Gmail API holds them (a MIME payload: headers, a text/plain and a
text/html part, base64url bodies) and handed out the way Composio's Gmail tools reshape them
(`messageId`, `threadId`, `labelIds`, `sender`, `to`, `subject`, `messageTimestamp`,
`messageText`, `preview`, `payload`, `attachmentList`). The sender's copy of a mail keeps its Bcc
header, as Gmail's does. Thread listings are Gmail's thread resources (`id`, `snippet`,
`historyId`) under `threads`, with `next_page_token`; a trashed message comes back as `email`.
Labels are Gmail's label resources (`id`, `name`, `type`, and for a user label its visibility
settings): the system labels always exist, a user label is made by GMAIL_CREATE_LABEL with an id
`Label_<n>` (a name already taken is refused, as Gmail's 409), GMAIL_DELETE_LABEL deletes a user
label and takes it off every message, and a message cannot be
given a label that does not exist. As Composio's Gmail docs (20260721_00) say, the label tools do not
move mail in or out of TRASH or SPAM: GMAIL_UNTRASH_MESSAGE takes a message out of the trash.
Parameters are that version's: a send or a reply needs a recipient (recipient_email, also `to` for
a send, cc or bcc), a send a subject or a body.
"""

from __future__ import annotations

import base64
import re
import shlex
from datetime import UTC, datetime
from email.utils import format_datetime
from typing import Any

from evals.world.sandbox.model import Message
from tests.support.fakes import Universe

DOMAIN = "mail.gmail-fake.example"
# Gmail's system labels (users.labels.list on a new mailbox).
SYSTEM_LABELS = (
    "CHAT",
    "SENT",
    "INBOX",
    "IMPORTANT",
    "TRASH",
    "DRAFT",
    "SPAM",
    "CATEGORY_FORUMS",
    "CATEGORY_UPDATES",
    "CATEGORY_PERSONAL",
    "CATEGORY_PROMOTIONS",
    "CATEGORY_SOCIAL",
    "STARRED",
    "UNREAD",
)


class GmailFailed(Exception):
    """What Gmail refused: Composio reports it as an unsuccessful result."""


def unprefixed(thread_id: str) -> str:
    """A thread id without the `msg-f:` / `thread-f:` prefix Composio strips."""
    for prefix in ("msg-f:", "thread-f:"):
        thread_id = thread_id.removeprefix(prefix)
    return thread_id


def b64url(text: str) -> str:
    return base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")


class ComposioGmail:
    def __init__(self, universe: Universe) -> None:
        self.universe = universe
        self.bcc: dict[str, list[str]] = {}  # message id -> Bcc addresses (kept on the sender's copy)
        self.labels: dict[str, dict[str, Any]] = {}  # user label id -> Gmail's label resource
        self.made_labels = 0

    # -- Gmail's side ----------------------------------------------------------------------------

    def headers(self, m: Message) -> list[dict[str, str]]:
        stamp = datetime.strptime(m.timestamp, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC)
        pairs = [
            ("Received", f"by {DOMAIN}; {format_datetime(stamp)}"),
            ("MIME-Version", "1.0"),
            ("Date", format_datetime(stamp)),
            ("Message-ID", f"<{m.id}@{DOMAIN}>"),
            ("Subject", m.subject),
            ("From", m.sender),
            ("To", ", ".join(m.to)),
        ]
        if m.cc:
            pairs.append(("Cc", ", ".join(m.cc)))
        if self.bcc.get(m.id):
            pairs.append(("Bcc", ", ".join(self.bcc[m.id])))
        if m.in_reply_to:
            pairs += [
                ("In-Reply-To", f"<{m.in_reply_to}@{DOMAIN}>"),
                ("References", f"<{m.in_reply_to}@{DOMAIN}>"),
            ]
        pairs.append(("Content-Type", 'multipart/alternative; boundary="000000000000fake"'))
        return [{"name": n, "value": v} for n, v in pairs]

    def payload(self, m: Message, body: bool) -> dict[str, Any]:
        part: dict[str, Any] = {
            "partId": "",
            "mimeType": "multipart/alternative",
            "filename": "",
            "headers": self.headers(m),
            "body": {"size": 0},
        }
        if body:
            markup = (
                '<div dir="ltr">'
                + m.body.replace("&", "&amp;").replace("<", "&lt;").replace("\n", "<br>")
                + "</div>"
            )
            part["parts"] = [
                {
                    "partId": str(n),
                    "mimeType": mime,
                    "filename": "",
                    "headers": [{"name": "Content-Type", "value": f'{mime}; charset="UTF-8"'}],
                    "body": {"size": len(text.encode()), "data": b64url(text)},
                }
                for n, (mime, text) in enumerate([("text/plain", m.body), ("text/html", markup)])
            ]
        return part

    # -- Composio's reshaping --------------------------------------------------------------------

    def message(self, m: Message, detail: str = "full") -> dict[str, Any]:
        return {
            "messageId": m.id,
            "threadId": m.thread_id,
            "labelIds": list(m.labels),
            "messageTimestamp": m.timestamp,
            "sender": m.sender,
            "to": ", ".join(m.to),
            "subject": m.subject,
            "messageText": m.body if detail == "full" else None,
            "preview": {"subject": m.subject, "body": " ".join(m.body.split())[:200]},
            "payload": self.payload(m, detail == "full") if detail in ("full", "metadata") else None,
            "attachmentList": [],
        }

    def matches(self, m: Message, query: str) -> bool:
        for token in shlex.split(query or ""):
            negate = token.startswith("-")
            key, _, value = token.lstrip("-").partition(":")
            value = value.lower()
            if value and key == "in":
                hit = value.upper() in m.labels or value == "anywhere"
            elif value and key == "from":
                hit = value in m.sender.lower()
            elif value and key == "to":
                hit = any(value in a.lower() for a in [*m.to, *m.cc])
            elif value and key == "subject":
                hit = value in m.subject.lower()
            elif value and key == "is":
                hit = {"unread": "UNREAD" in m.labels, "read": "UNREAD" not in m.labels}.get(value, False)
            else:
                hit = token.lstrip("-").lower() in f"{m.subject} {m.body} {m.sender}".lower()
            if hit == negate:
                return False
        return True

    def found(self, query: str, labels: list[str], spam_trash: bool) -> list[Message]:
        asked = (query or "").lower()
        hide = not spam_trash and "in:trash" not in asked and "in:spam" not in asked
        out = [
            m
            for m in self.universe.world.mailbox.messages
            if not (hide and {"TRASH", "SPAM"} & set(m.labels))
            and set(labels) <= set(m.labels)
            and self.matches(m, query)
        ]
        return sorted(out, key=lambda m: (m.timestamp, m.id), reverse=True)

    def by_id(self, message_id: str) -> Message:
        for m in self.universe.world.mailbox.messages:
            if m.id == message_id:
                return m
        raise GmailFailed(f"<HttpError 404 'Requested entity was not found.'> message {message_id}")

    def thread(self, thread_id: str) -> list[Message]:
        found = sorted(
            (m for m in self.universe.world.mailbox.messages if m.thread_id == thread_id),
            key=lambda m: (m.timestamp, m.id),
        )
        if not found:
            raise GmailFailed(f"<HttpError 404 'Requested entity was not found.'> thread {thread_id}")
        return found

    def send(self, a: dict[str, Any], subject: str, thread: str | None, reply_to: str | None) -> Message:
        world = self.universe.world
        first = a.get("recipient_email") or a.get("to")
        if not (first or a.get("cc") or a.get("bcc")):
            raise GmailFailed("At least one of 'to'/'recipient_email', 'cc', or 'bcc' must be provided")
        to = [str(first), *a.get("extra_recipients", [])] if first else list(a.get("extra_recipients", []))
        for address in [*to, *a.get("cc", []), *a.get("bcc", [])]:
            if not re.fullmatch(r"[^@\s]+@[^@\s]+", address):
                raise GmailFailed(f"<HttpError 400 'Invalid To header'> {address!r}")
        stamp = world.tick()
        message = Message(
            id=world.make_id("gmail-fake-sent", world.clock),
            thread_id=thread or world.make_id("gmail-fake-thread", world.clock),
            sender=world.agent_address,
            to=to,
            cc=list(a.get("cc", [])),
            subject=subject,
            body=str(a.get("body") or a.get("message_body") or ""),
            labels=["SENT"],
            timestamp=stamp,
            in_reply_to=reply_to,
        )
        self.bcc[message.id] = list(a.get("bcc", []))
        world.mailbox.messages.append(message)
        return message

    def run(self, slug: str, a: dict[str, Any]) -> dict[str, Any]:
        if slug == "GMAIL_FETCH_EMAILS":
            found = self.found(
                a.get("query") or "", a.get("label_ids") or [], a.get("include_spam_trash", False)
            )
            start = int(a.get("page_token") or 0)
            size = int(a.get("max_results", 1))
            chunk = found[start : start + size]
            detail = "full" if a.get("include_payload", True) else "metadata"
            if a.get("verbose") is False:
                detail = "none"
            messages = (
                [{"messageId": m.id, "threadId": m.thread_id} for m in chunk]
                if a.get("ids_only")
                else [self.message(m, detail) for m in chunk]
            )
            more = start + size < len(found)
            return {
                "messages": messages,
                "nextPageToken": str(start + size) if more else "",
                "resultSizeEstimate": len(found),
            }
        if slug == "GMAIL_FETCH_MESSAGE_BY_MESSAGE_ID":
            detail = {"minimal": "none", "metadata": "metadata"}.get(str(a.get("format")), "full")
            return self.message(self.by_id(a["message_id"]), detail)
        if slug == "GMAIL_FETCH_MESSAGE_BY_THREAD_ID":
            return {"messages": [self.message(m) for m in self.thread(unprefixed(a["thread_id"]))]}
        if slug == "GMAIL_LIST_THREADS":
            latest: dict[str, Message] = {}
            for m in self.found(a.get("query") or "", [], False):
                latest.setdefault(m.thread_id, m)
            start, size = int(a.get("page_token") or 0), int(a.get("max_results", 10))
            ids = list(latest)[start : start + size]
            threads = []
            for n, t in enumerate(ids):
                thread = {
                    "id": t,
                    "snippet": " ".join(latest[t].body.split())[:200],
                    "historyId": str(900000 + n),
                }
                if a.get("verbose"):
                    thread["messages"] = [self.message(m) for m in self.thread(t)]
                threads.append(thread)
            out: dict[str, Any] = {"threads": threads}
            if start + size < len(latest):
                out["next_page_token"] = str(start + size)
            return out
        if slug == "GMAIL_REPLY_TO_THREAD":
            thread_id = unprefixed(a["thread_id"])
            thread = self.thread(thread_id)
            subject = (
                thread[0].subject
                if thread[0].subject.lower().startswith("re:")
                else f"Re: {thread[0].subject}"
            )
            sent = self.send({**a, "body": a.get("message_body")}, subject, thread_id, thread[-1].id)
            return {"response_data": {"id": sent.id, "threadId": sent.thread_id, "labelIds": sent.labels}}
        if slug == "GMAIL_SEND_EMAIL":
            if not (a.get("subject") or a.get("body")):
                raise GmailFailed("Either subject or body must be provided")
            sent = self.send(a, str(a.get("subject") or ""), None, None)
            return {"response_data": {"id": sent.id, "threadId": sent.thread_id, "labelIds": sent.labels}}
        if slug == "GMAIL_MOVE_TO_TRASH":
            m = self.by_id(a["message_id"])
            m.labels = [label for label in m.labels if label != "INBOX"] + ["TRASH"]
            self.universe.world.tick()
            return {"email": {"id": m.id, "threadId": m.thread_id, "labelIds": list(m.labels)}}
        if slug == "GMAIL_UNTRASH_MESSAGE":
            m = self.by_id(a["message_id"])
            if "TRASH" in m.labels:
                m.labels = [label for label in m.labels if label != "TRASH"]
                if "SENT" not in m.labels and "INBOX" not in m.labels:
                    m.labels.insert(0, "INBOX")
            self.universe.world.tick()
            return {"id": m.id, "threadId": m.thread_id, "labelIds": list(m.labels)}
        if slug == "GMAIL_ADD_LABEL_TO_EMAIL":
            m = self.by_id(a["message_id"])
            for label in [*(a.get("add_label_ids") or []), *(a.get("remove_label_ids") or [])]:
                if label in ("TRASH", "SPAM"):
                    raise GmailFailed(f"<HttpError 400 'Invalid label: {label} cannot be added or removed'>")
                if label not in SYSTEM_LABELS and label not in self.labels:
                    raise GmailFailed(f"<HttpError 400 'Invalid label: {label}'>")
            removed = set(a.get("remove_label_ids") or [])
            labels = [label for label in m.labels if label not in removed]
            labels += [label for label in a.get("add_label_ids") or [] if label not in labels]
            m.labels = labels
            self.universe.world.tick()
            return {"response_data": {"id": m.id, "threadId": m.thread_id, "labelIds": labels}}
        if slug == "GMAIL_LIST_LABELS":
            system = [{"id": label, "name": label, "type": "system"} for label in SYSTEM_LABELS]
            return {"labels": [*system, *self.labels.values()]}
        if slug == "GMAIL_CREATE_LABEL":
            name = str(a["label_name"]).strip()
            taken = {label.lower() for label in SYSTEM_LABELS} | {
                str(label["name"]).lower() for label in self.labels.values()
            }
            if not name or name.lower() in taken:
                raise GmailFailed("<HttpError 409 'Label name exists or conflicts'>")
            self.made_labels += 1
            label = {
                "id": f"Label_{self.made_labels}",
                "name": name,
                "type": "user",
                "messageListVisibility": a.get("message_list_visibility", "show"),
                "labelListVisibility": a.get("label_list_visibility", "labelShow"),
            }
            self.labels[label["id"]] = label
            return {"response_data": label}
        if slug == "GMAIL_DELETE_LABEL":
            label_id = str(a["label_id"])
            if label_id in SYSTEM_LABELS:
                raise GmailFailed("<HttpError 400 'Invalid delete request'>")
            if self.labels.pop(label_id, None) is None:
                raise GmailFailed(f"<HttpError 404 'Not Found'> label {label_id}")
            for m in self.universe.world.mailbox.messages:
                m.labels = [label for label in m.labels if label != label_id]
            return {"success": True}
        raise GmailFailed(f"the fake has no Gmail tool {slug}")
