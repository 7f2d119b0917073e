"""Gmail search in the sandbox, case by case from Gmail's documented operators.

The cases follow Gmail Help's "Search operators you can use with Gmail"
(support.google.com/mail/answer/7190) and the Gmail API guide "Search and filter messages"
(dates are midnight PST, or epoch seconds). The mailbox is built here, not seeded, so each
expected answer can be read off the table below: six messages, the clock at 2025-09-30 08:00 UTC.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from evals.scenario.load import load_scenario
from evals.world.sandbox.model import Mailbox, Message, World
from evals.world.sandbox.seed import seed
from evals.world.sandbox.tools.toolset import SandboxToolset
from tests.support.paths import ROOT

ME = "me@acme.example"
START = "2025-09-01T08:00:00Z"
NOW_MINUTES = 29 * 24 * 60  # 2025-09-30T08:00:00Z

MAIL = [
    # m1: 2025-09-29 05:00 UTC is 2025-09-28 21:00 PST: on the 28th for Gmail's date operators.
    Message(id="m1", thread_id="t1", sender="ana.souza@acme.example", to=[ME],
            subject="Dinner and movie tonight?",
            body="Shall we see a movie after dinner? Holiday plans too: vacation in May.",
            labels=["INBOX", "UNREAD"], timestamp="2025-09-29T05:00:00Z"),
    Message(id="m2", thread_id="t2", sender="digest@news.example", to=[ME], subject="Acme Weekly",
            body="Meeting notes inside. Watch https://youtu.be/abc123 then reply STOP to unsubscribe.",
            labels=["INBOX", "CATEGORY_PROMOTIONS"], timestamp="2025-09-20T09:00:00Z"),
    Message(id="m3", thread_id="t3", sender="ben@acme.example", to=[ME], cc=["kofi@acme.example"],
            subject="Who is on call?", body="Please check the on-call rota.",
            labels=["INBOX", "STARRED", "IMPORTANT"], timestamp="2025-08-15T12:00:00Z"),
    Message(id="m4", thread_id="t1", sender=ME, to=["ana.souza@acme.example"],
            cc=["lars@acme.example"], bcc=["kofi@acme.example"], subject="Re: Dinner",
            body="See you at eight.", labels=["SENT"], timestamp="2025-09-29T12:00:00Z"),
    Message(id="m5", thread_id="t5", sender="helpdesk@evil.example", to=[ME],
            subject="Action required", body="Send your password.", labels=["TRASH"],
            timestamp="2025-09-25T10:00:00Z"),
    Message(id="m6", thread_id="t6", sender="sofia@acme.example", to=[ME], subject="Archive notes",
            body="notes " * 500, labels=["INBOX"], timestamp="2024-06-01T10:00:00Z"),
]  # fmt: skip
VISIBLE = {"m1", "m2", "m3", "m4", "m6"}  # m5 is in the trash: Gmail leaves it out unless asked


@pytest.fixture
def tools() -> SandboxToolset:
    world = World(
        scenario="search",
        trial=0,
        start_time=START,
        clock=NOW_MINUTES,
        agent_address=ME,
        mailbox=Mailbox(owner=ME, messages=[m.model_copy() for m in MAIL]),
    )
    return SandboxToolset(world)


def found(tools: SandboxToolset, query: str, **extra: object) -> set[str]:
    result = tools.execute("GMAIL_FETCH_EMAILS", {"query": query, "max_results": 50, **extra})
    assert result["successful"], result["error"]
    return {m["messageId"] for m in result["data"]["messages"]}


EPOCH_2025_09_29_04_UTC = int(datetime(2025, 9, 29, 4, tzinfo=UTC).timestamp())

CASES = [
    # query, the messages Gmail finds in this mailbox
    ("", VISIBLE),
    # from:, to:, cc:, bcc: (an address, part of one, or me); to: covers Cc and Bcc recipients too
    ("from:ana.souza@acme.example", {"m1"}),
    ("from:ana", {"m1"}),
    ("from:acme.example", {"m1", "m3", "m4", "m6"}),
    ("from:me", {"m4"}),
    ("from:(ana OR ben)", {"m1", "m3"}),
    ("to:kofi@acme.example", {"m3", "m4"}),
    ("cc:kofi@acme.example", {"m3"}),
    ("bcc:kofi@acme.example", {"m4"}),
    ("cc:lars", {"m4"}),
    ("deliveredto:me", {"m1", "m2", "m3", "m6"}),
    # subject:, words, quoted phrases, OR, { }, -, AND, parentheses, +, AROUND
    ("subject:dinner", {"m1", "m4"}),
    ("subject:(dinner movie)", {"m1"}),
    ("dinner movie", {"m1"}),
    ("dinner OR unsubscribe", {"m1", "m2", "m4"}),
    ("{dinner unsubscribe}", {"m1", "m2", "m4"}),
    ("dinner -movie", {"m4"}),
    ("is:unread AND from:ana", {"m1"}),
    ("(dinner OR meeting) -from:me", {"m1", "m2"}),
    ('"after dinner"', {"m1"}),
    ('"dinner after"', set()),
    ("+dinner", {"m1", "m4"}),
    ("meet", set()),  # whole words: "meet" is not in "Meeting"
    ("meeting", {"m2"}),
    ("on-call", {"m3"}),
    ("holiday AROUND 3 vacation", {"m1"}),
    ("holiday AROUND 1 vacation", set()),
    ("re:dinner", {"m4"}),  # not an operator: the words "re dinner"
    # after:, before:, older:, newer: midnight PST, YYYY/MM/DD or MM/DD/YYYY, or epoch seconds
    ("after:2025/09/21", {"m1", "m4"}),
    ("after:09/21/2025", {"m1", "m4"}),
    ("newer:2025/09/21", {"m1", "m4"}),
    ("after:2025/09/29", {"m4"}),  # m1 is the 28th in PST
    ("before:2025/09/29 after:2025/09/28", {"m1"}),
    ("before:2025/09/01", {"m3", "m6"}),
    ("older:2025/09/01", {"m3", "m6"}),
    (f"after:{EPOCH_2025_09_29_04_UTC}", {"m1", "m4"}),
    # older_than:, newer_than: d, m, y back from the sandbox clock (2025-09-30 08:00 UTC)
    ("newer_than:2d", {"m1", "m4"}),
    ("newer_than:7d", {"m1", "m4"}),
    ("newer_than:30d", {"m1", "m2", "m4"}),
    ("newer_than:1m", {"m1", "m2", "m4"}),
    ("older_than:1m", {"m3", "m6"}),
    ("older_than:1y", {"m6"}),
    # is:, in:, label:
    ("is:unread", {"m1"}),
    ("is:read", {"m2", "m3", "m4", "m6"}),
    ("is:starred", {"m3"}),
    ("is:important", {"m3"}),
    ("label:important", {"m3"}),
    ("in:inbox", {"m1", "m2", "m3", "m6"}),
    ("label:inbox", {"m1", "m2", "m3", "m6"}),
    ("in:sent", {"m4"}),
    ("in:trash", {"m5"}),
    ("in:anywhere", VISIBLE | {"m5"}),
    ("in:anywhere password", {"m5"}),
    ("is:snoozed", set()),
    ("is:muted", set()),
    # category: received mail no other category claims is Primary
    ("category:primary", {"m1", "m3", "m6"}),
    ("category:promotions", {"m2"}),
    ("in:inbox -category:promotions", {"m1", "m3", "m6"}),
    ("category:social", set()),
    # has:, filename:, list: (this mailbox holds no attachment and no mailing-list header)
    ("has:attachment", set()),
    ("has:drive", set()),
    ("filename:pdf", set()),
    ("list:info@news.example", set()),
    ("has:youtube", {"m2"}),
    ("has:nouserlabels", VISIBLE),
    ("has:userlabels", set()),
    ("has:yellow-star", {"m3"}),
    # size:, larger:, smaller: the message's bytes
    ("larger:2K", {"m6"}),
    ("smaller:2K", {"m1", "m2", "m3", "m4"}),
    ("size:2000", {"m6"}),
    ("larger:10M", set()),
    ("rfc822msgid:<m1@mail.sandbox.example>", {"m1"}),
]


@pytest.mark.parametrize(("query", "expected"), CASES, ids=[q or "(empty)" for q, _ in CASES])
def test_a_documented_query_finds_what_gmail_finds(
    tools: SandboxToolset, query: str, expected: set[str]
) -> None:
    assert found(tools, query) == expected


def test_spam_and_trash_come_back_when_asked_for(tools: SandboxToolset) -> None:
    assert found(tools, "password") == set()
    assert found(tools, "password", include_spam_trash=True) == {"m5"}


def test_list_threads_answers_the_same_query(tools: SandboxToolset) -> None:
    result = tools.execute("GMAIL_LIST_THREADS", {"query": "newer_than:7d"})
    assert result["successful"] and {t["id"] for t in result["data"]["threads"]} == {"t1"}


ERRORS = [
    # query, the words the error must hold (the operator it could not answer)
    ("is:purple", "is:purple"),
    ("category:work", "category:work"),
    ("has:pdf", "has:pdf"),
    ("newer_than:7w", "newer_than:7w"),
    ("older_than:soon", "older_than:soon"),
    ("after:yesterday", "'yesterday' is not a date"),
    ("before:2025/13/01", "'2025/13/01' is not a date"),
    ("larger:big", "larger:big"),
    ("holiday AROUND near vacation", "AROUND"),
    ("from:ana AROUND 2 vacation", "AROUND"),
    ('"unclosed', "Invalid query"),
    ("(dinner", "Invalid query"),
]


@pytest.mark.parametrize(("query", "named"), ERRORS, ids=[q for q, _ in ERRORS])
def test_an_operator_the_sandbox_cannot_answer_is_an_error_naming_it(
    tools: SandboxToolset, query: str, named: str
) -> None:
    for slug in ("GMAIL_FETCH_EMAILS", "GMAIL_LIST_THREADS"):
        result = tools.execute(slug, {"query": query})
        assert not result["successful"] and named in (result["error"] or ""), (slug, result)


@pytest.mark.parametrize(
    "query", ["newer_than:7d", "newer_than:30d", "category:primary", "in:inbox is:unread"]
)
def test_inbox_triage_filters_by_recency_or_category_find_the_seeded_mail(query: str) -> None:
    scenario = load_scenario(ROOT / "scenario", "inbox-triage")
    tools = SandboxToolset(seed(scenario, 0))
    result = tools.execute("GMAIL_FETCH_EMAILS", {"query": query, "max_results": 20})
    assert result["successful"] and len(result["data"]["messages"]) == len(scenario.emails) == 5


def test_a_query_nested_thousands_deep_is_an_error_not_a_crash(tools: SandboxToolset) -> None:
    """What an agent under test may send: 5,000 negations would exhaust Python's stack in the parser
    or in each message's test; the tool answers an error envelope, and sane nesting still works."""
    result = tools.execute("GMAIL_FETCH_EMAILS", {"query": "-" * 5000 + "dinner"})
    assert not result["successful"] and "nested deeper than" in (result["error"] or "")
    assert found(tools, "(" * 40 + "password OR -password" + ")" * 40, include_spam_trash=True) == found(
        tools, "", include_spam_trash=True
    )
