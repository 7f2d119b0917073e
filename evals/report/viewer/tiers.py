"""The viewer's task list grouped by tier, with the figures the report's "By tier" table shows.

A suite spans single-service (L1), cross-service (L2) and multi-stakeholder (L3) tasks, and a reader
looks for "which tier fell" before "which trial": so the trials are listed under their tier (pass@1,
pass@k and pass^k of its tasks, the mean total over its points) and their task (the same rates over
its own trials). The tiers come from summary.json (`Summary.tiers`, built from `Scenario.task_tier()`);
a run without them (no summary yet, or one written before tiers) lists its tasks under one heading.
"""

from __future__ import annotations

from typing import Any

from evals.gate.summary import Summary

TIER_NAMES = {"L1": "single-service", "L2": "cross-service", "L3": "multi-stakeholder"}


def _task(name: str, trials: list[int], summary: Summary | None) -> dict[str, Any]:
    agg = summary.scenarios.get(name) if summary is not None else None
    if agg is None:
        return {"name": name, "trials": trials}
    return {
        "name": name,
        "trials": trials,
        "k": agg.k,
        "errored": agg.errored,
        "threshold": agg.pass_threshold,
        "mean": agg.total.mean,
        "max": agg.max_points,
        "pass_at_1": agg.pass_at_1,
        "pass_at_k": agg.pass_at_k,
        "pass_pow_k": agg.pass_pow_k,
    }


def tier_groups(
    summary: Summary | None, order: list[str], trial_scenarios: list[str]
) -> list[dict[str, Any]]:
    """[{tier, name, stats, tasks: [{name, trials: [index into the trials], rates…}]}], tiers in
    order (L1, L2, L3), tasks in the run's order (`order`, then any other task a trial names).
    `tier` is None for the group of tasks no tier lists."""
    names = list(dict.fromkeys([*order, *trial_scenarios]))
    indices: dict[str, list[int]] = {name: [] for name in names}
    for n, scenario in enumerate(trial_scenarios):
        indices[scenario].append(n)
    tiers = summary.tiers if summary is not None else {}
    groups: list[dict[str, Any]] = []
    placed: set[str] = set()
    for tier in sorted(tiers):
        stats = tiers[tier]
        tasks = [t for t in names if t in stats.tasks]
        placed.update(tasks)
        groups.append(
            {
                "tier": tier,
                "name": TIER_NAMES.get(tier, ""),
                "stats": stats.model_dump(mode="json"),
                "tasks": [_task(t, indices[t], summary) for t in tasks],
            }
        )
    rest = [t for t in names if t not in placed and indices[t]]
    if rest:
        groups.append(
            {"tier": None, "name": "", "stats": None, "tasks": [_task(t, indices[t], summary) for t in rest]}
        )
    return groups
