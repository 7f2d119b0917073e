"""The agent's Gmail through Composio: seed the inbox once, reset what the agent sent, snapshot it.

A real inbox cannot be recreated per trial, so the scenario's emails are delivered once
(`seed-inbox`, from the persona mailboxes) and each trial starts by trashing whatever the agent sent
before: a deterministic reset, no LLM. Trials sharing one inbox therefore run one at a time.
Addresses are translated back to the scenario's persona addresses in the snapshot, so graders see
exactly what they see offline.
"""

from __future__ import annotations

from email.utils import getaddresses
from typing import Any

from evals.errors import InfrastructureError
from evals.live.composio_api import ComposioApi
from evals.live.config import ComposioConfig
from evals.outcome import SentMail
from evals.scenario.model import Email, Scenario

PAGE = 100


def _fetch(
    api: ComposioApi, query: str, account: str | None = None, include_spam_trash: bool = False
) -> list[dict[str, Any]]:
    """Every message matching a Gmail query, following page tokens."""
    out: list[dict[str, Any]] = []
    token: str | None = None
    while True:
        args: dict[str, Any] = {"query": query, "max_results": PAGE, "include_payload": True}
        if include_spam_trash:
            args["include_spam_trash"] = True
        if token:
            args["page_token"] = token
        result = api.execute("GMAIL_FETCH_EMAILS", args, account)
        if not result["successful"]:
            raise InfrastructureError(f"Gmail query {query!r} failed: {result['error']}")
        data = result["data"] or {}
        out.extend(data.get("messages") or [])
        token = data.get("nextPageToken")  # Composio's name in GMAIL_FETCH_EMAILS ('' on the last page)
        if not token:
            return out


def header(message: dict[str, Any], name: str) -> str:
    """A header of a Composio message, from its payload (Gmail's `payload.headers`); '' if absent."""
    payload = message.get("payload") or {}
    found = [
        str(h.get("value", ""))
        for h in payload.get("headers") or []
        if str(h.get("name", "")).lower() == name.lower()
    ]
    return ", ".join(found)


def addresses(field: Any) -> list[str]:
    """'Sam <sam@x.example>, b@y.example' (or a list of those) -> bare lower-case addresses."""
    items = field if isinstance(field, list) else [field or ""]
    return [addr.lower() for _, addr in getaddresses([str(i) for i in items]) if addr]


def subject_root(subject: str) -> str:
    text = subject.strip()
    while text.lower().startswith(("re:", "fwd:", "fw:")):
        text = text.split(":", 1)[1].strip()
    return text.lower()


def delivered_subject(scenario: Scenario, email: Email) -> str:
    """A follow-up is delivered as 'Re: <original subject>' so Gmail threads it with the original."""
    if email.reply_to and not email.subject.lower().startswith("re:"):
        original = next(e for e in scenario.emails if e.id == email.reply_to)
        return (
            f"Re: {original.subject}"
            if subject_root(original.subject) == subject_root(email.subject)
            else email.subject
        )
    return email.subject


class Translator:
    """Real address <-> scenario persona address, from the config's persona mapping."""

    def __init__(self, config: ComposioConfig, scenario: Scenario) -> None:
        self.to_real: dict[str, str] = {}
        self.to_scenario: dict[str, str] = {config.agent_address.lower(): scenario.agent_address}
        for persona in scenario.personas:
            mapped = config.personas.get(persona.id)
            if mapped is not None:
                self.to_real[persona.address.lower()] = mapped.address
                self.to_scenario[mapped.address.lower()] = persona.address
        self.to_real[scenario.agent_address.lower()] = config.agent_address

    def scenario_address(self, real: str) -> str:
        return self.to_scenario.get(real.lower(), real)


def _key(scenario: Scenario, config: ComposioConfig, email: Email) -> tuple[str, str] | None:
    persona = config.personas.get(email.sender)
    if persona is None:
        return None
    return persona.address.lower(), delivered_subject(scenario, email).lower()


def _in_order(scenario: Scenario) -> list[Email]:
    return sorted(scenario.emails, key=lambda e: (e.minutes, e.id))


SEEDED_LABELS = ("INBOX", "UNREAD")  # how seed-inbox leaves an email, and the sandbox seeds it


def restore_seeded(api: ComposioApi, config: ComposioConfig, scenario: Scenario) -> dict[str, list[str]]:
    """Put every seeded email back as seeded (in the inbox, unread, out of the trash), whatever an
    earlier trial did to it, and return thread id -> scenario email ids.

    Messages are matched by persona sender and subject; several emails with the same sender and
    subject (follow-ups) are matched in delivery order.
    """
    wanted: dict[tuple[str, str], list[str]] = {}
    for email in _in_order(scenario):
        key = _key(scenario, config, email)
        if key is not None:
            wanted.setdefault(key, []).append(email.id)
    threads: dict[str, list[str]] = {}
    received = _fetch(api, "-in:sent", include_spam_trash=True)
    for message in sorted(received, key=lambda m: (str(m.get("messageTimestamp")), str(m["messageId"]))):
        sender = next(iter(addresses(message.get("sender"))), "")
        queue = wanted.get((sender, str(message.get("subject", "")).lower()))
        if not queue:
            continue
        threads.setdefault(str(message["threadId"]), []).append(queue.pop(0))
        labels = set(message.get("labelIds") or [])
        if "TRASH" in labels or not labels.issuperset(SEEDED_LABELS):
            restored = api.execute(
                "GMAIL_ADD_LABEL_TO_EMAIL",
                {
                    "message_id": message["messageId"],
                    "add_label_ids": list(SEEDED_LABELS),
                    "remove_label_ids": ["TRASH"] if "TRASH" in labels else [],
                },
            )
            if not restored["successful"]:
                raise InfrastructureError(
                    f"could not restore seeded mail {message['messageId']}: {restored['error']}"
                )
    return threads


def reset_sent(api: ComposioApi) -> int:
    """Trash everything the agent's mailbox has sent, so a trial's snapshot holds only its own mail."""
    sent = _fetch(api, "in:sent")
    for message in sent:
        result = api.execute("GMAIL_MOVE_TO_TRASH", {"message_id": message["messageId"]})
        if not result["successful"]:
            raise InfrastructureError(f"could not reset sent mail {message['messageId']}: {result['error']}")
    return len(sent)


def snapshot_sent(api: ComposioApi, translator: Translator, threads: dict[str, list[str]]) -> list[SentMail]:
    out = []
    for message in sorted(
        _fetch(api, "in:sent"), key=lambda m: (str(m.get("messageTimestamp")), m["messageId"])
    ):
        thread = str(message["threadId"])
        out.append(
            SentMail(
                id=str(message["messageId"]),
                thread_id=thread,
                to=[translator.scenario_address(a) for a in addresses(message.get("to"))],
                # Composio's message has no cc field: Cc (and, on the sender's copy, Bcc) are headers.
                # The sandbox keeps Bcc recipients with Cc, so both are read as the copy list.
                cc=[
                    translator.scenario_address(a)
                    for a in addresses([header(message, "Cc"), header(message, "Bcc")])
                ],
                subject=str(message.get("subject", "")),
                body=str(message.get("messageText", "")),
                thread_seed_ids=threads.get(thread, []),
            )
        )
    return out


def seed_inbox(api: ComposioApi, config: ComposioConfig, scenario: Scenario) -> list[tuple[str, str]]:
    """Deliver the scenario's emails from the persona mailboxes; skip ones already delivered.

    The n-th email with a given sender and subject counts as delivered when the inbox holds at
    least n such messages, so a rerun after a partial failure sends only what is missing.
    Returns (email id, 'sent' | 'present') per email, in delivery order.
    """
    report = []
    seen: dict[tuple[str, str], int] = {}
    present: dict[tuple[str, str], int] = {}
    for email in _in_order(scenario):
        persona = config.personas[email.sender]
        subject = delivered_subject(scenario, email)
        key = (persona.address.lower(), subject.lower())
        if key not in present:
            found = _fetch(api, f'from:{persona.address} subject:"{subject}"')
            present[key] = sum(str(m.get("subject", "")).lower() == key[1] for m in found)
        seen[key] = seen.get(key, 0) + 1
        if present[key] >= seen[key]:
            report.append((email.id, "present"))
            continue
        result = api.execute(
            "GMAIL_SEND_EMAIL",
            {"recipient_email": config.agent_address, "subject": subject, "body": email.body},
            persona.account,
        )
        if not result["successful"]:
            raise InfrastructureError(f"could not deliver {email.id} from {email.sender}: {result['error']}")
        report.append((email.id, "sent"))
    return report
