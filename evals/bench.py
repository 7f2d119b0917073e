"""Simulation benchmark of the gate rule: does it flag real drops and ignore noise?

Synthetic trial totals shaped like the seed runs of Operation Nightshift (three runs of one agent
scored 16, 19 and 20 on 25 points: mean ≈ 18.3, σ ≈ 2), rounded to whole points and clipped to the
rubric's range. Each simulated PR draws a fresh baseline and a run, then goes through the *live*
rule: `gate.decide` and, while it says inconclusive, `gate.extra_trials` with the configured budget.

- false-alarm rate: share of `regression` verdicts when nothing changed (goal ≤ 5%);
- detection rate: share of `regression` verdicts for a true 3-point drop (goal ≥ 80%).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING

from evals.stats import Estimate, cluster

if TYPE_CHECKING:  # the rest is imported where it is used: `python -m evals` starts without them
    import numpy as np

    from evals.config import GateConfig, Threshold
    from evals.gate import Decision

FALSE_ALARM_GOAL = 0.05
DETECTION_GOAL = 0.80


@dataclass(frozen=True)
class Scenario:
    """The synthetic score distribution and how much evidence each side gets."""

    max_points: int = 25
    mean: float = 55 / 3  # the seed runs: (16 + 19 + 20) / 3
    sd: float = 2.0
    drop: float = 3.0
    baseline_trials: int = 6  # what the nightly workflow blesses by default
    start_trials: int = 3


@dataclass(frozen=True)
class Outcome:
    verdicts: dict[str, float]
    mean_trials: float

    def rate(self, verdict: Decision) -> float:
        return self.verdicts.get(verdict, 0.0)


@dataclass(frozen=True)
class BenchResult:
    scenario: Scenario
    runs: int
    no_change: Outcome
    true_drop: Outcome

    @property
    def false_alarm_rate(self) -> float:
        return self.no_change.rate("regression")

    @property
    def detection_rate(self) -> float:
        return self.true_drop.rate("regression")

    @property
    def meets_goals(self) -> bool:
        return self.false_alarm_rate <= FALSE_ALARM_GOAL and self.detection_rate >= DETECTION_GOAL


def _draw(rng: np.random.Generator, s: Scenario, mean: float, n: int) -> list[float]:
    import numpy as np

    return [float(x) for x in np.clip(np.rint(rng.normal(mean, s.sd, n)), 0, s.max_points)]


def simulate_pr(
    rng: np.random.Generator, s: Scenario, true_mean: float, threshold: Threshold, gate: GateConfig
) -> tuple[Decision, int]:
    """One PR through the live rule: the verdict and the trials it took."""
    from evals.gate import decide, extra_trials

    allowed = threshold.allowed_drop(s.max_points)
    prior_sd = gate.prior_sd_percent / 100 * s.max_points
    base = _draw(rng, s, s.mean, s.baseline_trials)
    run = _draw(rng, s, true_mean, s.start_trials)
    while True:
        estimate = Estimate((cluster("sim", run, base, prior_sd),))
        extra = extra_trials(estimate, len(run), gate.max_trials, allowed, gate.confidence, gate.min_trials)
        if extra == 0:
            return decide(estimate, allowed, gate.confidence), len(run)
        run += _draw(rng, s, true_mean, extra)


def _outcome(
    rng: np.random.Generator, s: Scenario, true_mean: float, threshold: Threshold, gate: GateConfig, runs: int
) -> Outcome:
    counts: Counter[str] = Counter()
    trials = 0
    for _ in range(runs):
        verdict, k = simulate_pr(rng, s, true_mean, threshold, gate)
        counts[verdict] += 1
        trials += k
    return Outcome({v: n / runs for v, n in sorted(counts.items())}, trials / runs)


def run_bench(
    s: Scenario, threshold: Threshold, gate: GateConfig, runs: int = 2000, seed: int = 0
) -> BenchResult:
    import numpy as np

    rng = np.random.default_rng(seed)
    return BenchResult(
        scenario=s,
        runs=runs,
        no_change=_outcome(rng, s, s.mean, threshold, gate, runs),
        true_drop=_outcome(rng, s, s.mean - s.drop, threshold, gate, runs),
    )


def format_result(r: BenchResult, threshold: Threshold, gate: GateConfig) -> str:
    s = r.scenario

    def verdicts(o: Outcome) -> str:
        return ", ".join(f"{v} {share:.1%}" for v, share in o.verdicts.items())

    ok = {True: "meets", False: "MISSES"}
    return "\n".join(
        [
            f"Gate simulation: {r.runs} PRs per case, "
            f"scores ~ round(N({s.mean:.1f}, {s.sd:g}²)) on 0..{s.max_points}",
            f"  baseline k={s.baseline_trials}; run starts at k={s.start_trials}, budget {gate.max_trials}; "
            f"allowed drop {threshold.allowed_drop(s.max_points):g}; {gate.confidence:.0%} CI",
            f"  false alarms (no true change): {r.false_alarm_rate:.1%}  goal ≤ {FALSE_ALARM_GOAL:.0%}: "
            f"{ok[r.false_alarm_rate <= FALSE_ALARM_GOAL]}  [{verdicts(r.no_change)}; "
            f"mean k {r.no_change.mean_trials:.1f}]",
            f"  detection (true {s.drop:g}-point drop): {r.detection_rate:.1%}  goal ≥ {DETECTION_GOAL:.0%}: "
            f"{ok[r.detection_rate >= DETECTION_GOAL]}  [{verdicts(r.true_drop)}; "
            f"mean k {r.true_drop.mean_trials:.1f}]",
        ]
    )
