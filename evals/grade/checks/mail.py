"""Checks on the mail the agent sent: by recipient and thread, never by what the agent said it sent.

"Reply in the same thread" is read from the world's thread ids (which seeded emails a message's
thread holds), never from a subject line. A bullet count is counted from the body's lines (nested
and numbered items count too), since "at most 10 bullet points" is a fact about the message, not a
matter of taste.
"""

from __future__ import annotations

import re

from evals.grade.checks.common import mentions_pr
from evals.grade.registry import CheckResult, GradeContext, check, evidence
from evals.outcome import SentMail

BULLET = re.compile(r"^\s*(?:[-*•▪◦]|\d{1,2}[.)])\s+\S")
HEADING = re.compile(r"^\s*(?:#{1,6}\s+\S|\*\*[^*]+\*\*\s*:?\s*$|[A-Z][A-Z0-9 /&-]{3,}:?\s*$)")


def to_persona(ctx: GradeContext, persona: str) -> tuple[str, list[SentMail]]:
    """The persona's address and every message sent to it."""
    address = ctx.scenario.persona(persona).address
    return address, ctx.outcome.sent_to(address)


def in_thread(ctx: GradeContext, persona: str, email: str | None = None) -> tuple[str, list[SentMail]]:
    """Mail to the persona in the thread of `email`, or of any of the persona's own seeded emails."""
    address, sent = to_persona(ctx, persona)
    threads = {email} if email else {e.id for e in ctx.scenario.emails if e.sender == persona}
    return address, [m for m in sent if threads & set(m.thread_seed_ids)]


@check("replied_in_thread")
def replied_in_thread(ctx: GradeContext, persona: str, email: str | None = None) -> CheckResult:
    """The persona got a reply in the thread of `email` (or, without it, of one of their own emails)."""
    address, replies = in_thread(ctx, persona, email)
    if replies and email:
        return CheckResult(True, f"{len(replies)} reply(ies) to {address} in the thread of {email}")
    if replies:
        return CheckResult(True, f"{len(replies)} in-thread reply(ies) to {address}")
    others = to_persona(ctx, persona)[1]
    if not others:
        return CheckResult(False, f"no mail sent to {address}")
    where = f"not in the thread of {email}" if email else "in none of their threads"
    return CheckResult(False, f"mail to {address} exists but {where}", others[0].body[:400])


@check("links_pull_request")
def links_pull_request(ctx: GradeContext, persona: str) -> CheckResult:
    """Some mail to the persona contains a link to a pull request the agent opened."""
    address, sent = to_persona(ctx, persona)
    for message in sent:
        links = mentions_pr(message.body, ctx.outcome)
        if links:
            return CheckResult(True, f"mail to {address} links {links[0]}")
    return CheckResult(
        False, f"no mail to {address} links a pull request of this run", sent[0].body[:400] if sent else ""
    )


def bullets(body: str) -> int:
    return sum(1 for line in body.splitlines() if BULLET.match(line))


def headings(body: str) -> list[str]:
    return [line.strip() for line in body.splitlines() if HEADING.match(line) and not BULLET.match(line)]


@check("plain_bullet_list")
def plain_bullet_list(ctx: GradeContext, persona: str, max_bullets: int, min_bullets: int = 3) -> CheckResult:
    """An in-thread mail to the persona is a plain bullet list of min..max items, with no section
    headings (a formatted multi-section report is not what was asked for)."""
    address, sent = in_thread(ctx, persona)
    if not sent:
        return CheckResult(False, f"no in-thread mail to {address}")
    notes = []
    for message in sent:
        count, heads = bullets(message.body), headings(message.body)
        if min_bullets <= count <= max_bullets and not heads:
            return CheckResult(True, f"mail to {address} '{message.subject}' has {count} bullets")
        shape = f"{count} bullets" + (f", headings {heads[:3]}" if heads else "")
        notes.append(f"'{message.subject}': {shape}")
    return CheckResult(
        False, f"mail to {address} is not a list of {min_bullets}-{max_bullets} bullets: " + "; ".join(notes)
    )


@check("mentions_all")
def mentions_all(ctx: GradeContext, persona: str, patterns: list[str]) -> CheckResult:
    """One in-thread mail to the persona matches every regex in `patterns` (case-insensitive)."""
    address, sent = in_thread(ctx, persona)
    if not sent:
        return CheckResult(False, f"no in-thread mail to {address}")
    best: list[str] = patterns
    for message in sent:
        missing = [p for p in patterns if not re.search(p, message.body, re.IGNORECASE)]
        if not missing:
            return CheckResult(True, f"mail to {address} mentions {', '.join(patterns)}")
        best = min(best, missing, key=len)
    return CheckResult(False, f"no mail to {address} mentions {', '.join(best)}", sent[-1].body[:400])


@check("links_notion_page")
def links_notion_page(ctx: GradeContext, persona: str, page: str) -> CheckResult:
    """An in-thread mail to the persona links the Notion page (its URL or id)."""
    address, sent = in_thread(ctx, persona)
    target = ctx.outcome.page(page)
    if target is None:
        return CheckResult(False, f"page {page!r} is missing")
    forms = [target.url, target.id, target.id.replace("-", "")]
    for message in sent:
        if any(f in message.body for f in forms):
            return CheckResult(True, f"mail to {address} links {target.title}")
    return CheckResult(
        False, f"no in-thread mail to {address} links {target.title}", sent[-1].body[:400] if sent else ""
    )


@evidence("to_persona")
def mail_to_persona(ctx: GradeContext, persona: str) -> str:
    """Every message sent to the persona: recipients, subject, body."""
    address, sent = to_persona(ctx, persona)
    return (
        "\n\n".join(
            f"To: {', '.join(m.to)}\nCc: {', '.join(m.cc)}\nSubject: {m.subject}\n\n{m.body}" for m in sent
        )
        or f"(no mail to {address})"
    )
