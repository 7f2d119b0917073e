"""Simulation of the gate on a tiered suite, each task paired with itself in the baseline.

The question (issue #18): do many short, independent tasks detect a drop with fewer model calls
than repeating Nightshift alone? Each task is one cluster of the live estimate (evals/gate/stats.py):
its run trials against its own baseline trials, variances summed across tasks, so the spread
between an easy and a hard task never poses as noise. The verdict goes through the live rule
(`gate.extra_trials` at each look, then `gate.decide_all`), as `bench gate` does for one task.

The synthetic suite has the committed suite's shape: L1 tasks of 2 points (about 8 model calls a
trial), L2 tasks of 6 points (20 calls), L3 tasks of 11 points (30 calls) and Nightshift (25 points,
40 calls). Each point of a trial passes independently with probability 0.75 (a Nightshift trial's
spread is then about 2 points, as the seed's runs). A true drop of 12 % of the suite's points (a
3-point-on-25 equivalent) lowers every point's chance by 0.12. The threshold is the same share of
the total as 1.5 of 25 (6 %). Model calls per verdict count every trial of every task.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING

from evals.core.config import GateConfig, Threshold
from evals.gate.stats import Estimate, cluster
from evals.gate.verdict import Decision, decide_all, extra_trials

if TYPE_CHECKING:
    import numpy as np

PASS_RATE = 0.75
DROP_SHARE = 0.12  # 3 points of 25
THRESHOLD_SHARE = 0.06  # 1.5 points of 25
SUITE_DETECTION_GOAL = 0.90
FALSE_ALARM_GOAL = 0.05


@dataclass(frozen=True)
class Task:
    name: str
    points: int
    calls_per_trial: int


def tiered_suite() -> list[Task]:
    """The committed full suite's shape: 11 L1, 9 L2, 3 small L3 tasks and Nightshift."""
    return (
        [Task(f"l1-{i}", 2, 8) for i in range(11)]
        + [Task(f"l2-{i}", 6, 20) for i in range(9)]
        + [Task(f"l3-{i}", 11, 30) for i in range(3)]
        + [Task("nightshift", 25, 40)]
    )


@dataclass(frozen=True)
class SuiteOutcome:
    verdicts: dict[str, float]
    mean_trials: float
    mean_calls: float

    def rate(self, verdict: Decision) -> float:
        return self.verdicts.get(verdict, 0.0)


def _scores(rng: np.random.Generator, task: Task, rate: float, n: int) -> list[float]:
    return [float(x) for x in rng.binomial(task.points, rate, n)]


def simulate_suite_pr(
    rng: np.random.Generator,
    suite: list[Task],
    drop: float,
    gate: GateConfig,
    start_trials: int,
    baseline_trials: int,
) -> tuple[Decision, int, int]:
    """One PR over the whole suite through the live rule: verdict, trials per task, model calls."""
    total = sum(t.points for t in suite)
    allowed = Threshold(percent=THRESHOLD_SHARE * 100).allowed_drop(total)
    base = {t.name: _scores(rng, t, PASS_RATE, baseline_trials) for t in suite}
    run = {t.name: _scores(rng, t, PASS_RATE - drop, start_trials) for t in suite}
    while True:
        estimate = Estimate(
            tuple(
                cluster(t.name, run[t.name], base[t.name], gate.prior_sd_percent / 100 * t.points)
                for t in suite
            )
        )
        k = len(run[suite[0].name])
        extra = extra_trials(estimate, k, allowed, gate)
        if extra == 0:
            calls = k * sum(t.calls_per_trial for t in suite)
            return decide_all(estimate, allowed, gate.confidence), k, calls
        for t in suite:
            run[t.name] += _scores(rng, t, PASS_RATE - drop, extra)


def run_suite_bench(
    gate: GateConfig, runs: int = 500, seed: int = 0, start_trials: int = 1, baseline_trials: int = 6
) -> dict[str, SuiteOutcome]:
    """No change and a 12 % drop of the suite's points, `runs` simulated PRs each."""
    import numpy as np

    rng = np.random.default_rng(seed)
    suite = tiered_suite()
    out = {}
    for name, drop in (("no change", 0.0), ("drop 12%", DROP_SHARE)):
        counts: Counter[str] = Counter()
        trials = calls = 0
        for _ in range(runs):
            verdict, k, c = simulate_suite_pr(rng, suite, drop, gate, start_trials, baseline_trials)
            counts[verdict] += 1
            trials += k
            calls += c
        out[name] = SuiteOutcome(
            {v: n / runs for v, n in sorted(counts.items())}, trials / runs, calls / runs
        )
    return out


def suite_goals(outcomes: dict[str, SuiteOutcome], nightshift_calls: dict[str, float]) -> dict[str, bool]:
    """Each goal the suite bench prints, met or not: `bench suite` exits 1 when any is missed."""
    return {
        "false alarms": outcomes["no change"].rate("regression") <= FALSE_ALARM_GOAL,
        "detection": outcomes["drop 12%"].rate("regression") >= SUITE_DETECTION_GOAL,
        "model calls": outcomes["drop 12%"].mean_calls <= nightshift_calls["drop 3"],
    }


def format_suite(outcomes: dict[str, SuiteOutcome], nightshift_calls: dict[str, float]) -> str:
    """The paired suite's figures next to Nightshift alone's (its mean trials × 40 calls)."""
    suite = tiered_suite()
    ok = {True: "meets", False: "MISSES"}
    fa, det = outcomes["no change"].rate("regression"), outcomes["drop 12%"].rate("regression")
    quiet, dropped = outcomes["no change"], outcomes["drop 12%"]
    cheaper = suite_goals(outcomes, nightshift_calls)["model calls"]
    lines = [
        f"Paired suite: {len(suite)} tasks, {sum(t.points for t in suite)} points, each task its own "
        f"cluster; a trial of every task costs {sum(t.calls_per_trial for t in suite)} model calls",
        f"  false alarms: {fa:.1%} (goal ≤ {FALSE_ALARM_GOAL:.0%}: {ok[fa <= FALSE_ALARM_GOAL]}); "
        f"mean k {quiet.mean_trials:.1f}, {quiet.mean_calls:.0f} calls "
        f"(Nightshift alone: {nightshift_calls['no change']:.0f})",
        f"  detection of a 12% drop (3 of 25 equivalent): {det:.1%} "
        f"(goal ≥ {SUITE_DETECTION_GOAL:.0%}: {ok[det >= SUITE_DETECTION_GOAL]}); "
        f"mean k {dropped.mean_trials:.1f}, {dropped.mean_calls:.0f} calls "
        f"(Nightshift alone, 3-point drop: {nightshift_calls['drop 3']:.0f})",
        f"  model calls per verdict no more than Nightshift alone: {ok[cheaper]}",
    ]
    return "\n".join(lines)
