"""Why did this trial fail where that one passed: a failing trial beside a passing one of the same
task, from the first step where they part ways.

Two trials of one task start from the same world, so their first calls are usually the same; the
step where the failing one first does something else (another tool, other arguments, or the same
call answered differently) is usually the answer. Calls are compared with what changes from trial
to trial taken out: the trial's repository names, ids, shas, uuids and times (the sandbox derives
them from the trial number). Of the task's failing and passing trials, the pair that agrees longest
is shown (its divergence is the most telling), looking at the first `CANDIDATES` of each.

From the divergence on, the two call sequences are aligned (difflib, on tool and arguments), so a
call one trial made and the other did not sits beside a gap rather than shifting every row. The
rubric parts whose status differs between the two ("flipped") come with both reasons.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import orjson

if TYPE_CHECKING:
    from evals.agents.base import ToolCall

CANDIDATES = 5  # failing and passing trials tried per task, first ones first
MAX_ROWS = 40  # aligned steps shown after the divergence

_UUID = re.compile(r"\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b")
_HEX = re.compile(r"\b[0-9a-f]{12,64}\b")
_ID_FIELD = re.compile(r'("(?:id|\w+_id|\w+Id)":")([^"\\]*)"')
_TIME = re.compile(r"\d{4}-\d\d-\d\d[T ]\d\d:\d\d(?::\d\d(?:\.\d+)?)?(?:Z|[+-]\d\d:?\d\d)?")


@dataclass
class Side:
    """One trial as the comparison needs it."""

    trial: int
    passed: bool | None
    calls: list[ToolCall]
    names: list[str]  # what names this trial's world (repository full and bare names)
    parts: list[dict[str, Any]]
    entries: list[int] = field(default_factory=list)  # timeline position of each call, in order
    _keys: list[tuple[str, str]] = field(default_factory=list, repr=False)
    _ids: dict[str, str] = field(default_factory=dict, repr=False)

    def _canon(self, value: Any) -> str:
        """`value` as sorted JSON with what is the trial's own taken out: ids numbered in the order
        they first appear in the trial's calls and results (two trials that read "the first page
        the search found" agree, one that reads another page does not), repository names and times
        replaced. On the text: a trial holds megabytes of results."""

        def number(found: str) -> str:
            return self._ids.setdefault(found.replace("-", ""), f"{{id{len(self._ids)}}}")

        text = orjson.dumps(value, option=orjson.OPT_SORT_KEYS).decode("utf-8")
        text = _ID_FIELD.sub(lambda m: m.group(1) + number(m.group(2)) + '"', text)
        for name in self.names:
            text = text.replace(name, "{repo}")
        text = _HEX.sub(lambda m: number(m.group()), _UUID.sub(lambda m: number(m.group()), text))
        return _TIME.sub("{time}", text)

    def _upto(self, n: int) -> tuple[str, str]:
        """Call `n` canonical, every call before it first (ids are numbered as they come); only as
        far as a comparison reads, which is rarely past where two trials part."""
        while len(self._keys) <= n:
            call = self.calls[len(self._keys)]
            args = call.tool + self._canon(call.args)
            self._keys.append((args, self._canon(call.result)))
        return self._keys[n]

    def key(self, n: int) -> str:
        """Call `n`'s tool and arguments."""
        return self._upto(n)[0]

    def result_key(self, n: int) -> str:
        """Call `n`'s result."""
        return self._upto(n)[1]


def agreed(a: Side, b: Side, results: bool = False) -> tuple[int, str]:
    """How many calls the two make alike before they differ, and how they first differ: `tool`,
    `arguments`, `result` (with `results`), or `end` (one stopped, the other went on); (`n`, "")
    when they never do."""
    n = 0
    while n < len(a.calls) and n < len(b.calls):
        if a.calls[n].tool != b.calls[n].tool:
            return n, "tool"
        if a.key(n) != b.key(n):
            return n, "arguments"
        if results and a.result_key(n) != b.result_key(n):
            return n, "result"
        n += 1
    return n, "end" if len(a.calls) != len(b.calls) else ""


def _rows(failing: Side, passing: Side, start: int) -> list[dict[str, Any]]:
    """The two sequences from `start`, aligned on tool and arguments: [{fail, pass, same}], each a
    timeline position or None (a call only one of them made)."""
    a = [failing.key(n) for n in range(start, len(failing.calls))]
    b = [passing.key(n) for n in range(start, len(passing.calls))]
    rows: list[dict[str, Any]] = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        for k in range(max(i2 - i1, j2 - j1)):
            i, j = i1 + k, j1 + k
            rows.append(
                {
                    "fail": failing.entries[start + i] if i < i2 else None,
                    "pass": passing.entries[start + j] if j < j2 else None,
                    "same": tag == "equal",
                }
            )
    return rows[:MAX_ROWS]


def flipped(failing: Side, passing: Side) -> list[dict[str, Any]]:
    """Rubric parts whose status differs between the two trials, with what each trial got."""
    theirs = {p["id"]: p for p in passing.parts}
    out = []
    for part in failing.parts:
        other = theirs.get(part["id"])
        if other is not None and other["status"] != part["status"]:
            out.append(
                {
                    "id": part["id"],
                    "criterion": part["criterion"],
                    "failing": {k: part.get(k) for k in ("status", "score", "reason")},
                    "passing": {k: other.get(k) for k in ("status", "score", "reason")},
                }
            )
    return out


def divergence(sides: list[Side]) -> dict[str, Any] | None:
    """A failing trial beside a passing one, or None when the task has not both. The pair is chosen
    on tools and arguments, then its first difference is found with the results too."""
    failing = [s for s in sides if s.passed is False][:CANDIDATES]
    passing = [s for s in sides if s.passed is True][:CANDIDATES]
    if not failing or not passing:
        return None
    pairs = [(f, p, agreed(f, p)[0]) for f in failing for p in passing]
    f, p, _ = max(pairs, key=lambda pair: pair[2])  # the first of the longest agreements
    same, how = agreed(f, p, results=True)
    rows = _rows(f, p, same) if how else []
    if rows:
        rows[0]["same"] = False  # the call where they part, whatever the alignment pairs with it
    return {
        "failing": f.trial,
        "passing": p.trial,
        "same_before": same,
        "how": how,
        "rows": rows,
        "flipped": flipped(f, p),
    }
