"""The agent's Gmail through Composio: seed the inbox once, reset what the agent sent, snapshot it.

A real inbox cannot be recreated per trial, so the scenario's emails are delivered once
(`seed-inbox`, from the persona mailboxes) and each trial starts by trashing whatever the agent sent
before: a deterministic reset, no LLM. Trials sharing one inbox therefore run one at a time.
Delivered mail carries its task instance's label (seed_labels.py): seeding another instance of a
task trashes the mail of the earlier one, and a trial restores only its own instance's mail.
Addresses are translated back to the scenario's persona addresses in the snapshot, so graders see
exactly what they see offline.
"""

from __future__ import annotations

import sys
from collections import Counter
from dataclasses import dataclass
from email.utils import getaddresses
from typing import Any

from evals.core.errors import BadInputError, InfrastructureError
from evals.scenario.model import Email, Scenario
from evals.world.live import polling, seed_labels
from evals.world.live.composio_api import ComposioApi
from evals.world.live.config import ComposioConfig
from evals.world.outcome import SentMail

PAGE = 100


def _fetch(
    api: ComposioApi,
    query: str,
    account: str | None = None,
    include_spam_trash: bool = False,
    label_ids: list[str] | None = None,
) -> list[dict[str, Any]]:
    """Every message matching a Gmail query (and carrying every one of `label_ids`), following
    page tokens."""
    out: list[dict[str, Any]] = []
    token: str | None = None
    while True:
        args: dict[str, Any] = {"max_results": PAGE, "include_payload": True}
        if query:
            args["query"] = query
        if label_ids:
            args["label_ids"] = label_ids
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


def seed_label(config: ComposioConfig, scenario: Scenario) -> str:
    """The label of this instance's delivered mail: it changes with whatever the inbox would show
    differently (a sender's real address, a subject, a body), and only then."""
    delivered = [
        (
            (config.personas[e.sender].address if e.sender in config.personas else e.sender).lower(),
            delivered_subject(scenario, e),
            e.body,
        )
        for e in _in_order(scenario)
    ]
    return seed_labels.instance_label(scenario.name, delivered)


def _sender_subject(message: dict[str, Any]) -> tuple[str, str]:
    return next(iter(addresses(message.get("sender"))), ""), str(message.get("subject", "")).lower()


def _same_text(a: Any, b: str) -> bool:
    """Bodies compared as words: Gmail may change line endings and wrapping whitespace."""
    return " ".join(str(a or "").split()) == " ".join(b.split())


def _trash(api: ComposioApi, message: dict[str, Any], what: str) -> None:
    result = api.execute("GMAIL_MOVE_TO_TRASH", {"message_id": message["messageId"]})
    if not result["successful"]:
        raise InfrastructureError(f"could not trash {what} {message['messageId']}: {result['error']}")


SEEDED_LABELS = ("INBOX", "UNREAD")  # how seed-inbox leaves an email, and the sandbox seeds it


def restore_seeded(api: ComposioApi, config: ComposioConfig, scenario: Scenario) -> dict[str, list[str]]:
    """Put every seeded email back as seeded (in the inbox, unread, out of the trash), whatever an
    earlier trial did to it, and return thread id -> scenario email ids.

    Only mail carrying this instance's label counts (never an earlier instance's, nor mail the
    harness did not seed). An inbox seeded for another instance of the task is bad input: the
    agent would read the wrong mail. One with no label of the task at all (never seeded, or seeded
    before labels were used) is read as before labels: every received message, with a warning.
    Messages are matched by persona sender and subject; several emails with the same sender and
    subject (follow-ups) are matched in delivery order.
    """
    if not scenario.emails:
        return {}
    names = seed_labels.user_labels(api)
    label = seed_label(config, scenario)
    label_id = names.get(label)
    if label_id is not None:
        received = _fetch(api, "", include_spam_trash=True, label_ids=[label_id])
    else:
        seed = scenario.instance.seed
        again = f"`python -m evals seed-inbox --scenario {scenario.name}" + (
            "`" if seed is None else f" --instance-seed {seed}`"
        )
        if any(name.startswith(seed_labels.task_prefix(scenario.name)) for name in names):
            raise BadInputError(
                f"the agent's inbox holds the mail of another instance of {scenario.name}, not of "
                f"this one (no label {label}): run {again} first"
            )
        print(
            f"warning: no mail in the agent's inbox is labelled as seeded for {scenario.name} "
            f"({label}); matching received mail by sender and subject. Run {again} to seed and label it.",
            file=sys.stderr,
        )
        received = _fetch(api, "-in:sent", include_spam_trash=True)
    wanted: dict[tuple[str, str], list[str]] = {}
    for email in _in_order(scenario):
        key = _key(scenario, config, email)
        if key is not None:
            wanted.setdefault(key, []).append(email.id)
    threads: dict[str, list[str]] = {}
    for message in sorted(received, key=lambda m: (str(m.get("messageTimestamp")), str(m["messageId"]))):
        queue = wanted.get(_sender_subject(message))
        if not queue:
            continue
        threads.setdefault(str(message["threadId"]), []).append(queue.pop(0))
        restore(api, message)
    return threads


def restore(api: ComposioApi, message: dict[str, Any]) -> None:
    """Put a seeded email back as seeded: out of the trash with GMAIL_UNTRASH_MESSAGE (Composio's
    label tools say TRASH is not changed with them), then in the inbox and unread."""
    labels = set(message.get("labelIds") or [])
    steps: list[tuple[str, dict[str, Any]]] = []
    if "TRASH" in labels:
        steps.append(("GMAIL_UNTRASH_MESSAGE", {"message_id": message["messageId"]}))
    if not labels.issuperset(SEEDED_LABELS) or "TRASH" in labels:
        steps.append(
            (
                "GMAIL_ADD_LABEL_TO_EMAIL",
                {"message_id": message["messageId"], "add_label_ids": list(SEEDED_LABELS)},
            )
        )
    for slug, args in steps:
        done = api.execute(slug, args)
        if not done["successful"]:
            raise InfrastructureError(
                f"could not restore seeded mail {message['messageId']}: {done['error']}"
            )


def reset_sent(api: ComposioApi) -> int:
    """Trash everything the agent's mailbox has sent, so a trial's snapshot holds only its own mail."""
    sent = _fetch(api, "in:sent")
    for message in sent:
        _trash(api, message, "sent mail")
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
                cc=[translator.scenario_address(a) for a in addresses([header(message, "Cc")])],
                bcc=[translator.scenario_address(a) for a in addresses([header(message, "Bcc")])],
                subject=str(message.get("subject", "")),
                body=str(message.get("messageText", "")),
                thread_seed_ids=threads.get(thread, []),
            )
        )
    return out


@dataclass
class Seeding:
    """What `seed_inbox` did for one task instance."""

    statuses: list[tuple[str, str]]  # (email id, 'sent' | 'present' | 'adopted'), in delivery order
    removed: int  # messages of the task's other instances moved to the trash


def seed_inbox(api: ComposioApi, config: ComposioConfig, scenario: Scenario) -> Seeding:
    """Make the inbox hold this instance's emails, each once, and no other instance's.

    First the task's mail under any other instance label goes to the trash (never deleted) and
    that label is deleted; mail without a harness label is never touched. Then each email is
    'present' when the inbox holds it under this instance's label (the n-th email with a given
    sender and subject when at least n such messages do, so a rerun after a partial failure sends
    only what is missing); 'adopted' when an unlabelled message from the persona has its subject
    and body (seeded before labels were used, or sent by a run that died before labelling it),
    which gets the label; otherwise 'sent' from the persona's mailbox, and labelled once Gmail has
    delivered it. Finally the instance's mail is put back as a trial starts with it.
    """
    labels = seed_labels.user_labels(api)
    label = seed_label(config, scenario)
    removed = _remove_other_instances(api, scenario.name, label, labels)
    if not scenario.emails:
        return Seeding([], removed)
    label_id = labels.get(label) or seed_labels.create(api, label)
    harness = {i for name, i in labels.items() if seed_labels.is_harness(name)} | {label_id}
    present = Counter(
        _sender_subject(m) for m in _fetch(api, "", include_spam_trash=True, label_ids=[label_id])
    )
    seen: Counter[tuple[str, str]] = Counter()
    unlabelled: dict[tuple[str, str], list[dict[str, Any]]] = {}
    pending: dict[tuple[str, str], list[str]] = {}
    statuses = []
    for email in _in_order(scenario):
        persona = config.personas[email.sender]
        subject = delivered_subject(scenario, email)
        key = (persona.address.lower(), subject.lower())
        seen[key] += 1
        if present[key] >= seen[key]:
            statuses.append((email.id, "present"))
            continue
        if key not in unlabelled:
            unlabelled[key] = _unlabelled(api, persona.address, subject, harness)
        twin = next((m for m in unlabelled[key] if _same_text(m.get("messageText"), email.body)), None)
        if twin is not None:
            unlabelled[key].remove(twin)
            seed_labels.add(api, str(twin["messageId"]), label_id)
            statuses.append((email.id, "adopted"))
            continue
        result = api.execute(
            "GMAIL_SEND_EMAIL",
            {"recipient_email": config.agent_address, "subject": subject, "body": email.body},
            persona.account,
        )
        if not result["successful"]:
            raise InfrastructureError(f"could not deliver {email.id} from {email.sender}: {result['error']}")
        pending.setdefault((persona.address, subject), []).append(email.id)
        statuses.append((email.id, "sent"))
    if pending:
        _label_on_arrival(api, pending, unlabelled, harness, label_id)
    restore_seeded(api, config, scenario)
    return Seeding(statuses, removed)


def _remove_other_instances(api: ComposioApi, task: str, keep: str, labels: dict[str, str]) -> int:
    """Trash the task's mail under every label but `keep`, and delete those labels; how many
    messages went to the trash."""
    removed = 0
    for name, label_id in sorted(labels.items()):
        if name.startswith(seed_labels.task_prefix(task)) and name != keep:
            for message in _fetch(api, "", label_ids=[label_id]):  # what is not in the trash yet
                _trash(api, message, f"mail of an earlier instance of {task}")
                removed += 1
            seed_labels.delete(api, label_id, name)
    return removed


def _unlabelled(api: ComposioApi, sender: str, subject: str, harness: set[str]) -> list[dict[str, Any]]:
    """Messages from `sender` with exactly `subject` that carry no harness label, newest first."""
    found = _fetch(api, f'from:{sender} subject:"{subject}"')
    key = (sender.lower(), subject.lower())
    mine = [m for m in found if _sender_subject(m) == key and not harness & set(m.get("labelIds") or [])]
    return sorted(mine, key=lambda m: (str(m.get("messageTimestamp")), str(m["messageId"])), reverse=True)


def _label_on_arrival(
    api: ComposioApi,
    pending: dict[tuple[str, str], list[str]],
    before: dict[tuple[str, str], list[dict[str, Any]]],
    harness: set[str],
    label_id: str,
) -> None:
    """Label the just-sent messages once they are in the agent's mailbox (Gmail delivers within
    seconds, not at once): per sender and subject (`pending`'s keys, as sent), the newest
    unlabelled ones that were not there before sending (`before`, keyed in lower case). Waits
    within polling's budget."""
    waiting = dict(pending)

    def arrived() -> bool | None:
        for (sender, subject), ids in list(waiting.items()):
            there = {str(m["messageId"]) for m in before[sender.lower(), subject.lower()]}
            fresh = [m for m in _unlabelled(api, sender, subject, harness) if m["messageId"] not in there]
            if len(fresh) >= len(ids):
                for message in fresh[: len(ids)]:
                    seed_labels.add(api, str(message["messageId"]), label_id)
                del waiting[sender, subject]
        return True if not waiting else None

    try:
        polling.until(arrived, "Gmail to deliver the seeded mail")
    except InfrastructureError as exc:
        missing = ", ".join(i for ids in waiting.values() for i in ids)
        raise InfrastructureError(
            f"{exc} (not arrived: {missing}); a rerun of seed-inbox labels them once they arrive"
        ) from exc
