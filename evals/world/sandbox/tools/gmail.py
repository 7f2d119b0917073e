"""Gmail tools over the sandbox mailbox, with Composio's slugs, parameters, defaults and result shapes.

Parameters are those of Composio's Gmail toolkit docs page at the pinned version 20260721_00
(tests/fixtures/composio/docs/gmail_20260721_00.json): GMAIL_SEND_EMAIL takes no required
parameter but wants a recipient (`recipient_email`, also `to`, or cc or bcc) and a subject or a
body, and `from_email` (a verified send-as alias); GMAIL_REPLY_TO_THREAD needs only `thread_id`
and a recipient (`recipient_email`, cc or bcc), its body optional; GMAIL_LIST_THREADS takes
`verbose` (the threads' messages too). Result shapes are the 0_1 dump's where it has the tool,
else designed (the page documents only the envelope).

A message is Composio's: `messageId`, `threadId`, `labelIds`, `sender`, `to`, `subject`,
`messageTimestamp`, `messageText`, `preview` and `attachmentList`, plus `payload`, the Gmail API
message part with every header (From, To, Cc, Bcc on sent mail, Subject, Date, Message-ID,
In-Reply-To, References...) and the body as text/plain and text/html parts, base64url-encoded.
There is no `cc` field: Cc is a header, as live, and so is Bcc on the sender's own copy (Bcc
recipients are kept as Bcc, never as Cc: nobody else's copy names them). As on
Composio, GMAIL_FETCH_EMAILS returns one message unless `max_results` says otherwise, and a whole
mailbox with payloads is large.
"""

from __future__ import annotations

import base64
import html
from datetime import UTC, datetime
from email.utils import format_datetime
from typing import Any, Literal

from pydantic import AliasChoices, Field
from pydantic.json_schema import SkipJsonSchema

from evals.world.sandbox.model import Message, World
from evals.world.sandbox.tools import gmail_search
from evals.world.sandbox.tools.base import Params, Toolkit
from evals.world.toolset import ToolError

# Gmail sends a message of at most 25 MB, headers, body and attachments together (Gmail Help, "Send
# attachments with your Gmail message": "You can send up to 25 MB in attachments"; a larger one is
# refused). The sandbox has no attachments, so the subject and the body count.
MAX_MESSAGE_BYTES = 25 * 1024 * 1024

TOOLS = Toolkit("gmail")
tool = TOOLS.tool

HIDDEN = {"TRASH", "SPAM"}
MAIL_DOMAIN = "mail.sandbox.example"
Detail = Literal["full", "metadata", "minimal", "none"]
FORMATS = ("full", "metadata", "minimal", "raw")
THREAD_PREFIXES = ("msg-f:", "thread-f:")  # stripped from a thread id, as Composio strips them


def _b64url(text: str) -> str:
    return base64.urlsafe_b64encode(text.encode("utf-8")).decode().rstrip("=")


def _date(stamp: str) -> str:
    return format_datetime(datetime.strptime(stamp, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC))


def headers(message: Message) -> list[dict[str, str]]:
    """The message's headers as Gmail lists them (name, value), in the order a mail client writes."""
    out = [
        ("MIME-Version", "1.0"),
        ("Date", _date(message.timestamp)),
        ("Message-ID", f"<{message.id}@{MAIL_DOMAIN}>"),
        ("Subject", message.subject),
        ("From", message.sender),
        ("To", ", ".join(message.to)),
    ]
    if message.cc:
        out.append(("Cc", ", ".join(message.cc)))
    if message.bcc:  # only the sender's copy has Bcc: nobody else sees it
        out.append(("Bcc", ", ".join(message.bcc)))
    if message.in_reply_to:
        reference = f"<{message.in_reply_to}@{MAIL_DOMAIN}>"
        out += [("In-Reply-To", reference), ("References", reference)]
    out.append(("Content-Type", 'multipart/alternative; boundary="sandbox"'))
    return [{"name": name, "value": value} for name, value in out]


def payload(message: Message, detail: Detail) -> dict[str, Any] | None:
    """The Gmail API message part: headers, and (full) the body as plain text and HTML parts."""
    if detail in ("minimal", "none"):
        return None
    part: dict[str, Any] = {
        "partId": "",
        "mimeType": "multipart/alternative",
        "filename": "",
        "headers": headers(message),
        "body": {"size": 0},
    }
    if detail == "full":
        markup = '<div dir="ltr">' + html.escape(message.body).replace("\n", "<br>") + "</div>"
        part["parts"] = [
            {
                "partId": str(index),
                "mimeType": mime,
                "filename": "",
                "headers": [{"name": "Content-Type", "value": f'{mime}; charset="UTF-8"'}],
                "body": {"size": len(text.encode()), "data": _b64url(text)},
            }
            for index, (mime, text) in enumerate([("text/plain", message.body), ("text/html", markup)])
        ]
    return part


def snippet(message: Message) -> str:
    return " ".join(message.body.split())[:200]


def render(message: Message, detail: Detail = "full") -> dict[str, Any]:
    """A message as Composio returns it; `detail` drops the body ("metadata": headers only) or the
    payload too ("minimal"), as `include_payload=false`, `verbose=false` and `format` ask."""
    return {
        "messageId": message.id,
        "threadId": message.thread_id,
        "labelIds": list(message.labels),
        "sender": message.sender,
        "to": ", ".join(message.to),
        "subject": message.subject,
        "messageTimestamp": message.timestamp,
        "messageText": message.body if detail == "full" else None,
        "preview": {"subject": message.subject, "body": snippet(message)},
        "payload": payload(message, detail),
        "attachmentList": [],
    }


def mailbox(world: World) -> gmail_search.Mailbox:
    """What a search is answered against: the owner, the sandbox clock's now, sizes and ids."""
    now = datetime.strptime(world.at(world.clock), "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC)
    return gmail_search.Mailbox(
        owner=world.agent_address,
        now=now,
        size=lambda m: len(base64.urlsafe_b64decode(raw(m))),
        message_id=lambda m: f"<{m.id}@{MAIL_DOMAIN}>",
    )


def _search(world: World, query: str | None, include_spam_trash: bool) -> list[Message]:
    """The mailbox's messages the query finds, newest first. Spam and trash are left out unless
    asked for (`include_spam_trash`, or the query names them: `in:trash`, `in:anywhere`), as Gmail does."""
    test = gmail_search.matcher(query, mailbox(world))
    hidden_too = include_spam_trash or gmail_search.reaches_hidden(query)
    return [m for m in _newest_first(world) if (hidden_too or not HIDDEN.intersection(m.labels)) and test(m)]


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
    label_ids: list[str] | SkipJsonSchema[None] = Field(
        default=None, description="Only messages carrying all these labels."
    )
    include_payload: bool = Field(default=True, description="Include the message body and headers.")
    include_spam_trash: bool = Field(default=False, description="Include SPAM and TRASH.")
    user_id: str = Field(default="me")
    # Newer toolkit versions than the 0_1 dump have these two (names confirmed, effect modelled):
    # accepting them keeps an agent written against the pinned toolkit working offline.
    verbose: bool = Field(default=True, description="False: lighter messages, without body or payload.")
    ids_only: bool = Field(default=False, description="Return only message and thread ids.")


@tool("GMAIL_FETCH_EMAILS", FetchEmails)
def fetch_emails(world: World, p: FetchEmails) -> dict[str, Any]:
    """List messages in the mailbox, newest first, filtered by a Gmail search query and labels."""
    wanted = set(p.label_ids or [])
    found = [m for m in _search(world, p.query, p.include_spam_trash) if wanted.issubset(m.labels)]
    chunk, token = _page(found, p.page_token, p.max_results)
    detail: Detail = "full" if p.include_payload and p.verbose else "metadata" if p.verbose else "none"
    messages = (
        [{"messageId": m.id, "threadId": m.thread_id} for m in chunk]
        if p.ids_only
        else [render(m, detail) for m in chunk]
    )
    return {"messages": messages, "nextPageToken": token or "", "resultSizeEstimate": len(found)}


class FetchMessage(Params):
    message_id: str = Field(min_length=1, description="Id of the message.")
    format: str = Field(
        default="full", description="full, metadata (headers, no body), minimal (ids and labels) or raw."
    )
    user_id: str = Field(default="me")


def raw(message: Message) -> str:
    """The whole message in RFC 2822 form, base64url-encoded (Gmail's `raw` format)."""
    lines = [f"{h['name']}: {h['value']}" for h in headers(message) if h["name"] != "Content-Type"]
    text = "\r\n".join([*lines, 'Content-Type: text/plain; charset="UTF-8"', "", message.body])
    return base64.urlsafe_b64encode(text.encode("utf-8")).decode()


@tool("GMAIL_FETCH_MESSAGE_BY_MESSAGE_ID", FetchMessage)
def fetch_message(world: World, p: FetchMessage) -> dict[str, Any]:
    """Fetch one message by its id."""
    if p.format not in FORMATS:
        raise ToolError(f"Invalid format {p.format!r}: one of {', '.join(FORMATS)}")
    for message in world.mailbox.messages:
        if message.id == p.message_id:
            if p.format == "raw":
                return {**render(message, "none"), "raw": raw(message)}
            detail: Detail = "full" if p.format == "full" else p.format  # type: ignore[assignment]
            return render(message, detail)
    raise ToolError(f"Requested entity was not found: message {p.message_id}")


def thread_of(thread_id: str) -> str:
    for prefix in THREAD_PREFIXES:
        if thread_id.startswith(prefix):
            return thread_id[len(prefix) :]
    return thread_id


class FetchThread(Params):
    thread_id: str = Field(description="Id of the thread.")
    page_token: str = Field(default="")
    user_id: str = Field(default="me")


def _thread(world: World, thread_id: str) -> list[Message]:
    return sorted(
        (m for m in world.mailbox.messages if m.thread_id == thread_id), key=lambda m: (m.timestamp, m.id)
    )


@tool("GMAIL_FETCH_MESSAGE_BY_THREAD_ID", FetchThread)
def fetch_thread(world: World, p: FetchThread) -> dict[str, Any]:
    """Fetch every message of a thread, oldest first."""
    messages = _thread(world, thread_of(p.thread_id))
    if not messages:
        raise ToolError(f"Requested entity was not found: thread {p.thread_id}")
    return {"messages": [render(m) for m in messages]}


class ListThreads(Params):
    query: str = Field(default="", description="Gmail search query.")
    max_results: int = Field(default=10, ge=1, le=500)
    page_token: str = Field(default="", description="next_page_token from a previous call.")
    user_id: str = Field(default="me")
    verbose: bool = Field(default=False, description="True: each thread's messages too.")


def history_id(world: World, message: Message) -> str:
    """A thread's history id: a number that grows with the mailbox's changes, as Gmail's does."""
    return str(100000 + int(world.make_id("history", message.id)[:6], 16) % 100000)


@tool("GMAIL_LIST_THREADS", ListThreads)
def list_threads(world: World, p: ListThreads) -> dict[str, Any]:
    """List threads with at least one message matching the query, most recent activity first:
    each thread's `id`, `snippet` (of its latest message) and `historyId`."""
    order: list[str] = []
    latest: dict[str, Message] = {}
    for message in _search(world, p.query, False):
        if message.thread_id not in latest:
            latest[message.thread_id] = message
            order.append(message.thread_id)
    chunk, token = _page(order, p.page_token, p.max_results)
    threads = []
    for t in chunk:
        thread: dict[str, Any] = {
            "id": t,
            "snippet": snippet(latest[t]),
            "historyId": history_id(world, latest[t]),
        }
        if p.verbose:
            thread["messages"] = [render(m) for m in _thread(world, t)]
        threads.append(thread)
    out: dict[str, Any] = {"threads": threads}
    if token:
        out["next_page_token"] = token
    return out


def _deliver(
    world: World,
    to: list[str],
    cc: list[str],
    bcc: list[str],
    subject: str,
    body: str,
    thread_id: str | None,
    in_reply_to: str | None,
) -> dict[str, Any]:
    for header, addresses in (("To", to), ("Cc", cc), ("Bcc", bcc)):
        for address in addresses:
            if "@" not in address:
                raise ToolError(f"Invalid {header} header: {address!r}")
    try:
        size = len(subject.encode("utf-8")) + len(body.encode("utf-8"))
    except UnicodeEncodeError as exc:
        raise ToolError(f"Invalid message: not valid UTF-8 ({exc.reason})") from exc
    if size > MAX_MESSAGE_BYTES:
        raise ToolError(f"Message too large: {size} bytes; Gmail sends at most {MAX_MESSAGE_BYTES}")
    stamp = world.tick()
    message_id = world.make_id("sent", world.clock)
    message = Message(
        id=message_id,
        thread_id=thread_id or world.make_id("thread-sent", world.clock),
        sender=world.agent_address,
        to=to,
        cc=cc,
        bcc=bcc,
        subject=subject,
        body=body,
        labels=["SENT"],
        timestamp=stamp,
        in_reply_to=in_reply_to,
    )
    world.mailbox.messages.append(message)
    return {"id": message.id, "threadId": message.thread_id, "labelIds": ["SENT"]}


def _recipients(to: str | None, cc: list[str], bcc: list[str]) -> None:
    if not (to or cc or bcc):
        raise ToolError("At least one of 'to'/'recipient_email', 'cc', or 'bcc' must be provided")


def _no_attachment(attachment: str | None) -> None:
    if attachment and attachment.strip():
        raise ToolError(f"Attachment {attachment!r} not found (the sandbox stores no files)")


class ReplyToThread(Params):
    thread_id: str = Field(description="Thread to reply in (a thread id, not a message id).")
    message_body: str | None = Field(default=None, description="Reply text (or HTML when is_html).")
    recipient_email: str | None = Field(default=None, description="Primary recipient.")
    cc: list[str] = Field(default=[])
    bcc: list[str] = Field(default=[])
    extra_recipients: list[str] = Field(default=[])
    is_html: bool = Field(default=False)
    user_id: str = Field(default="me")
    attachment: str | None = Field(default=None, description="A file to attach.")


@tool("GMAIL_REPLY_TO_THREAD", ReplyToThread)
def reply_to_thread(world: World, p: ReplyToThread) -> dict[str, Any]:
    """Send a reply in an existing thread; the subject is taken from the thread."""
    _recipients(p.recipient_email, p.cc, p.bcc)
    _no_attachment(p.attachment)
    thread_id = thread_of(p.thread_id)
    thread = _thread(world, thread_id)
    if not thread:
        raise ToolError(f"Requested entity was not found: thread {p.thread_id}")
    subject = thread[0].subject if thread[0].subject.lower().startswith("re:") else f"Re: {thread[0].subject}"
    to = [p.recipient_email] if p.recipient_email else []
    sent = _deliver(
        world,
        [*to, *p.extra_recipients],
        p.cc,
        p.bcc,
        subject,
        p.message_body or "",
        thread_id,
        thread[-1].id,
    )
    return {"response_data": sent}


class SendEmail(Params):
    recipient_email: str | None = Field(
        default=None,
        validation_alias=AliasChoices("recipient_email", "to"),
        description="Primary recipient (also accepted as `to`).",
    )
    cc: list[str] = Field(default=[])
    bcc: list[str] = Field(default=[])
    extra_recipients: list[str] = Field(default=[])
    subject: str | None = Field(default=None, description="Subject line (none: an empty subject).")
    body: str | None = Field(default=None, description="Message text (or HTML when is_html).")
    is_html: bool = Field(default=False)
    user_id: str = Field(default="me")
    attachment: str | None = Field(default=None, description="A file to attach.")
    from_email: str | None = Field(default=None, description="A verified send-as alias to send from.")


@tool("GMAIL_SEND_EMAIL", SendEmail)
def send_email(world: World, p: SendEmail) -> dict[str, Any]:
    """Send a new email (a new thread): at least one recipient, and a subject or a body."""
    _recipients(p.recipient_email, p.cc, p.bcc)
    if not (p.subject or p.body):
        raise ToolError("Either subject or body must be provided")
    _no_attachment(p.attachment)
    if p.from_email and p.from_email.lower() != world.agent_address.lower():
        raise ToolError(f"from_email {p.from_email} is not a verified send-as alias of this mailbox")
    to = [p.recipient_email] if p.recipient_email else []
    sent = _deliver(world, [*to, *p.extra_recipients], p.cc, p.bcc, p.subject or "", p.body or "", None, None)
    return {"response_data": sent}


class MoveToTrash(Params):
    message_id: str
    user_id: str = Field(default="me")


@tool("GMAIL_MOVE_TO_TRASH", MoveToTrash)
def move_to_trash(world: World, p: MoveToTrash) -> dict[str, Any]:
    """Move a message to the trash; the result is the trashed message (`email`: id, labels)."""
    for message in world.mailbox.messages:
        if message.id == p.message_id:
            message.labels = [label for label in message.labels if label != "INBOX"] + ["TRASH"]
            world.tick()
            return {"email": {"id": message.id, "threadId": message.thread_id, "labelIds": message.labels}}
    raise ToolError(f"Requested entity was not found: message {p.message_id}")
