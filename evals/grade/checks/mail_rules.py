"""Mail checks by recipient and thread: who got what, in which thread, in what shape.

"Reply in the same thread" is read from the sandbox's thread ids, never from a subject line; a
bullet count is counted from the body's lines (nested and numbered items count too), since "at
most 10 bullet points" is a fact about the message, not a matter of taste.
"""

from __future__ import annotations

import re

from evals.grade.registry import CheckResult, GradeContext, check
from evals.outcome import SentMail

BULLET = re.compile(r"^\s*(?:[-*•▪◦]|\d{1,2}[.)])\s+\S")
HEADING = re.compile(r"^\s*(?:#{1,6}\s+\S|\*\*[^*]+\*\*\s*:?\s*$|[A-Z][A-Z0-9 /&-]{3,}:?\s*$)")


def in_thread(ctx: GradeContext, persona: str) -> tuple[str, list[SentMail]]:
    """Mail to the persona in the thread of one of the persona's own seeded emails."""
    address = ctx.scenario.persona(persona).address
    theirs = {e.id for e in ctx.scenario.emails if e.sender == persona}
    sent = [m for m in ctx.outcome.sent_to(address) if theirs & set(m.thread_seed_ids)]
    return address, sent


@check("mail.replied_to_persona")
def replied_to_persona(ctx: GradeContext, persona: str) -> CheckResult:
    """The persona got a reply in the thread of one of their own emails."""
    address, sent = in_thread(ctx, persona)
    if sent:
        return CheckResult(True, f"{len(sent)} in-thread reply(ies) to {address}")
    others = ctx.outcome.sent_to(address)
    if others:
        return CheckResult(
            False, f"mail to {address} exists but in none of their threads", others[0].body[:400]
        )
    return CheckResult(False, f"no mail sent to {address}")


def bullets(body: str) -> int:
    return sum(1 for line in body.splitlines() if BULLET.match(line))


def headings(body: str) -> list[str]:
    return [line.strip() for line in body.splitlines() if HEADING.match(line) and not BULLET.match(line)]


@check("mail.bullet_list")
def bullet_list(ctx: GradeContext, persona: str, max_bullets: int, min_bullets: int = 3) -> CheckResult:
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


@check("mail.mentions")
def mentions(ctx: GradeContext, persona: str, patterns: list[str]) -> CheckResult:
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


@check("mail.links_page")
def links_page(ctx: GradeContext, persona: str, page: str) -> CheckResult:
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
