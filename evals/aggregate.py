"""Per-scenario aggregates of a run: means per part, criterion, category and total; pass@1, pass@k,
pass^k; tokens, cost and turns.

Means skip unscored parts (an undecided judge is missing data, not a zero). Errored trials are
infrastructure failures and are counted, never scored.
"""

from __future__ import annotations

import statistics
from typing import Any

from evals.grade.rubric import Rubric


def _mean(values: list[float]) -> float | None:
    return round(statistics.fmean(values), 4) if values else None


def _pass_rates(flags: list[bool | None]) -> dict[str, float | None]:
    decided = [f for f in flags if f is not None]
    if not decided:
        return {"pass_at_1": None, "pass_at_k": None, "pass_pow_k": None}
    return {
        "pass_at_1": round(sum(decided) / len(decided), 4),
        "pass_at_k": 1.0 if any(decided) else 0.0,
        "pass_pow_k": 1.0 if all(decided) else 0.0,
    }


def aggregate_scenario(records: list[dict[str, Any]], rubric: Rubric) -> dict[str, Any]:
    ok = [r for r in records if r["status"] == "ok"]
    errored = [r for r in records if r["status"] != "ok"]
    grades = [r["grade"] for r in ok]
    parts: dict[str, dict[str, Any]] = {}
    unscored: dict[str, int] = {}
    for criterion, part in rubric.parts():
        scores = [
            p["score"] for g in grades for p in g["parts"] if p["id"] == part.id and p["score"] is not None
        ]
        missing = len(grades) - len(scores)
        if missing:
            unscored[part.id] = missing
        parts[part.id] = {
            "criterion": criterion.id,
            "max": part.points,
            "scored": len(scores),
            "mean": _mean(scores),
            "pass_rate": round(sum(s >= part.points for s in scores) / len(scores), 4) if scores else None,
        }
    criteria = {}
    for criterion in rubric.criteria:
        means = [parts[p.id]["mean"] for p in criterion.parts]
        criteria[criterion.id] = {
            "title": criterion.title,
            "category": criterion.category,
            "max": criterion.points,
            "mean": round(sum(m for m in means if m is not None), 4)
            if any(m is not None for m in means)
            else None,
            "pass_rate": _full_marks_rate(grades, list(criterion.parts)),
        }
    categories = {}
    for cat, points in rubric.category_points().items():
        means = [c["mean"] for c in criteria.values() if c["category"] == cat and c["mean"] is not None]
        in_cat = [c for c in rubric.criteria if c.category == cat]
        categories[cat] = {
            "title": rubric.categories[cat].title,
            "max": points,
            "mean": round(sum(means), 4) if means else None,
            "pass_rate": _full_marks_rate(grades, [p for c in in_cat for p in c.parts]),
        }
    totals = [float(g["total"]) for g in grades]
    scored_means = [p["mean"] for p in parts.values() if p["mean"] is not None]
    metrics = [r.get("metrics", {}) for r in ok]
    return {
        "k": len(ok),
        "errored": len(errored),
        "max_points": rubric.max_points,
        "pass_threshold": rubric.pass_threshold,
        "total": {
            "mean": round(sum(scored_means), 4) if scored_means else None,
            "stdev": round(statistics.stdev(totals), 4) if len(totals) > 1 else None,
            "per_trial": totals,
            "per_trial_parts": [{p["id"]: p["score"] for p in g["parts"]} for g in grades],
        },
        **_pass_rates([g["passed"] for g in grades]),
        "parts": parts,
        "criteria": criteria,
        "categories": categories,
        "unscored": unscored,
        "usage": _usage(metrics),
        "errors": [{"trial": r["trial"], "error": r.get("error")} for r in errored],
    }


def _full_marks_rate(grades: list[dict[str, Any]], parts: list[Any]) -> float | None:
    """Share of trials with full marks on every one of `parts`, among trials where all were scored."""
    decided = []
    for g in grades:
        scores = {p["id"]: p["score"] for p in g["parts"]}
        if all(scores.get(part.id) is not None for part in parts):
            decided.append(all(scores[part.id] == part.points for part in parts))
    return round(sum(decided) / len(decided), 4) if decided else None


def _usage(metrics: list[dict[str, Any]]) -> dict[str, Any]:
    keys = (
        "input_tokens",
        "output_tokens",
        "cache_read_input_tokens",
        "cache_creation_input_tokens",
        "cost_usd",
        "judge_input_tokens",
        "judge_output_tokens",
        "judge_cost_usd",
    )
    out: dict[str, Any] = {k: round(sum(float(m.get(k, 0) or 0) for m in metrics), 6) for k in keys}
    for key in ("turns", "tool_calls", "latency_s"):
        out[f"{key}_mean"] = _mean([float(m.get(key, 0) or 0) for m in metrics])
    return out
