"""Quoted agent text makes no link, no reference and no reordering; log lines start no command."""

from __future__ import annotations

import re

import pytest

from evals.core.untrusted import ZWSP, console_lines, md_code, md_prose, md_text

HOSTILE = (
    "merged, see https://evil.example/pass and www.evil.example; closes #123, GH-45 and other/repo#7 "
    "\u202eexe.txt\u202c \u2066isolated\u2069 \u200fmark"
)


@pytest.mark.parametrize("show", [md_text, md_prose], ids=["md_text", "md_prose"])
def test_urls_www_and_issue_references_are_left_unlinked(show: object) -> None:
    shown = show(HOSTILE, 600)  # type: ignore[operator]
    assert "://" not in shown and "www." not in shown.lower()
    assert not re.search(r"#\d", shown) and not re.search(r"\bGH-\d", shown)
    assert f"https:{ZWSP}//evil.example/pass" in shown  # still readable
    assert "GH" in shown and "123" in shown and "45" in shown


def test_bidirectional_controls_are_dropped_everywhere() -> None:
    for shown in (
        md_text(HOSTILE, 600),
        md_code(HOSTILE, 600),
        md_prose(HOSTILE, 600),
        console_lines(HOSTILE),
    ):
        assert not re.search("[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]", shown)
        assert "exe.txt" in shown


def test_a_code_span_keeps_the_text_as_written_apart_from_the_controls() -> None:
    assert md_code("see https://x.example #1", 80) == "`see https://x.example #1`"  # spans link nothing


def test_each_line_of_an_error_message_is_safe_for_the_runner() -> None:
    shown = console_lines("bad run.json\n::add-mask::secret\n  ::error title=x::forged\n##[group]x")
    for line in shown.splitlines():
        assert not line.lstrip().startswith("::") and "##[" not in line
    assert shown.splitlines()[0] == "bad run.json" and len(shown.splitlines()) == 4
