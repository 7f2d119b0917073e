"""What the viewer's labelling panel needs beside the trials: where the judged parts are, and how far
the judge agreed with people on each, as last measured.

A reviewer labels judged parts one after another across trials (`n` jumps to the next one), so the
page must know every judged part before the trials' details are unpacked: `judged` lists them as
[trial index, part id, criterion], small enough for the plain first-paint data (the evidence hash and the
judge's verdict come with the part itself when its trial is drawn). `agreement` is the newest
measurement in baseline/judge.jsonl that the summary carries (evals/gate/judge_record.py), cut down
to the figures a reader sees beside each judged part: a reviewer deciding whether to trust a score
sees at once whether the judge was ever shown to read that criterion.

The labels the page exports are exactly the lines `evals.grade.labelled` reads (label.js writes them).
"""

from __future__ import annotations

from typing import Any

from evals.gate.agreement import Agreement
from evals.gate.summary import Summary


def judged_parts(trials: list[dict[str, Any]]) -> list[list[Any]]:
    """[trial index, part id, criterion] of every part a judge decided with evidence to label, in
    page order (the criterion lets the criteria table show the agreement of its judged parts)."""
    return [
        [index, part["id"], part["criterion"]]
        for index, trial in enumerate(trials)
        for part in trial.get("parts") or []
        if part.get("judge") and part.get("evidence_sha256")
    ]


def figure(a: Agreement) -> dict[str, Any]:
    """One criterion's agreement as the page shows it: the figures, and what to make of them in words."""
    return {
        "labels": a.labels,
        "raw": a.raw,
        "ac1": a.ac1,
        "ac1_ci": list(a.ac1_ci) if a.ac1_ci else None,
        "constant": a.constant,
        "words": a.verdict_words(),
    }


def agreement_view(summary: Summary | None) -> dict[str, Any] | None:
    """The newest judge measurement the run was reported with, per "scenario/part", or None."""
    check = summary.judge_agreement if summary else None
    if check is not None and check.prompts_from is not None:
        # a PR's measurement of the judge prompts it edits: the run was graded with the base's
        # prompts (the ruler comes from the base branch), so its parts read the base's figures
        check = check.base
    if check is None:
        return None
    return {
        "recorded": check.recorded,
        "source": check.source,
        "model": check.judge.model,
        "floor": check.min_agreement,
        "alarms": list(check.alarms),
        "criteria": {key: figure(a) for key, a in check.criteria.items()},
    }


def labelling_view(trials: list[dict[str, Any]], summary: Summary | None) -> dict[str, Any]:
    return {"judged": judged_parts(trials), "agreement": agreement_view(summary)}
