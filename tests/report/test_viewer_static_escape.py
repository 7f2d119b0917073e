"""`static.esc`, the escape of every string the page without JavaScript shows.

It skips the bidirectional-control lookup for ASCII text (none can hold one); these tests hold it to
the full escape on every kind of text: markup, quotes, controls in any position, None and numbers.
"""

from __future__ import annotations

from html import escape
from typing import Any

import pytest

from evals.report.viewer import static

BIDI = [chr(c) for c in [*range(0x202A, 0x202F), *range(0x2066, 0x206A)]]


def _full(value: Any) -> str:
    """Every character looked up, as the escape was before the ASCII shortcut."""
    return escape("–" if value is None else str(value), quote=True).translate(static._BIDI)


@pytest.mark.parametrize(
    "value",
    [
        "plain words",
        "<script>alert('x')</script> & \"quoted\"",
        "",
        None,
        3.5,
        "é, ü and ✓: not ASCII, no control",
        *(f"Status: {c}deliaf{c}, thanks" for c in BIDI),
        "\u202e<b>" + "x" * 500,
    ],
)
def test_same_as_the_full_escape(value: Any) -> None:
    assert static.esc(value) == _full(value)


def test_controls_are_shown_by_name_and_markup_escaped() -> None:
    assert static.esc("a\u202eb<") == "a⟨U+202E⟩b&lt;"
    assert static.esc(None) == "–"
