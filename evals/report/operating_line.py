"""The one line every report carries about the gate itself: its measured false alarms and catches.

A verdict asks to be trusted; this line says on what record. It counts the nightly A/A checks and
canary runs in baseline/operating.jsonl (evals/gate/operating.py), the newest `WINDOW` of each.
With nothing recorded it says so in words: "0 false alarms in 0 checks" would read as a clean record.
"""

from __future__ import annotations

from evals.gate.operating import OPERATING_FILE, OperatingTally

LEAD = "🧪 **This gate:**"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _aa(t: OperatingTally) -> str:
    if not t.aa_checks:
        return "no nightly A/A check recorded yet"
    return f"**{_plural(t.false_alarms, 'false alarm')} in {_plural(t.aa_checks, 'nightly A/A check')}**"


def _canary(t: OperatingTally) -> str:
    if not t.canary_runs:
        return "no canary run recorded yet"
    drop = f" (its mean Δ {t.canary_mean_drop:+.2f})" if t.canary_mean_drop is not None else ""
    return f"**caught the canary in {t.canary_caught} of {t.canary_runs}**{drop}"


def operating_text(tally: OperatingTally | None) -> str:
    """The same sentence as plain text (the viewer's header): no Markdown marks to show literally."""
    return operating_line(tally).replace("**", "").replace("`", "")


def operating_line(tally: OperatingTally | None) -> str:
    """The sentence, or "" for a summary written before the gate kept its record."""
    if tally is None:
        return ""
    if not (tally.aa_checks or tally.canary_runs or tally.aa_not_counted or tally.canary_not_counted):
        return f"{LEAD} no nightly A/A check or canary run recorded yet (`{OPERATING_FILE}`)"
    text = f"{LEAD} {_aa(tally)}; {_canary(tally)}"
    undecided = [
        _plural(n, what)
        for n, what in ((tally.aa_not_counted, "A/A check"), (tally.canary_not_counted, "canary run"))
        if n
    ]
    if undecided:
        why = "too few trials, a changed definition, errors"
        text += f"; not counted: {' and '.join(undecided)} that could not decide ({why})"
    return text + f" · the newest {tally.window} of each, `{OPERATING_FILE}`"
