"""Simulation benchmark of the gate rule: does it flag real drops and guard failures, ignore noise,
and how many trials (and dollars) does a verdict take?

Synthetic trial totals shaped like the seed runs of Operation Nightshift (three runs of one agent
scored 16, 19 and 20 on 25 points: mean ≈ 18.3, σ ≈ 2), rounded to whole points and clipped to the
rubric's range, and two guard parts (Nightshift's C5a and C7) passed 95% of the time (drawn
independently of the total: a guard is one point of 25). Each simulated PR draws a fresh baseline
and a run, then goes through the *live* rule: `gate.extra_trials` at each look
(evals/gate/sequential.py), then `gate.decide_all`. The guards' baseline side is a guard history
(evals/baseline/bless.py): by default what nightly blesses of `baseline_trials` each accumulate within
`gate.guard_history_trials`, drawn from the same agent.

Cases: no change (false alarms, goal ≤ 5%); true drops of 1.5, 3 and 5 points (detection of 3
points: goal ≥ 85% with 6-trial baselines, ≥ 95% with 10); one guard falling from 95% to 50%
(goal ≥ 90%), against the history and, for comparison, against the last baseline's trials alone.
Mean trials per verdict and mean model cost per verdict (trials × cost per trial) for each case.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from evals.core.config import GateConfig, Threshold
from evals.gate.allocate import first_look, measure
from evals.gate.guards import GuardCounts, judge_guards
from evals.gate.stats import Estimate, cluster
from evals.gate.verdict import Decision, decide_all, extra_trials

if TYPE_CHECKING:  # numpy is imported where it is used, so `python -m evals` starts without it
    import numpy as np

FALSE_ALARM_GOAL = 0.05
GUARD_GOAL = 0.90
DROPS = (1.5, 3.0, 5.0)
GOAL_DROP = 3.0
NO_HISTORY = "guard falls, no history"
# Measured with the rule before gate v2 (top up to 6, then double while inconclusive) at the same
# settings and seed, 2000 PRs: mean trials per verdict with no true change, and with a 3-point drop.
BEFORE_MEAN_TRIALS = {"no change": 6.4, "drop 3": 7.5}


def detection_goal(baseline_trials: int) -> float:
    """≥ 85% with 6-trial baselines, ≥ 95% with 10 or more (the baseline's own noise caps it)."""
    return 0.95 if baseline_trials >= 10 else 0.85


@dataclass(frozen=True)
class SimulatedTask:
    """The synthetic score distribution and how much evidence each side gets."""

    max_points: int = 25
    mean: float = 55 / 3  # the seed runs: (16 + 19 + 20) / 3
    sd: float = 2.0
    baseline_trials: int = 6  # what the nightly workflow blesses by default
    start_trials: int = 3
    guards: int = 2  # Nightshift's C5a and C7
    guard_rate: float = 0.95
    guard_fallen: float = 0.50
    cost_per_trial: float = 1.0  # USD, agent + judge: an assumption; costs scale with it linearly
    guard_history_trials: int | None = None  # None: what the nightly accumulates (`nightly_history`)

    def history(self, gate: GateConfig) -> int:
        """Trials on the guards' baseline side."""
        if self.guard_history_trials is None:
            return nightly_history(gate.guard_history_trials, self.baseline_trials)
        return max(self.baseline_trials, self.guard_history_trials)


def nightly_history(window: int, baseline_trials: int) -> int:
    """Trials a guard history holds once nightly blesses of `baseline_trials` each have filled a
    window of `window` trials (whole blesses only, at least the last one: `recent` in
    evals/gate/baseline_file.py)."""
    return baseline_trials * max(1, window // baseline_trials)


@dataclass(frozen=True)
class Case:
    name: str
    drop: float = 0.0
    guard_fallen: bool = False
    guard_history: bool = True  # False: the guards' baseline side is the last baseline's trials alone


@dataclass(frozen=True)
class CaseRates:
    verdicts: dict[str, float]
    mean_trials: float
    mean_cost: float

    def rate(self, verdict: Decision) -> float:
        return self.verdicts.get(verdict, 0.0)


@dataclass(frozen=True)
class SimulationResult:
    scenario: SimulatedTask
    runs: int
    outcomes: dict[str, CaseRates] = field(default_factory=dict)

    @property
    def no_change(self) -> CaseRates:
        return self.outcomes["no change"]

    @property
    def true_drop(self) -> CaseRates:
        return self.outcomes[f"drop {GOAL_DROP:g}"]

    @property
    def false_alarm_rate(self) -> float:
        return self.no_change.rate("regression")

    @property
    def detection_rate(self) -> float:
        return self.true_drop.rate("regression")

    @property
    def guard_detection_rate(self) -> float:
        return self.outcomes["guard falls"].rate("regression")

    @property
    def goals(self) -> dict[str, bool]:
        """Each goal the simulated cases can tell (a bench of some cases only checks those)."""
        goals = {}
        if "no change" in self.outcomes:
            goals["false alarms"] = self.false_alarm_rate <= FALSE_ALARM_GOAL
        if f"drop {GOAL_DROP:g}" in self.outcomes:
            goals["detection"] = self.detection_rate >= detection_goal(self.scenario.baseline_trials)
        if "guard falls" in self.outcomes and self.scenario.guards:
            goals["guard detection"] = self.guard_detection_rate >= GUARD_GOAL
        return goals

    @property
    def meets_goals(self) -> bool:
        return all(self.goals.values())


def cases() -> list[Case]:
    return [
        Case("no change"),
        *(Case(f"drop {d:g}", drop=d) for d in DROPS),
        Case("guard falls", guard_fallen=True),
        Case(NO_HISTORY, guard_fallen=True, guard_history=False),
    ]


def _draw(rng: np.random.Generator, s: SimulatedTask, mean: float, n: int) -> list[float]:
    import numpy as np

    return [float(x) for x in np.clip(np.rint(rng.normal(mean, s.sd, n)), 0, s.max_points)]


def _flags(rng: np.random.Generator, rates: list[float], n: int) -> list[list[bool]]:
    return [[bool(x) for x in rng.random(n) < rate] for rate in rates]


def simulate_pr(
    rng: np.random.Generator, s: SimulatedTask, case: Case, threshold: Threshold, gate: GateConfig
) -> tuple[Decision, int]:
    """One PR through the live rule: the verdict and the trials it took."""
    allowed = threshold.allowed_drop(s.max_points)
    each = threshold.scenario_drops({"sim": s.max_points})  # one scenario: None, as live
    prior_sd = gate.prior_sd_percent / 100 * s.max_points
    run_rates = [s.guard_rate] * s.guards
    if case.guard_fallen and s.guards:
        run_rates[0] = s.guard_fallen
    base = _draw(rng, s, s.mean, s.baseline_trials)
    history = s.history(gate) if case.guard_history else s.baseline_trials
    base_guards = _flags(rng, [s.guard_rate] * s.guards, history)
    # as `run` allocates (evals/run/runner.py): below k only if the baseline's spread allows it
    start = first_look({"sim": measure("sim", base)}, ["sim"], allowed, s.start_trials, gate)
    ramp = s.start_trials if start < s.start_trials else 0
    run = _draw(rng, s, s.mean - case.drop, start)
    run_guards = _flags(rng, run_rates, start)
    while True:
        estimate = Estimate((cluster("sim", run, base, prior_sd),))
        counts = [
            GuardCounts(f"G{i}", sum(b), len(b), sum(r), len(r))
            for i, (b, r) in enumerate(zip(base_guards, run_guards, strict=True))
        ]
        tests = judge_guards(counts, gate.guard_alpha)
        extra = extra_trials(estimate, len(run), allowed, gate, guards=tests, ramp=ramp, scenarios=each)
        if extra == 0:
            return decide_all(estimate, allowed, gate.confidence, tests, each), len(run)
        run += _draw(rng, s, s.mean - case.drop, extra)
        run_guards = [old + new for old, new in zip(run_guards, _flags(rng, run_rates, extra), strict=True)]


def _outcome(
    rng: np.random.Generator, s: SimulatedTask, case: Case, threshold: Threshold, gate: GateConfig, runs: int
) -> CaseRates:
    counts: Counter[str] = Counter()
    trials = 0
    for _ in range(runs):
        verdict, k = simulate_pr(rng, s, case, threshold, gate)
        counts[verdict] += 1
        trials += k
    mean = trials / runs
    return CaseRates({v: n / runs for v, n in sorted(counts.items())}, mean, mean * s.cost_per_trial)


def run_bench(
    s: SimulatedTask,
    threshold: Threshold,
    gate: GateConfig,
    runs: int = 2000,
    seed: int = 0,
    cases_run: tuple[str, ...] | None = None,
) -> SimulationResult:
    """Every case (or only `cases_run`, by name) through the live rule, `runs` PRs each."""
    import numpy as np

    rng = np.random.default_rng(seed)
    picked = [c for c in cases() if cases_run is None or c.name in cases_run]
    return SimulationResult(s, runs, {c.name: _outcome(rng, s, c, threshold, gate, runs) for c in picked})


def format_result(r: SimulationResult, threshold: Threshold, gate: GateConfig) -> str:
    s = r.scenario
    ok = {True: "meets", False: "MISSES"}

    def row(label: str, case: str, goal: str = "") -> str:
        o = r.outcomes[case]
        verdicts = ", ".join(f"{v} {share:.1%}" for v, share in o.verdicts.items())
        return (
            f"  {label}: {o.rate('regression'):.1%}{goal}  [{verdicts}; "
            f"mean k {o.mean_trials:.1f}, mean cost ${o.mean_cost:.2f}]"
        )

    goals = r.goals

    def verdict_of(goal: str, text: str) -> str:
        return f"  {text}: {ok[goals[goal]]}" if goal in goals else ""

    lines = [
        f"Gate simulation: {r.runs} PRs per case, scores ~ round(N({s.mean:.1f}, {s.sd:g}²)) "
        f"on 0..{s.max_points}, {s.guards} guards passing {s.guard_rate:.0%}",
        f"  baseline k={s.baseline_trials}; run starts at k={s.start_trials}, looks at "
        f"{', '.join(map(str, _looks(s, gate)))}; allowed drop {threshold.allowed_drop(s.max_points):g}; "
        f"{gate.confidence:.0%} CI (interim {gate.interim_confidence:.1%}); ${s.cost_per_trial:g} per trial",
    ]
    if "no change" in r.outcomes:
        goal = verdict_of("false alarms", f"goal ≤ {FALSE_ALARM_GOAL:.0%}")
        lines.append(row("false alarms (no true change)", "no change", goal))
    for d in DROPS:
        if f"drop {d:g}" in r.outcomes:
            goal = ""
            if d == GOAL_DROP:
                goal = verdict_of("detection", f"goal ≥ {detection_goal(s.baseline_trials):.0%}")
            lines.append(row(f"detection (true {d:g}-point drop)", f"drop {d:g}", goal))
    fall = f"one guard {s.guard_rate:.0%} → {s.guard_fallen:.0%}"
    if "guard falls" in r.outcomes and s.guards:
        label = f"guard detection ({fall}; {s.history(gate)}-trial guard history)"
        lines.append(row(label, "guard falls", verdict_of("guard detection", f"goal ≥ {GUARD_GOAL:.0%}")))
    if NO_HISTORY in r.outcomes and s.guards:
        label = f"guard detection without history ({fall}; the last baseline's {s.baseline_trials} trials)"
        lines.append(row(label, NO_HISTORY))
    return "\n".join(lines)


def _looks(s: SimulatedTask, gate: GateConfig) -> list[int]:
    from evals.gate.sequential import looks

    return looks(s.start_trials, gate)
