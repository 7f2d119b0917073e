"""Times, dates and questions as people write them (evals/grade/checks/mail_forms.py).

Written from how a careful colleague reads a reply: "5 pm UTC" is 17:00 and "Aug 14th" is 14 August,
while "9:45 pm" is not 09:45, "24 August" is not the 14th, and "03/09" cannot be read as 9 March
without guessing the writer's convention. A quoted line is the other person's words.
"""

from __future__ import annotations

import re

import pytest

from evals.grade.checks.mail_forms import date_pattern, in_question, questions, time_pattern


@pytest.mark.parametrize(
    ("time", "text"),
    [
        ("17:00", "at 17:00 UTC"),
        ("17:00", "at 5 pm UTC"),
        ("17:00", "at 5:00 p.m."),
        ("17:00", "1700 UTC"),
        ("17:00", "17h00"),
        ("17:00", "17.00 UTC"),
        ("09:45", "9:45 am"),
        ("09:45", "from 09:45"),
        ("06:00", "6am UTC"),
        ("12:00", "at noon"),
    ],
)
def test_a_time_in_any_common_spelling_is_that_time(time: str, text: str) -> None:
    assert re.search(time_pattern(time), text, re.IGNORECASE), (time, text)


@pytest.mark.parametrize(
    ("time", "text"),
    [("17:00", "15:00"), ("17:00", "117:00"), ("09:45", "9:45 pm"), ("09:45", "21:45"), ("17:00", "5 days")],
)
def test_another_time_is_not_that_time(time: str, text: str) -> None:
    assert not re.search(time_pattern(time), text, re.IGNORECASE), (time, text)


@pytest.mark.parametrize(
    ("date", "text"),
    [
        ("2025-08-14", "Thursday 14 August"),
        ("2025-08-14", "the 14th of August"),
        ("2025-08-14", "Aug 14"),
        ("2025-08-14", "August 14th"),
        ("2025-08-14", "2025-08-14"),
        ("2025-08-14", "14/08"),
        ("2025-08-14", "14.08.2025"),
        ("2025-08-14", "08/14/2025"),
        ("2025-09-03", "Sept 3rd"),
        ("2025-09-03", "03/09/25"),
    ],
)
def test_a_date_in_any_common_spelling_is_that_date(date: str, text: str) -> None:
    assert re.search(date_pattern(date), text, re.IGNORECASE), (date, text)


@pytest.mark.parametrize(
    ("date", "text"),
    [
        ("2025-08-14", "24 August"),
        ("2025-08-14", "14 September"),
        ("2025-08-14", "Aug 4"),
        ("2025-09-03", "09/03"),  # month-first only where the day cannot be a month
        ("2025-09-03", "13 September"),
    ],
)
def test_another_date_or_an_undecidable_spelling_is_not_that_date(date: str, text: str) -> None:
    assert not re.search(date_pattern(date), text, re.IGNORECASE), (date, text)


def test_questions_are_asking_sentences_with_the_one_before_and_never_quoted_lines() -> None:
    body = (
        "Hi Maya,\n\n> Which one did you mean?\nTwo colleagues called Marco asked for\nthe offer. "
        "Which one should get it? I told Ana. Please let me know whether to wait."
    )
    found = questions(body)
    assert [q for q, _ in found] == ["Which one should get it?", "Please let me know whether to wait."]
    assert "Marco" in found[0][1]
    assert questions("Done: Ana knows. The offer is on hold.") == []


def test_a_value_in_a_question_is_asked_about_and_one_in_a_statement_is_not() -> None:
    text = "Victor asked for Wednesday 16:00; has that been agreed? It stays at 10:00."
    assert in_question(text, text.index("16:00") + 5)
    assert not in_question(text, text.index("10:00") + 5)
