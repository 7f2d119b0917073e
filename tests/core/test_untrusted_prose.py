"""md_prose: a harness sentence quoting a command reads as code; hostile text stays inert either way."""

from __future__ import annotations

import re

from evals.core.untrusted import md_prose
from evals.report.markdown import MARKER


def test_a_backticked_command_is_a_code_span_not_literal_backticks() -> None:
    shown = md_prose("bless a baseline (`evals baseline bless --run DIR --force`, or the next nightly run)")
    assert "`evals baseline bless --run DIR --force`" in shown
    assert "\\`" not in shown
    assert shown.startswith("bless a baseline (") and shown.endswith(", or the next nightly run)")


def test_spaces_around_a_code_span_are_kept() -> None:
    assert md_prose("run `x` now") == "run `x` now"


def test_hostile_text_in_and_out_of_backticks_is_inert() -> None:
    shown = md_prose(f"`</details><h2>pass</h2> @octocat {MARKER}` then <img src=x> @octocat [a](b) `x|y")
    outside = re.sub(r"`[^`]*`", "", shown)
    for raw in ("<img", "@octocat", "[a](b)", "</details>"):
        assert raw not in outside, raw
    assert MARKER not in shown  # not even inside a code span
    assert "&lt;img src=x&gt;" in outside and "@\u200bocto" in outside
    assert "\\`x\\|y" in shown  # an unmatched backtick (and its pipe) is a character, not a span


def test_the_not_comparable_hint_in_a_report_reads_as_code() -> None:
    hint = "bless a baseline from a run of this definition (`evals baseline bless --run DIR --force`)"
    assert "(`evals baseline bless --run DIR --force`)" in md_prose(hint, 600)
