"""The money limit of one run: what it spent so far (agent and judge), and what it will likely cost.

Trials were bounded by count and tokens, not dollars, so a PR run could not say before it started
what it would cost. The estimate comes from the baseline's own cost per trial (its recorded usage);
the spend from each finished trial's metrics. The limit bounds the whole run, starting trials
included: no new trial starts once the spend reaches it (trials already running finish), so a run
ends at most one concurrent batch past it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from evals.gate.baseline import Baseline
from evals.records.model import TrialRecord


@dataclass
class Spend:
    """Running total of a run's cost against its limit (None: unlimited)."""

    limit: float | None
    spent: float = 0.0
    skipped: list[str] = field(default_factory=list)  # "scenario#trial" kept from starting

    @property
    def reached(self) -> bool:
        return self.limit is not None and self.spent >= self.limit

    def add(self, record: TrialRecord) -> None:
        self.spent += record.metrics.total_cost_usd


def cost_per_trial(baseline: Baseline | None, names: list[str]) -> dict[str, float | None]:
    """Each scenario's mean cost per baseline trial, agent and judge (None: no usage recorded)."""
    out: dict[str, float | None] = {}
    for name in names:
        entry = baseline.scenarios.get(name) if baseline else None
        if entry is None or entry.usage is None or not entry.k:
            out[name] = None
            continue
        out[name] = entry.usage.total_cost_usd / entry.k
    return out


def estimate_line(
    baseline: Baseline | None, names: list[str], trials: int, max_trials: int, limit: float | None
) -> str:
    """One line before the run: its likely cost at the starting k and at the trial budget."""
    per = cost_per_trial(baseline, names)
    known = [v for v in per.values() if v is not None]
    cap = f"; budget ${limit:.2f}" if limit is not None else ""
    if not known:
        return f"Estimated cost: unknown (the baseline records no usage){cap}"
    unit = sum(known)
    missing = [n for n, v in per.items() if v is None]
    line = (
        f"Estimated cost: ${unit * trials:.2f} for {trials} trial(s) per scenario, up to "
        f"${unit * max(trials, max_trials):.2f} if the gate adds trials up to {max(trials, max_trials)} "
        f"(from the baseline: ${unit:.4f} per trial, all scenarios){cap}"
    )
    return line + (f"; no cost recorded for {', '.join(missing)}" if missing else "")
