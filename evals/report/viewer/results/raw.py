"""The raw JSON of a call, one click away, without its base64.

A fetched mail's MIME parts and a file's content are base64: thousands of characters nobody can
read, which the call's view already shows decoded. In the raw JSON each such string (longer than
`LONGEST` characters of the base64 alphabet only) is replaced by a note saying what it was; the
whole value is in the trial's transcript.json. So the page never shows a run of base64 longer than
a line, and does not carry the same text twice. Done on the JSON text (one regular expression over
orjson's output), not by walking the value: a trial holds megabytes of tool results.
"""

from __future__ import annotations

import re
from typing import Any

import orjson

LONGEST = 80
_BASE64 = re.compile(r"[A-Za-z0-9+/_\-\r\n]+={0,2}")
_BASE64_JSON = re.compile(rf'"[A-Za-z0-9+/_=\-]{{{LONGEST + 1},}}"')  # Gmail's MIME parts are unwrapped


def is_base64_blob(value: str) -> bool:
    return len(value) > LONGEST and _BASE64.fullmatch(value) is not None


def _note(match: re.Match[str]) -> str:
    return f'"‹base64, {len(match.group()) - 2:,} characters: decoded in the view; whole in transcript.json›"'


def elided_json(value: Any) -> str:
    """`value` as indented JSON with every long base64 string replaced by a note of its length."""
    return elided(value)[0]


def elided(value: Any) -> tuple[str, int]:
    """`elided_json`, and how many strings it replaced (0: the text is `value`'s own JSON, so a
    caller that wants the value back has it already, without parsing the text)."""
    return _BASE64_JSON.subn(_note, orjson.dumps(value, option=orjson.OPT_INDENT_2).decode("utf-8"))


def elide_base64(value: Any) -> Any:
    """`value` with every long base64 string replaced by a note of its length."""
    return orjson.loads(elided_json(value))
