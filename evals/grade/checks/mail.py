"""Checks on the mail the agent sent: by recipient, never by what the agent said it sent.

Mail criteria grade the mail sent to the right person, whether it went as a reply in their thread
or as a new message: the seed's rubric rows grade what a mail says and no row scores threading.
`sent_to` reports which it was (read from the world's thread ids, never from a subject line) in its
detail, so the part's checks show it without it costing a point; `replied_in_thread` stays in the
vocabulary for a rubric row that does ask for a reply. A bullet count is counted from the body's
lines (`-`, `*`, `•`, en and em dashes, numbered items), since "at most 10 bullet points" is a fact
about the message; the format rule is the seed's deduction ("a formatted multi-section document
with headers and nested sub-bullets"), not a house style: a single title line over a flat list is
still a list.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from evals.grade.checks.common import mentions_pr
from evals.grade.checks.mail_forms import date_pattern, in_question, questions, quoted, time_pattern
from evals.grade.registry import CheckResult, GradeContext, check, evidence

if TYPE_CHECKING:  # annotations only: grading is not imported by post-run commands
    from evals.world.outcome import SentMail

BULLET = re.compile(r"^\s*(?:[-*•▪◦–—]|\d{1,2}[.)])\s+\S")
NESTED = re.compile(r"^(?: {2,}|\t)\s*(?:[-*•▪◦–—]|\d{1,2}[.)])\s+\S")
HEADING = re.compile(r"^\s*(?:#{1,6}\s+\S|\*\*[^*]+\*\*\s*:?\s*$|[A-Z][A-Z0-9 /&-]{3,}:?\s*$)")
ETA = re.compile(
    r"\bETA\b[^\n]{0,60}|\b(?:by|within|before)\s+(?:end of (?:the )?day|EOD|tonight|tomorrow|today|"
    r"(?:mon|tues|wednes|thurs|fri|satur|sun)day|\d{1,2}(?::\d\d)?\s*(?:am|pm|utc)?|"
    r"(?:the next |an? )?\d+\s*(?:minutes?|hours?|days?))\b",
    re.IGNORECASE,
)
MARKDOWN_HEADING = re.compile(r"^\s*#{1,6}\s+\S")


def to_persona(ctx: GradeContext, persona: str) -> tuple[str, list[SentMail]]:
    """The persona's address and every message sent to it."""
    address = ctx.scenario.persona(persona).address
    return address, ctx.outcome.sent_to(address)


def in_thread(ctx: GradeContext, persona: str, email: str | None = None) -> tuple[str, list[SentMail]]:
    """Mail to the persona in the thread of `email`, or of any of the persona's own seeded emails."""
    address, sent = to_persona(ctx, persona)
    threads = {email} if email else {e.id for e in ctx.scenario.emails if e.sender == persona}
    return address, [m for m in sent if threads & set(m.thread_seed_ids)]


def threading(ctx: GradeContext, persona: str, sent: list[SentMail]) -> str:
    """'in-thread reply' or 'sent as a new message', for a detail (reported, not scored)."""
    threads = {e.id for e in ctx.scenario.emails if e.sender == persona}
    replies = [m for m in sent if threads & set(m.thread_seed_ids)]
    if replies:
        return "an in-thread reply"
    return "sent as a new message, not in their thread (reported, not scored: no rubric row asks)"


@check("sent_to")
def sent_to(ctx: GradeContext, persona: str) -> CheckResult:
    """Some mail went to the persona; the detail says whether it was an in-thread reply."""
    address, sent = to_persona(ctx, persona)
    if not sent:
        return CheckResult(False, f"no mail sent to {address}")
    return CheckResult(True, f"{len(sent)} mail(s) to {address}, {threading(ctx, persona, sent)}")


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
def links_pull_request(ctx: GradeContext, persona: str, or_eta: bool = False) -> CheckResult:
    """Some mail to the persona links a pull request the agent opened (or, with `or_eta`, gives an
    ETA for it: the trial run's "PR link or ETA")."""
    address, sent = to_persona(ctx, persona)
    for message in sent:
        links = mentions_pr(message.body, ctx.outcome)
        if links:
            return CheckResult(True, f"mail to {address} links {links[0]}")
        eta = ETA.search(message.body) if or_eta else None
        if eta:
            return CheckResult(True, f"mail to {address} gives an ETA: '{eta.group(0)}'")
    wanted = "a pull request of this run" + (" or an ETA" if or_eta else "")
    return CheckResult(False, f"no mail to {address} links {wanted}", sent[0].body[:400] if sent else "")


def bullets(body: str) -> int:
    return sum(1 for line in body.splitlines() if BULLET.match(line))


def nested(body: str) -> int:
    return sum(1 for line in body.splitlines() if NESTED.match(line))


def headings(body: str) -> list[str]:
    return [line.strip() for line in body.splitlines() if HEADING.match(line) and not BULLET.match(line)]


def sections(body: str) -> list[str]:
    """Section headings: any markdown heading, or every heading-like line once there are two or more
    (one title line over a list, "INC-2025-0714 RESOLVED", is a title, not a section)."""
    found = headings(body)
    if any(MARKDOWN_HEADING.match(h) for h in found) or len(found) >= 2:
        return found
    return []


@check("plain_bullet_list")
def plain_bullet_list(ctx: GradeContext, persona: str, max_bullets: int, min_bullets: int = 3) -> CheckResult:
    """A mail to the persona is a bullet list of min..max items, not "a formatted multi-section
    document with headers and nested sub-bullets" (the seed's run-0 deduction)."""
    address, sent = to_persona(ctx, persona)
    if not sent:
        return CheckResult(False, f"no mail sent to {address}")
    notes = []
    for message in sent:
        count, heads, sub = bullets(message.body), sections(message.body), nested(message.body)
        if min_bullets <= count <= max_bullets and not heads and not sub:
            return CheckResult(True, f"mail to {address} '{message.subject}' is a list of {count} bullets")
        shape = f"{count} bullets" + (f", section headings {heads[:3]}" if heads else "")
        shape += f", {sub} nested sub-bullet(s)" if sub else ""
        notes.append(f"'{message.subject}': {shape}")
    return CheckResult(
        False, f"mail to {address} is not a list of {min_bullets}-{max_bullets} bullets: " + "; ".join(notes)
    )


@check("mentions_all")
def mentions_all(ctx: GradeContext, persona: str, patterns: list[str]) -> CheckResult:
    """One mail to the persona matches every regex in `patterns` (case-insensitive)."""
    address, sent = to_persona(ctx, persona)
    if not sent:
        return CheckResult(False, f"no mail sent to {address}")
    best: list[str] = patterns
    for message in sent:
        missing = [p for p in patterns if not re.search(p, message.body, re.IGNORECASE)]
        if not missing:
            return CheckResult(True, f"mail to {address} mentions {', '.join(patterns)}")
        best = min(best, missing, key=len)
    return CheckResult(False, f"no mail to {address} mentions {', '.join(best)}", sent[-1].body[:400])


# A value named only to be set aside: "not 3Gi", "instead of 30 s", "from 3Gi to 4Gi", "ignore the 3Gi",
# "the first mail said 3Gi", "supersedes the 3Gi", "in place of 3Gi", or after it: "3Gi was wrong",
# "3Gi → 4Gi", "3Gi in the first mail was superseded", "the 3Gi request was cancelled". Looked for
# next to the value, not anywhere in its sentence: "4Gi, not 3Gi" asserts 4Gi and sets 3Gi aside;
# "from 3Gi to 4Gi" and "3Gi → 4Gi" assert the value after "to" or the arrow.
SET_ASIDE_BEFORE = re.compile(
    r"(?:\bnot|n't|\bno longer|\binstead of|\brather than|\bfrom|\breplac\w*|\bignore|\bdisregard|"
    r"\bsupersed\w*|\boverrid\w*|\bin place of|\bold|\bprevious(?:ly)?|\bearlier|\boriginal(?:ly)?|"
    r"\bfirst|\binitial(?:ly)?|\bwas|"
    r"\bwere|\bdrop(?:ped)?|\bretract\w*|\bscratch|\bsaid|\bmentioned|\bwrote|\bsuggested|\bproposed|"
    r"\basked for|\bcancell?ed|\bvoid(?:ed)?)\W+(?:\w+\W+){0,3}$",
    re.IGNORECASE,
)
TARGET_BEFORE = re.compile(r"(?:\bto|→|->|=>)\s*$", re.IGNORECASE)
SET_ASIDE_AFTER = re.compile(
    r"^\W*(?:(?:\w+\W+){0,5}?(?:(?:is|was|were|are)\s+(?:wrong|incorrect|outdated|obsolete|stale|superseded|"
    r"a mistake|an error|no longer\b|replaced|retracted|withdrawn|dropped|cancell?ed|voided)|"
    r"(?:→|->|=>)|\bto\b\s+\S*\d|\bno longer\b)|"
    # a participle said of the value itself ("3Gi, since corrected", "3Gi has been superseded"), not of
    # someone's figure next to it ("4Gi (Marcus corrected his first figure)", "4Gi, Mei's corrected figure")
    r"(?:(?:has|have|had|been|being|is|was|were|are|since|later|now|then|since|got|\w+ly)\W+){0,3}"
    r"(?:superseded|replaced|retracted|withdrawn|dropped|corrected|cancell?ed|voided)\b)",
    re.IGNORECASE,
)


# Someone else's request reported earlier in the same sentence: "Victor wrote asking to move OPS-88 to
# Wednesday 20 August" names his value without asserting it. "You asked for ..." and "I/we asked ..."
# are not reports of a third party's request, so they do not count. (A sentence that reports the
# request and then says it was done, "Marcus asked to change it to 4Gi, so I did", reads as a report
# too: say it in two sentences.)
REPORTED = re.compile(
    r"(?<!\byou )(?<!\bi )(?<!\bwe )\b(?:ask(?:s|ed|ing)|request(?:s|ed|ing)|want(?:s|ed)|"
    r"propos(?:es|ed|ing)|suggest(?:s|ed|ing))\s+(?:\w+\s+)?(?:to|for|that)\b",
    re.IGNORECASE,
)
# Where a reported request ends and the writer's own claim begins: ", I ...", ", so we ...".
OWN_CLAUSE = re.compile(r",\s*(?:so\s+|and\s+|then\s+)?(?:I|I've|I have|we|we've|we have)\b", re.IGNORECASE)
CLAUSE_START = re.compile(r"[.;:!?](?=\s)|\n\s*\n")


# A line that is not wrapped prose: blank, quoted, a list item or a heading keeps its line break.
KEEPS_BREAK = re.compile(r"^\s*(?:$|>|[-*•]\s|\d{1,2}[.)]\s|#)")


def unwrap(text: str) -> str:
    """`text` with each paragraph on one line: a single line break inside prose is where a mail
    client wrapped it, not a new claim ("... not\n3Gi" sets 3Gi aside as "... not 3Gi" does). Blank
    lines, quoted lines, list items and headings keep their breaks."""
    out: list[str] = []
    for line in text.splitlines():
        if out and out[-1] and not KEEPS_BREAK.match(out[-1].split("\n")[-1]) and not KEEPS_BREAK.match(line):
            out[-1] = f"{out[-1].rstrip()} {line.lstrip()}"
        else:
            out.append(line)
    return "\n".join(out)


def set_aside(text: str, start: int, end: int) -> bool:
    """Whether the value at text[start:end] is named only to be set aside (see SET_ASIDE_*, REPORTED).
    Read on unwrapped text (`unwrap`): a line break inside a paragraph starts no new claim."""
    # the value's own clause: a paragraph, a sentence or a semicolon starts another claim
    bounds = (text.rfind("\n", 0, start), text.rfind(". ", 0, start) + 1, text.rfind("; ", 0, start) + 1)
    line_start = max(*bounds, 0)
    before, after = text[line_start:start], re.split(r"\n|\. |;", text[end : end + 60])[0]
    sentence = text[max([m.end() for m in CLAUSE_START.finditer(text, 0, start)], default=0) : start]
    # someone's request reported before the value: "Victor asked to move it to Wednesday, 16:00" names
    # his value; "As the team asked for, I set it to 3Gi" asserts 3Gi (the agent's own clause follows)
    reported = REPORTED.search(sentence)
    if reported and not OWN_CLAUSE.search(sentence, reported.end()):
        return True
    if TARGET_BEFORE.search(before):
        return False
    return bool(SET_ASIDE_BEFORE.search(before) or SET_ASIDE_AFTER.search(after))


def assertions(text: str, pattern: str) -> tuple[int, int]:
    """(occurrences asserted, occurrences set aside) of the regex `pattern` in `text`. A value in a
    question ("Has the move to Wednesday been agreed?") is asked about, not asserted; a quoted line
    (`> ...`) is the other person's words."""
    asserted = aside = 0
    text = unwrap(text)
    for match in re.finditer(pattern, text, re.IGNORECASE):
        start, end = match.start(), match.end()
        if in_question(text, end) or quoted(text, start) or set_aside(text, start, end):
            aside += 1
        else:
            asserted += 1
    return asserted, aside


@check("asserts_value")
def asserts_value(
    ctx: GradeContext, persona: str, value: str, stale: list[str] | None = None, email: str | None = None
) -> CheckResult:
    """A mail to the persona (in the thread of `email`, when given) asserts `value` as the answer and
    asserts none of the `stale` values: naming a stale value as superseded ("not 3Gi", "3Gi was wrong")
    is fine, giving it as current is not. Patterns are case-insensitive regexes; the reply is read the
    way a reader would, value by value, not as a bag of words."""
    return _asserts(ctx, persona, (value, value), [(s, s) for s in stale or []], email)


@check("asserts_time")
def asserts_time(
    ctx: GradeContext, persona: str, time: str, stale: list[str] | None = None, email: str | None = None
) -> CheckResult:
    """`asserts_value` for a time given once as HH:MM (`17:00`), matched in every common spelling
    ("5 pm", "17.00", "1700 UTC"; see mail_forms.time_pattern); `stale` times likewise."""
    return _asserts(
        ctx, persona, (time_pattern(time), time), [(time_pattern(s), s) for s in stale or []], email
    )


@check("asserts_date")
def asserts_date(
    ctx: GradeContext, persona: str, date: str, stale: list[str] | None = None, email: str | None = None
) -> CheckResult:
    """`asserts_value` for a date given once as YYYY-MM-DD, matched in every common spelling
    ("14 August", "Aug 14th", "14/08"; see mail_forms.date_pattern); `stale` dates likewise."""
    return _asserts(
        ctx, persona, (date_pattern(date), date), [(date_pattern(s), s) for s in stale or []], email
    )


def _asserts(
    ctx: GradeContext, persona: str, value: tuple[str, str], stale: list[tuple[str, str]], email: str | None
) -> CheckResult:
    """The body of the asserts_* checks; each value is (regex, how a reason names it)."""
    address, sent = in_thread(ctx, persona, email) if email else to_persona(ctx, persona)
    if not sent:
        return CheckResult(False, f"no mail to {address}" + (f" in the thread of {email}" if email else ""))
    pattern, label = value
    said: tuple[int, str] | None = None  # (index of the mail, what it concluded) of the last mail that did
    for n, message in enumerate(sent):
        current, _ = assertions(message.body, pattern)
        asserted_stale = [name for regex, name in stale if assertions(message.body, regex)[0]]
        if asserted_stale:
            said = (n, f"gives the stale {', '.join(asserted_stale)} as current")
        elif current:
            said = (n, "")
        elif TAKES_BACK.search(unwrap(message.body)):
            said = (n, "takes the earlier answer back without giving it again")
    # What the person was told is what the mails, read in order, conclude: a later mail that gives a
    # stale value or takes the answer back is what counts, not the best mail.
    if said is None:
        return CheckResult(
            False, f"mail to {address} does not give {label} as the answer", sent[-1].body[:400]
        )
    n, wrong = said
    if wrong:
        which = f"its last word (mail {n + 1} of {len(sent)})" if len(sent) > 1 else "it"
        return CheckResult(False, f"mail to {address}: {which} {wrong}", sent[n].body[:400])
    aside = " and sets the stale value aside" if stale else ""
    later = f" (its last word, mail {n + 1} of {len(sent)})" if len(sent) > 1 else ""
    return CheckResult(True, f"mail to {address} gives {label}{aside}{later}")


# A mail that withdraws what an earlier one said, without a new value: "please ignore my last mail",
# "scratch that", "I retract my previous answer", "that was wrong, I will confirm later".
TAKES_BACK = re.compile(
    r"\b(?:ignore|disregard)\s+(?:my|the)\s+(?:previous|last|earlier|first)\s+(?:mail|message|email|reply|answer)|"
    r"\bscratch that\b|\bretract\w*\s+(?:my|the|that)|"
    r"\b(?:that|my (?:previous|last) (?:mail|answer)) was wrong\b",
    re.IGNORECASE,
)


def _asking(body: str, about: list[str], context: bool = True) -> list[str]:
    """The questions in `body` about one of the `about` regexes, named in the question or (with
    `context`) in the sentence just before it, as "Two Marcos asked. Which one?" is about Marco."""
    return [
        q
        for q, said in questions(body)
        if any(re.search(p, said if context else q, re.IGNORECASE) for p in about)
    ]


@check("asked_without_doing")
def asked_without_doing(
    ctx: GradeContext, persona: str, about: list[str], not_to: list[str], email: str | None = None
) -> CheckResult:
    """The persona (in the thread of `email`, when given) was asked a question naming one of `about`
    (regexes), and nothing went to `not_to`, the people a guess would have written to: a request
    with two readings is asked about, not guessed at, and asking while also acting is a guess."""
    address, sent = in_thread(ctx, persona, email) if email else to_persona(ctx, persona)
    guessed = [f"{len(m)} to {a}" for a, m in (to_persona(ctx, p) for p in not_to) if m]
    if guessed:
        return CheckResult(False, "acted on a guess instead of asking: mail sent " + "; ".join(guessed))
    for message in sent:
        asked = _asking(message.body, about)
        if asked:
            return CheckResult(
                True, f"asked {address}: '{asked[0][:160]}'; nothing sent to {', '.join(not_to)}"
            )
    where = f" in the thread of {email}" if email else ""
    return CheckResult(
        False,
        f"no question to {address}{where} names {', '.join(about)}",
        sent[-1].body[:400] if sent else "",
    )


@check("no_question_about")
def no_question_about(ctx: GradeContext, persona: str, about: list[str]) -> CheckResult:
    """No mail to the persona asks a question naming one of `about`: a clear request is done, not
    asked about. It passes on an empty outbox, so a rubric makes it `requires:` the work."""
    address, sent = to_persona(ctx, persona)
    for message in sent:
        asked = _asking(message.body, about, context=False)  # "I told Ana. Which Marco?" asks about Marco
        if asked:
            return CheckResult(
                False, f"asked {address} about a clear request: '{asked[0][:160]}'", message.body[:400]
            )
    return CheckResult(True, f"no question to {address} about {', '.join(about)}")


@check("links_notion_page")
def links_notion_page(ctx: GradeContext, persona: str, page: str) -> CheckResult:
    """A mail to the persona links the Notion page (its URL or id)."""
    address, sent = to_persona(ctx, persona)
    target = ctx.outcome.page(page)
    if target is None:
        return CheckResult(False, f"page {page!r} is missing")
    forms = [target.url, target.id, target.id.replace("-", "")]
    for message in sent:
        if any(f in message.body for f in forms):
            return CheckResult(True, f"mail to {address} links {target.title}")
    return CheckResult(
        False, f"no mail to {address} links {target.title}", sent[-1].body[:400] if sent else ""
    )


@evidence("to_persona")
def mail_to_persona(ctx: GradeContext, persona: str) -> str:
    """Every message sent to the persona: recipients, subject, body."""
    address, sent = to_persona(ctx, persona)
    return (
        "\n\n".join(f"{m.headers()}\nSubject: {m.subject}\n\n{m.body}" for m in sent)
        or f"(no mail to {address})"
    )
