""" "Did you mean …?" for names a person types: scenarios, agents, replays, config keys."""

from __future__ import annotations

import difflib
from collections.abc import Iterable


def did_you_mean(word: str, options: Iterable[str]) -> str:
    """`; did you mean X?` for the closest option, or "" when none is close (difflib's 0.6 ratio)."""
    close = difflib.get_close_matches(word, list(options), n=1)
    return f"; did you mean {close[0]}?" if close else ""
