"""The nightly history (`baseline/history.jsonl`): one JSON line per nightly run.

Totals and spread per scenario, and each category's mean, so a slow drift shows up even when no
single night crossed the threshold (`python -m evals trend`, evals/baseline/trend.py). Appending the same
run twice is a no-op, so a rerun job is safe.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from evals.core.jsonio import append_jsonl, digest, read_jsonl
from evals.core.stamps import now
from evals.gate.summary import Summary

HISTORY_FILE = "history.jsonl"  # next to the baseline file


def history_entry(summary: Summary, run_dir: Path) -> dict[str, Any]:
    """One line of history.jsonl: enough to plot totals and spread per night without the run dir."""
    run = summary.run
    total = summary.total
    return {
        "run": run_dir.name,
        "started": run.started,
        "recorded": now(),
        "commit": run.commit,
        "agent_config_hash": run.agent_config_hash,
        "fingerprint": digest(summary.fingerprint),
        "verdict": summary.verdict,
        "total": {
            "mean": total.mean,
            "max": total.max,
            "baseline": total.baseline,
            "delta": total.delta,
            "ci": list(summary.gate.ci) if summary.gate else None,
        },
        "scenarios": {
            name: {
                "k": agg.k,
                "errored": agg.errored,
                "mean": agg.total.mean,
                "stdev": agg.total.stdev,
                "per_trial": agg.total.per_trial,
                "pass_at_1": agg.pass_at_1,
                "pass_at_k": agg.pass_at_k,
                "pass_pow_k": agg.pass_pow_k,
                "cost_usd": agg.usage.cost_usd,
                # per-category means for the trend chart (evals/baseline/trend.py); older lines have none
                "categories": {
                    cat: {"title": v.title, "mean": v.mean, "max": v.max} for cat, v in agg.categories.items()
                },
            }
            for name, agg in summary.scenarios.items()
        },
    }


def append_history(path: Path, entry: dict[str, Any]) -> bool:
    """Append one night's line; False when that run is already recorded (reruns of a job are safe)."""
    for line in read_jsonl(path):
        if line.get("run") == entry["run"] and line.get("started") == entry["started"]:
            return False
    append_jsonl(path, entry)
    return True
