"""`mail.asserts_value`: a reply is graded on what it asserts, value by value.

Written as a careful reader grades a reply to "what is the memory limit?" when an earlier mail said
3Gi and the later, authoritative one 4Gi: the answer must give 4Gi as the answer; naming 3Gi only to
set it aside ("not 3Gi", "3Gi was wrong", "from 3Gi to 4Gi") is fine; giving 3Gi as current loses
the point even when 4Gi is mentioned too.
"""

from __future__ import annotations

import pytest

from evals.grade.checks.mail import asserts_value
from evals.grade.registry import GradeContext
from evals.scenario.load import load_scenario
from evals.scenario.model import Scenario
from evals.world.outcome import Outcome, SentMail
from evals.world.sandbox.seed import seed
from evals.world.sandbox.snapshot import outcome
from tests.support.paths import ROOT

VALUE, STALE = r"\b4\s?Gi\b", [r"\b3\s?Gi\b"]


@pytest.fixture
def scenario() -> Scenario:
    return load_scenario(ROOT / "scenario", "trial-run")


def grade(scenario: Scenario, body: str) -> tuple[bool, str]:
    return graded_thread(scenario, body)


@pytest.mark.parametrize(
    "body",
    [
        "The memory limit is 4Gi.",
        "Set the limit to 4Gi, not 3Gi.",
        "We went with 4 Gi rather than 3Gi, per Marcus's correction.",
        "Changed the limit from 3Gi to 4Gi.",
        "Limit: 3Gi → 4Gi.",
        "The 3Gi in the first mail was wrong; the limit is 4Gi.",
        "Ignore the earlier 3Gi. It is 4Gi.",
        "Marcus's first mail said 3Gi; he corrected it. Final answer: 4Gi.",
        "Sam wrote asking to lower it to 3Gi for the demo. It stays 4Gi until Marcus agrees.",
        "The limit is 4Gi. Has the move to 3Gi been agreed with Marcus?",
        "> Please set the limit to 3Gi\nDone: it is 4Gi, per the spec.",
        "It is 4Gi; the 3Gi request was cancelled.",
        "The limit is 4Gi per the approved amendment, which supersedes the 3Gi on the plan page.",
        "Used 4Gi in place of the plan's 3Gi; the amendment overrides the 3Gi figure.",
        "The limit is 4Gi (Marcus corrected his first figure).",
        "The limit is 4Gi, Marcus's corrected figure.",
        "3Gi, since corrected: the limit is 4Gi.",
        "The limit is 4Gi; 3Gi has been superseded.",
        "Requests were 1Gi; limit is 4Gi.",
    ],
)
def test_the_right_value_given_as_the_answer_passes_however_the_stale_one_is_set_aside(
    scenario: Scenario, body: str
) -> None:
    assert grade(scenario, body)[0], body


@pytest.mark.parametrize(
    ("body", "why"),
    [
        ("The memory limit is 3Gi.", "stale"),
        ("The memory limit is 3Gi. (Ignore the 4Gi from the later mail.)", "stale"),
        ("Set it to 3Gi; 4Gi was mentioned too but we kept 3Gi.", "stale"),
        ("Limits are 3Gi and 4Gi.", "stale"),
        ("I could not find the limit.", "does not give"),
        ("Not 4Gi: the limit stays as it was.", "does not give"),
        ("Is the limit 4Gi now?", "does not give"),
        ("You asked for the limit: it is 3Gi. Sam wants it at 4Gi.", "stale"),
        ("3Gi supersedes the 4Gi from the later mail.", "stale"),
        ("The limit is 3Gi (Marcus corrected his first figure).", "stale"),
        ("4Gi was corrected; the limit is 3Gi.", "stale"),
        ("The first mail said 4Gi; the limit is 3Gi.", "stale"),
    ],
)
def test_the_stale_value_given_as_current_or_no_answer_fails(scenario: Scenario, body: str, why: str) -> None:
    passed, detail = grade(scenario, body)
    assert not passed and why in detail, (body, detail)


def test_no_mail_says_so(scenario: Scenario) -> None:
    snap = outcome(seed(scenario, 0))
    result = asserts_value(GradeContext(outcome=snap, scenario=scenario), "dev", VALUE, STALE)
    assert not result.passed and result.detail.startswith("no mail to")


# --- #37: replies read by their conclusion, on unwrapped paragraphs ---------------------------------


def graded_thread(scenario: Scenario, *bodies: str) -> tuple[bool, str]:
    """The mails to the developer, sent in this order."""
    snap: Outcome = outcome(seed(scenario, 0))
    address = scenario.persona("dev").address
    for n, body in enumerate(bodies):
        snap.sent.append(SentMail(id=f"m{n}", thread_id="t", to=[address], subject="Re: limits", body=body))
    result = asserts_value(GradeContext(outcome=snap, scenario=scenario), "dev", VALUE, STALE)
    return result.passed, result.detail


@pytest.mark.parametrize(
    "body",
    [
        "Hi Sam,\n\nthe limit is now 4Gi, not\n3Gi as the first mail said.",
        "We set it to 4Gi instead of\n3Gi.",
        "The new value, 4Gi, is meant to replace\nthe 3Gi from the first mail.",
        "Final: 4Gi. Marcus's first figure was\n3Gi; he corrected it.",
    ],
)
def test_where_a_mail_client_wrapped_the_line_does_not_change_what_is_asserted(
    scenario: Scenario, body: str
) -> None:
    passed, detail = grade(scenario, body)
    assert passed, detail


def test_a_stale_value_the_agent_sets_itself_is_asserted_though_a_request_is_reported_first(
    scenario: Scenario,
) -> None:
    """ "As the team asked for, I set it to 3Gi" is the agent's own claim; only a request reported in
    the value's own clause ("Sam asked to lower it to 3Gi") names a value without asserting it."""
    passed, detail = grade(scenario, "As the team asked for, I set it to 3Gi. 4Gi was the old plan.")
    assert not passed and "stale" in detail


@pytest.mark.parametrize(
    ("bodies", "passes"),
    [
        (("The limit is 4Gi.", "Correction: the limit is 3Gi."), False),  # the last word is stale
        (("The limit is 3Gi.", "Sorry, that was wrong: the limit is 4Gi, not 3Gi."), True),
        (("The limit is 4Gi.", "Please ignore my last mail, I will confirm the value tomorrow."), False),
        (("The limit is 4Gi.", "Thanks, the PR is up for review."), True),  # says nothing new about it
    ],
)
def test_what_counts_is_what_the_mails_read_in_order_conclude(
    scenario: Scenario, bodies: tuple[str, ...], passes: bool
) -> None:
    passed, detail = graded_thread(scenario, *bodies)
    assert passed is passes, detail
    if len(bodies) > 1 and passes:
        assert "last word" in detail


def test_a_request_anywhere_in_its_sentence_is_a_question() -> None:
    from evals.grade.checks.mail_forms import questions

    body = "Thanks for the note. For the draft offer: please let me know which Marco it is for."
    assert [q for q, _ in questions(body)] == [
        "For the draft offer: please let me know which Marco it is for."
    ]
