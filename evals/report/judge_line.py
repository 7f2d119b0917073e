"""The one line every report carries about the judge: how far it agrees with people, and its drift alarm.

Half of what a careful reviewer checks is decided by the LLM judge, so a verdict says on what record
the judge is trusted, as the gate's own A/A line does for the gate (operating_line.py). It reads the
newest measurement in baseline/judge.jsonl (evals/gate/judge_record.py) and says it in words: raw
agreement with AC1 and its interval, what a constant judge would get when the judge is no better,
"not measured" when nothing was, and the drift alarm, loudly, when the judge fell below the floor or
changed since it was measured.
"""

from __future__ import annotations

from typing import Any

from evals.gate.judge_record import JUDGE_FILE, JudgeCheck, identity_of

LEAD = "⚖️ **The judge:**"
ALARM = "🚨 **Judge drift:**"


def _figures(check: JudgeCheck) -> str:
    a = check.overall
    if a.raw is None:
        return "nothing measured (no labelled part was scored by the judge)"
    text = f"agrees with people on **{a.raw:.0%} of {a.labels} labelled parts**"
    if a.ac1 is not None:
        ci = f", {a.ac1_ci[0]:.2f}–{a.ac1_ci[1]:.2f}" if a.ac1_ci else ""
        text += f" (AC1 {a.ac1:.2f}{ci})"
    words = a.verdict_words()
    if words != "better than a constant judge":
        text += f": {words}"
    return text


def judge_line(check: JudgeCheck | None, fingerprint: dict[str, Any] | None = None) -> str:
    """The sentence for the report's first screen (Markdown)."""
    where = f"`{JUDGE_FILE}`"
    if check is None:
        return f"{LEAD} agreement with people not measured yet (`evals judge agreement --record`, {where})"
    when = check.recorded[:10]
    figures = f"{_figures(check)} · {check.window_words()} · {check.judge.model}, measured {when}, {where}"
    changed = identity_of(fingerprint).changes_from(check.judge) if fingerprint else []
    if changed:  # this run's judge is not the one measured
        return (
            f"{ALARM} this run's judge is not the one measured ({'; '.join(changed)}): its agreement with "
            f"people is unmeasured, and blessing waits for `evals judge agreement --record` · last: {figures}"
        )
    if check.alarms:
        alarms = "; ".join(check.alarms)
        return (
            f"{ALARM} {alarms}; blessing a model-judged run is refused until it is measured again · {figures}"
        )
    return f"{LEAD} {figures}"


def judge_text(check: JudgeCheck | None, fingerprint: dict[str, Any] | None = None) -> str:
    """The same sentence as plain text (the viewer): no Markdown marks to show literally."""
    return judge_line(check, fingerprint).replace("**", "").replace("`", "")
