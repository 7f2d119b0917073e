"""Turn a run directory's results into summary.json and report.md, with the gate's verdict.

Kept apart from the runner so `compare` and `grade` can rebuild both from stored results alone.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from evals.aggregate import aggregate_scenario
from evals.fingerprint import fingerprint
from evals.gate import GateResult, compare, extra_trials
from evals.report import publish, render
from evals.rundir import RunDir
from evals.runner import Plan


def summarise(p: Plan, rd: RunDir, meta: dict[str, Any]) -> tuple[dict[str, Any], GateResult]:
    results = rd.results()
    aggregates = {
        name: aggregate_scenario([r for r in results if r["scenario"] == name], ls.rubric)
        for name, ls in p.scenarios.items()
    }
    fp = fingerprint(
        {n: (ls.scenario, ls.folder, ls.judge_prompts) for n, ls in p.scenarios.items()}, p.config.judge.model
    )
    gate = compare(
        aggregates,
        fp,
        p.baseline,
        p.config.threshold,
        p.config.gate,
        max_error_share=p.config.max_error_share,
    )
    summary = build_summary(meta, aggregates, gate, fp, results)
    return summary, gate


def trials_to_add(p: Plan, rd: RunDir, meta: dict[str, Any]) -> int:
    """The adaptive step: how many trials per scenario `run` adds before deciding (0: decide now)."""
    _, gate = summarise(p, rd, meta)
    if gate.estimate is None or gate.total is None:
        return 0
    return extra_trials(
        gate.estimate,
        p.trials,
        p.config.gate.max_trials,
        gate.total["allowed_drop"],
        p.config.gate.confidence,
        p.config.gate.min_trials,
    )


def build_summary(
    meta: dict[str, Any],
    aggregates: dict[str, dict[str, Any]],
    gate: GateResult,
    fp: dict[str, Any],
    results: list[dict[str, Any]],
) -> dict[str, Any]:
    single = len(aggregates) == 1

    def key(scenario: str, item: str) -> str:
        return item if single else f"{scenario}/{item}"

    def flat(kind: str) -> dict[str, Any]:
        out = {}
        for name, agg in aggregates.items():
            cmp = gate.scenarios.get(name, {}).get(kind, {})
            for item, value in agg[kind].items():
                out[key(name, item)] = {
                    "mean": value["mean"],
                    "max": value["max"],
                    "baseline": cmp.get(item, {}).get("baseline"),
                    "delta": cmp.get(item, {}).get("delta"),
                    "pass_rate": value.get("pass_rate"),
                    "baseline_pass_rate": cmp.get(item, {}).get("baseline_pass_rate"),
                    "pass_rate_delta": cmp.get(item, {}).get("pass_rate_delta"),
                }
        return out

    means = [a["total"]["mean"] for a in aggregates.values()]
    bases = [gate.scenarios.get(n, {}).get("baseline") for n in aggregates]
    total_mean = (
        round(sum(m for m in means if m is not None), 4) if any(m is not None for m in means) else None
    )
    total_base = (
        round(sum(b for b in bases if b is not None), 4)
        if bases and all(b is not None for b in bases)
        else None
    )
    trials: dict[str, list[dict[str, Any]]] = {name: [] for name in aggregates}
    for r in results:
        g = r.get("grade") or {}
        trials.setdefault(r["scenario"], []).append(
            {
                "trial": r["trial"],
                "status": r["status"],
                "error": r.get("error"),
                "total": g.get("total"),
                "passed": g.get("passed"),
                "parts": g.get("parts", []),
                "metrics": r.get("metrics", {}),
            }
        )
    return {
        "verdict": gate.verdict,
        "reasons": gate.reasons,
        "notices": gate.notices,
        "run": meta,
        "total": {
            "mean": total_mean,
            "max": sum(a["max_points"] for a in aggregates.values()),
            "baseline": total_base,
            "delta": round(total_mean - total_base, 4)
            if total_mean is not None and total_base is not None
            else None,
        },
        "gate": gate.total,
        "adaptive": {
            "started_with": meta.get("trials_started", meta.get("trials")),
            "trials": meta.get("trials"),
            "budget": meta.get("trials_budget"),
        },
        "criteria": flat("criteria"),
        "categories": flat("categories"),
        "scenarios": aggregates,
        "comparison": gate.scenarios,
        "fingerprint": fp,
        "trials": trials,
    }


def write_outputs(rd: RunDir, summary: dict[str, Any], gate: GateResult) -> Path:
    """summary.json and report.md in the run dir; in GitHub Actions also the job summary and
    annotations, so the verdict is visible even where the PR comment cannot be posted."""
    rd.write_json("summary.json", summary)
    report = rd.write_text("report.md", render(summary, gate))
    publish(report.read_text(encoding="utf-8"), gate)
    return report
