"""Checks on the mail the agent sent: by recipient and thread, never by what the agent said it sent."""

from __future__ import annotations

from evals.grade.checks.common import mentions_pr
from evals.grade.registry import CheckResult, GradeContext, check, evidence
from evals.outcome import SentMail


def _to(ctx: GradeContext, persona: str) -> tuple[str, list[SentMail]]:
    address = ctx.scenario.persona(persona).address
    return address, ctx.outcome.sent_to(address)


@check("mail.replied_in_thread")
def replied_in_thread(ctx: GradeContext, persona: str, email: str) -> CheckResult:
    """The persona got a reply in the thread of one of their seeded emails."""
    address, sent = _to(ctx, persona)
    in_thread = [m for m in sent if email in m.thread_seed_ids]
    if in_thread:
        return CheckResult(True, f"{len(in_thread)} reply(ies) to {address} in the thread of {email}")
    if sent:
        return CheckResult(
            False, f"mail to {address} exists but not in the thread of {email}", sent[0].body[:400]
        )
    return CheckResult(False, f"no mail sent to {address}")


@check("mail.links_pull_request")
def links_pull_request(ctx: GradeContext, persona: str) -> CheckResult:
    """Some mail to the persona contains a link to a pull request the agent opened."""
    address, sent = _to(ctx, persona)
    for message in sent:
        links = mentions_pr(message.body, ctx.outcome)
        if links:
            return CheckResult(True, f"mail to {address} links {links[0]}")
    return CheckResult(
        False, f"no mail to {address} links a pull request of this run", sent[0].body[:400] if sent else ""
    )


@evidence("mail.to_persona")
def mail_to_persona(ctx: GradeContext, persona: str) -> str:
    """Every message sent to the persona: recipients, subject, body."""
    address, sent = _to(ctx, persona)
    return (
        "\n\n".join(
            f"To: {', '.join(m.to)}\nCc: {', '.join(m.cc)}\nSubject: {m.subject}\n\n{m.body}" for m in sent
        )
        or f"(no mail to {address})"
    )
