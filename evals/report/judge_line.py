"""The one line every report carries about the judge: how far it agrees with people, and its drift alarm.

Half of what a careful reviewer checks is decided by the LLM judge, so a verdict says on what record
the judge is trusted, as the gate's own A/A line does for the gate (operating_line.py). It reads the
newest measurement in baseline/judge.jsonl (evals/gate/judge_record.py) and says it in words: raw
agreement with AC1 and its interval, what a constant judge would get when the judge is no better,
"not measured" when nothing was, and the drift alarm, loudly, when the judge fell below the floor or
changed since it was measured. A judge that is not the one measured gets no figure at all: the old
judge's agreement says nothing about a new prompt.

A PR that edits a judge prompt is graded with the base's prompts, but the edit is a ruler change
waiting to merge, so the line also says what the edited prompts agree with people: the PR job's
measurement of them (`judge agreement --prompts-from`, recorded with `prompts_from` and the
project's measurement nested as `base`), or "not measured" when there is none (no model key).
"""

from __future__ import annotations

from collections.abc import Sequence
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


def edited_prompts(fingerprint: dict[str, Any] | None, edited: Sequence[str] | None) -> list[str]:
    """The judge prompts ("task/judge/PART.md", as the fingerprint and judge.jsonl name them) among a
    PR's edited files (paths from the repository root, `scenario/task/judge/PART.md`)."""
    if not fingerprint or not edited:
        return []
    prompts = identity_of(fingerprint).prompts
    return sorted(p for p in prompts if any(f == p or f.endswith("/" + p) for f in edited))


def _project_line(check: JudgeCheck | None, fingerprint: dict[str, Any] | None) -> str:
    where = f"`{JUDGE_FILE}`"
    if check is None:
        return f"{LEAD} agreement with people not measured yet (`evals judge agreement --record`, {where})"
    when = check.recorded[:10]
    figures = f"{_figures(check)} · {check.window_words()} · {check.judge.model}, measured {when}, {where}"
    unmeasured = identity_of(fingerprint).unmeasured_by(check.judge) if fingerprint else []
    if unmeasured:  # this run's judge is not the one measured: its figure would be another judge's
        return (
            f"{ALARM} this run's judge is not the one measured ({'; '.join(unmeasured)}): its agreement "
            "with people is **not measured**, and blessing waits for `evals judge agreement --record` · "
            f"last measured: {check.judge.model}, {when}, {where}"
        )
    if check.alarms:
        alarms = "; ".join(check.alarms)
        return (
            f"{ALARM} {alarms}; blessing a model-judged run is refused until it is measured again · {figures}"
        )
    return f"{LEAD} {figures}"


def _pr_sentence(check: JudgeCheck | None, edited: list[str]) -> str:
    """What the PR's edited judge prompts agree with people: measured on this PR, or not."""
    names = ", ".join(f"`{p}`" for p in edited)
    pr = check if check is not None and check.prompts_from is not None else None
    if pr is None or set(edited) - set(pr.judge.prompts):
        return (
            f" · this PR edits judge prompt(s) {names}: their agreement with people is **not measured** "
            "(the PR's judge job measures it with ANTHROPIC_API_KEY; docs/judge.md#can-i-trust-it)"
        )
    if pr.overall.raw is None:
        why = "no labelled part was scored by the judge"
        return f" · this PR's judge prompt(s) {names}: agreement with people **not measured** ({why})"
    alarm = " 🚨" if pr.alarms else ""
    return f" · this PR's judge prompt(s) {names}:{alarm} {_figures(pr)} · {pr.window_words()}"


def judge_line(
    check: JudgeCheck | None, fingerprint: dict[str, Any] | None = None, edited: Sequence[str] | None = None
) -> str:
    """The sentence for the report's first screen (Markdown). `edited`: the definition files a PR
    edits (its judge prompts get their own figure, or "not measured")."""
    project = check.base if check is not None and check.prompts_from is not None else check
    line = _project_line(project, fingerprint)
    prompts = edited_prompts(fingerprint, edited)
    return line + _pr_sentence(check, prompts) if prompts else line


def judge_text(
    check: JudgeCheck | None, fingerprint: dict[str, Any] | None = None, edited: Sequence[str] | None = None
) -> str:
    """The same sentence as plain text (the viewer): no Markdown marks to show literally."""
    return judge_line(check, fingerprint, edited).replace("**", "").replace("`", "")
