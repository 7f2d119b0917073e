"""Gmail tools over the sandbox mailbox, with Composio's slugs, parameter names and defaults.

Schemas follow Composio's Gmail toolkit (version 0_1); GMAIL_SEND_EMAIL is not in the reference
dump and is modelled on GMAIL_CREATE_EMAIL_DRAFT's parameters (unconfirmed). As on Composio,
GMAIL_FETCH_EMAILS returns one message unless `max_results` says otherwise.
"""

from __future__ import annotations

import shlex
from collections.abc import Callable
from typing import Any

from pydantic import Field

from evals.tools.base import Params, ToolError, Toolkit
from evals.world.model import Message, World

TOOLS = Toolkit("gmail")
tool = TOOLS.tool

HIDDEN = {"TRASH", "SPAM"}


def render(message: Message, include_payload: bool = True) -> dict[str, Any]:
    data: dict[str, Any] = {
        "messageId": message.id,
        "threadId": message.thread_id,
        "sender": message.sender,
        "to": ", ".join(message.to),
        "subject": message.subject,
        "messageTimestamp": message.timestamp,
        "labelIds": list(message.labels),
        "preview": {"subject": message.subject, "body": message.body[:120]},
    }
    if message.cc:
        data["cc"] = ", ".join(message.cc)
    if include_payload:
        data["messageText"] = message.body
    return data


def _term(token: str) -> Callable[[Message], bool]:
    negate = token.startswith("-") and len(token) > 1
    token = token[1:] if negate else token
    key, _, value = token.partition(":")
    value_l = value.lower()
    test: Callable[[Message], bool]
    if value and key == "from":
        test = lambda m: value_l in m.sender.lower()  # noqa: E731
    elif value and key == "to":
        test = lambda m: any(value_l in a.lower() for a in [*m.to, *m.cc])  # noqa: E731
    elif value and key == "subject":
        test = lambda m: value_l in m.subject.lower()  # noqa: E731
    elif value and key in ("in", "label"):
        label = {"anywhere": ""}.get(value_l, value_l.upper())
        test = lambda m: not label or label in m.labels  # noqa: E731
    elif value and key == "is":
        test = {
            "unread": lambda m: "UNREAD" in m.labels,
            "read": lambda m: "UNREAD" not in m.labels,
            "starred": lambda m: "STARRED" in m.labels,
            "important": lambda m: "IMPORTANT" in m.labels,
        }.get(value_l, lambda m: False)
    elif value and key in ("after", "before"):
        day = value.replace("/", "-")
        test = (lambda m: m.timestamp[:10] >= day) if key == "after" else (lambda m: m.timestamp[:10] < day)
    else:
        word = token.lower()
        test = lambda m: word in f"{m.subject}\n{m.body}\n{m.sender}".lower()  # noqa: E731
    return (lambda m: not test(m)) if negate else test


def matcher(query: str | None) -> Callable[[Message], bool]:
    """A small Gmail query language: terms are ANDed, `OR` joins neighbours, `-` negates, quotes group."""
    if not query or not query.strip():
        return lambda m: True
    try:
        tokens = shlex.split(query)
    except ValueError as exc:
        raise ToolError(f"Invalid query: {exc}") from exc
    groups: list[list[Callable[[Message], bool]]] = []
    join_next = False
    for token in tokens:
        if token.upper() == "OR" and groups:
            join_next = True
            continue
        term = _term(token.strip("{}()"))
        if join_next:
            groups[-1].append(term)
        else:
            groups.append([term])
        join_next = False
    return lambda m: all(any(t(m) for t in group) for group in groups)


def _visible(message: Message, query: str | None, include_spam_trash: bool) -> bool:
    asked = (query or "").lower()
    if not include_spam_trash and "in:trash" not in asked and "in:spam" not in asked:
        return not HIDDEN.intersection(message.labels)
    return True


def _page(items: list[Any], token: str | None, size: int) -> tuple[list[Any], str | None]:
    try:
        start = int(token) if token else 0
    except ValueError as exc:
        raise ToolError(f"Invalid page_token {token!r}") from exc
    chunk = items[start : start + size]
    return chunk, (str(start + size) if start + size < len(items) else None)


def _newest_first(world: World) -> list[Message]:
    return sorted(world.mailbox.messages, key=lambda m: (m.timestamp, m.id), reverse=True)


class FetchEmails(Params):
    query: str | None = Field(
        default=None, description="Gmail search query, e.g. 'from:a@b.example is:unread'."
    )
    max_results: int = Field(default=1, ge=1, le=500, description="Messages per page.")
    page_token: str | None = Field(default=None, description="nextPageToken from a previous call.")
    label_ids: list[str] | None = Field(default=None, description="Only messages carrying all these labels.")
    include_payload: bool = Field(default=True, description="Include the message body.")
    include_spam_trash: bool = Field(default=False, description="Include SPAM and TRASH.")
    user_id: str = Field(default="me")
    # Newer Composio versions than the 0_1 reference add these two (names confirmed, shapes assumed):
    # accepting them keeps an agent written against the current toolkit working offline.
    verbose: bool = Field(default=True, description="False returns lighter messages without bodies.")
    ids_only: bool = Field(default=False, description="Return only message and thread ids.")


@tool("GMAIL_FETCH_EMAILS", FetchEmails)
def fetch_emails(world: World, p: FetchEmails) -> dict[str, Any]:
    """List messages in the mailbox, newest first, filtered by a Gmail search query and labels."""
    test = matcher(p.query)
    wanted = set(p.label_ids or [])
    found = [
        m
        for m in _newest_first(world)
        if _visible(m, p.query, p.include_spam_trash) and test(m) and wanted.issubset(m.labels)
    ]
    chunk, token = _page(found, p.page_token, p.max_results)
    messages = (
        [{"messageId": m.id, "threadId": m.thread_id} for m in chunk]
        if p.ids_only
        else [render(m, p.include_payload and p.verbose) for m in chunk]
    )
    return {
        "messages": messages,
        "nextPageToken": token,
        "resultSizeEstimate": len(found),
    }


class FetchMessage(Params):
    message_id: str = Field(description="Id of the message.")
    format: str = Field(default="full", description="full, minimal, raw or metadata.")
    user_id: str = Field(default="me")


@tool("GMAIL_FETCH_MESSAGE_BY_MESSAGE_ID", FetchMessage)
def fetch_message(world: World, p: FetchMessage) -> dict[str, Any]:
    """Fetch one message by its id."""
    for message in world.mailbox.messages:
        if message.id == p.message_id:
            return render(message, p.format != "minimal")
    raise ToolError(f"Requested entity was not found: message {p.message_id}")


class FetchThread(Params):
    thread_id: str = Field(description="Id of the thread.")
    page_token: str | None = Field(default=None)
    user_id: str = Field(default="me")


@tool("GMAIL_FETCH_MESSAGE_BY_THREAD_ID", FetchThread)
def fetch_thread(world: World, p: FetchThread) -> dict[str, Any]:
    """Fetch every message of a thread, oldest first."""
    messages = sorted(
        (m for m in world.mailbox.messages if m.thread_id == p.thread_id), key=lambda m: (m.timestamp, m.id)
    )
    if not messages:
        raise ToolError(f"Requested entity was not found: thread {p.thread_id}")
    return {"messages": [render(m) for m in messages]}


class ListThreads(Params):
    query: str | None = Field(default=None, description="Gmail search query.")
    max_results: int = Field(default=10, ge=1, le=500)
    page_token: str | None = Field(default=None)
    user_id: str = Field(default="me")


@tool("GMAIL_LIST_THREADS", ListThreads)
def list_threads(world: World, p: ListThreads) -> dict[str, Any]:
    """List threads with at least one message matching the query, most recent activity first."""
    test = matcher(p.query)
    order: list[str] = []
    latest: dict[str, Message] = {}
    for message in _newest_first(world):
        if _visible(message, p.query, False) and test(message) and message.thread_id not in latest:
            latest[message.thread_id] = message
            order.append(message.thread_id)
    chunk, token = _page(order, p.page_token, p.max_results)
    return {
        "threads": [{"id": t, "snippet": latest[t].body[:120], "subject": latest[t].subject} for t in chunk],
        "nextPageToken": token,
        "resultSizeEstimate": len(order),
    }


def _deliver(
    world: World,
    to: list[str],
    cc: list[str],
    subject: str,
    body: str,
    thread_id: str | None,
    in_reply_to: str | None,
) -> dict[str, Any]:
    for address in [*to, *cc]:
        if "@" not in address:
            raise ToolError(f"Invalid To header: {address!r}")
    stamp = world.tick()
    message_id = world.make_id("sent", world.clock)
    message = Message(
        id=message_id,
        thread_id=thread_id or world.make_id("thread-sent", world.clock),
        sender=world.agent_address,
        to=to,
        cc=cc,
        subject=subject,
        body=body,
        labels=["SENT"],
        timestamp=stamp,
        in_reply_to=in_reply_to,
    )
    world.mailbox.messages.append(message)
    return {"id": message.id, "threadId": message.thread_id, "labelIds": ["SENT"]}


class ReplyToThread(Params):
    thread_id: str = Field(description="Thread to reply in.")
    message_body: str = Field(description="Reply text (or HTML when is_html).")
    recipient_email: str = Field(description="Primary recipient.")
    cc: list[str] = Field(default_factory=list)
    bcc: list[str] = Field(default_factory=list)
    extra_recipients: list[str] = Field(default_factory=list)
    is_html: bool = Field(default=False)
    user_id: str = Field(default="me")


@tool("GMAIL_REPLY_TO_THREAD", ReplyToThread)
def reply_to_thread(world: World, p: ReplyToThread) -> dict[str, Any]:
    """Send a reply in an existing thread; the subject is taken from the thread."""
    thread = sorted(
        (m for m in world.mailbox.messages if m.thread_id == p.thread_id), key=lambda m: (m.timestamp, m.id)
    )
    if not thread:
        raise ToolError(f"Requested entity was not found: thread {p.thread_id}")
    subject = thread[0].subject if thread[0].subject.lower().startswith("re:") else f"Re: {thread[0].subject}"
    sent = _deliver(
        world,
        [p.recipient_email, *p.extra_recipients],
        [*p.cc, *p.bcc],
        subject,
        p.message_body,
        p.thread_id,
        thread[-1].id,
    )
    return {"response_data": sent}


class SendEmail(Params):
    recipient_email: str = Field(description="Primary recipient.")
    subject: str = Field(default="")
    body: str = Field(description="Message text (or HTML when is_html).")
    cc: list[str] = Field(default_factory=list)
    bcc: list[str] = Field(default_factory=list)
    extra_recipients: list[str] = Field(default_factory=list)
    is_html: bool = Field(default=False)
    user_id: str = Field(default="me")


@tool("GMAIL_SEND_EMAIL", SendEmail, confirmed=False)
def send_email(world: World, p: SendEmail) -> dict[str, Any]:
    """Send a new email (a new thread)."""
    return {
        "response_data": _deliver(
            world, [p.recipient_email, *p.extra_recipients], [*p.cc, *p.bcc], p.subject, p.body, None, None
        )
    }


class MoveToTrash(Params):
    message_id: str
    user_id: str = Field(default="me")


@tool("GMAIL_MOVE_TO_TRASH", MoveToTrash)
def move_to_trash(world: World, p: MoveToTrash) -> dict[str, Any]:
    """Move a message to the trash."""
    for message in world.mailbox.messages:
        if message.id == p.message_id:
            message.labels = [label for label in message.labels if label != "INBOX"] + ["TRASH"]
            world.tick()
            return {"id": message.id, "labelIds": message.labels}
    raise ToolError(f"Requested entity was not found: message {p.message_id}")
