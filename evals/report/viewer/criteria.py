"""The summary as the viewer shows it: the verdict, totals and criteria against the baseline, the
criteria in rubric order (a grade lists its parts in the rubric's order; summary.json's objects are
sorted by key, C10 before C2), each with the trials where it failed, at the failing part.
"""

from __future__ import annotations

import re
from typing import Any

from evals.gate.summary import Summary
from evals.report.operating_line import operating_text
from evals.report.story import viewer_story

_NUMBER = re.compile(r"(\d+)")


def natural(key: str) -> list[Any]:
    """C2 before C10: numbers in a name compared as numbers."""
    return [int(x) if x.isdigit() else x for x in _NUMBER.split(key)]


def criteria_order(summary: Summary, trials: list[dict[str, Any]]) -> list[str]:
    """The flat criterion keys in rubric order: the order a trial's parts list them (a grade keeps
    the rubric's order; summary.json's objects do not), then any criterion no trial graded."""
    order: list[str] = []
    run_order = {name: n for n, name in enumerate(summary.run.scenarios)}
    for t in sorted(trials, key=lambda t: run_order.get(t["scenario"], len(run_order))):
        prefix = f"{t['scenario']}/" if summary.several else ""
        for part in t["parts"]:
            key = prefix + part["criterion"]
            if key in summary.criteria and key not in order:
                order.append(key)
    return order + sorted((k for k in summary.criteria if k not in order), key=natural)


def criterion_trials(trials: list[dict[str, Any]], several: bool) -> dict[str, dict[str, Any]]:
    """Per flat criterion key: the trials where one of its parts failed (at that part), and how many
    trials graded it."""
    failed: dict[str, dict[tuple[str, int], str]] = {}
    graded: dict[str, set[tuple[str, int]]] = {}
    for t in trials:
        prefix = f"{t['scenario']}/" if several else ""
        where = (t["scenario"], t["trial"])
        for part in t["parts"]:
            key = prefix + part["criterion"]
            graded.setdefault(key, set()).add(where)
            if part["status"] == "failed":
                failed.setdefault(key, {}).setdefault(where, part["id"])
    return {
        key: {"failed": [[s, n, part] for (s, n), part in failed.get(key, {}).items()], "graded": len(seen)}
        for key, seen in graded.items()
    }


def summary_view(summary: Summary, trials: list[dict[str, Any]]) -> dict[str, Any]:
    """The verdict, totals and criteria vs baseline (in rubric order, each with the trials where it
    failed); per-trial parts come from the trials themselves."""
    titles = {
        (name if summary.several else "") + ("/" if summary.several else "") + c: v.title
        for name, agg in summary.scenarios.items()
        for c, v in agg.criteria.items()
    }
    data = summary.model_dump(
        mode="json", include={"verdict", "reasons", "notices", "total", "gate", "adaptive"}
    )
    where = criterion_trials(trials, summary.several)
    data["criteria"] = {
        key: {
            **summary.criteria[key].model_dump(mode="json"),
            "title": titles.get(key, ""),
            "trials": where.get(key, {"failed": [], "graded": 0}),
        }
        for key in criteria_order(summary, trials)
    }
    data["criteria_order"] = list(data["criteria"])
    data["story"] = viewer_story(summary)  # what fell, before any statistic (evals/report/story.py)
    data["operating"] = operating_text(summary.operating)  # the gate's own record, as the report says it
    data["categories"] = {key: item.model_dump(mode="json") for key, item in summary.categories.items()}
    return data
