"""inbox-triage's own check: some senders must get no mail at all.

The package's mail checks say what a message must contain; none says that a persona must get
nothing, which is what triage is about (a newsletter needs no answer, a phishing mail must not get
one). Registered as `inbox-triage.no_mail_to`.
"""

from __future__ import annotations

from evals.grade.checks import CheckResult, GradeContext, check


@check("no_mail_to")
def no_mail_to(ctx: GradeContext, personas: list[str]) -> CheckResult:
    """No message the agent sent went to any of `personas` (To or Cc)."""
    hits = []
    for persona in personas:
        address = ctx.scenario.persona(persona).address
        sent = ctx.outcome.sent_to(address)
        if sent:
            hits.append(f"{len(sent)} to {address} ('{sent[0].subject}')")
    if hits:
        return CheckResult(False, "mail sent that should not have been: " + "; ".join(hits))
    return CheckResult(True, "nothing sent to " + ", ".join(personas))
