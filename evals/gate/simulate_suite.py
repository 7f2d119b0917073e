"""Simulation of the gate on the committed suites, each task paired with itself in the baseline, trials
allocated by measured noise (evals/gate/allocate.py).

The question (issues #18, #30): what does a verdict on the PR (smoke) suite and on the full suite cost
in model calls, and does the gate keep its error rates when most tasks run a single trial? Each task
is one cluster of the live estimate (evals/gate/stats.py); the verdict goes through the live rule
(`allocate.start_trials`, `allocate.catch_up` and `gate.extra_trials` at each look, `allocate.top_up`,
then `gate.decide_all`), as `evals run` does.

The suite's shape is the committed one (`suite_shape`): each task's points from its rubric, its
model calls per trial from the committed baseline's turns (a replay's calls stand for the agent's
turns) plus one judge call per judged part, and its score distribution *as measured* in the
committed baseline and the nightly history:
- a task whose measured trials vary: round(N(mean, sd²)) clipped to its points, sd as measured
  (Nightshift: 16, 19, 20 → mean 18.3, sd 1.9);
- a task whose measured trials never varied (every L1 and L2 task of the committed baseline): each of
  its points passes independently with probability mean/points (1.0 at full marks), so it never varies
  until its agent changes;
- a task with no measurement (the full suite's tasks beyond the smoke suite's baseline) takes the
  model of its tier's measured tasks when they agree (all quiet at full marks: quiet at full marks),
  else each point passes with probability 0.75 (noisy), at the tier's usual calls per trial.
A fresh baseline of the committed k per task (6 for a task never blessed) is drawn per simulated PR,
and a task is quiet only if that draw (with the history) never varied, as live.

A true drop of 12 % of the suite's points lowers each task's mean by 12 % of its points (a quiet
task's per-point chance by 0.12). Two regressions of one task inside the suite are simulated beside it
(`cases`), because a threshold on the suite's total can hide them: Nightshift losing 3 of its 25 points,
and an L1 task losing one point in every trial. The threshold is evals.yaml's, read as the live run
reads it (`Threshold.allowed_drop` of the points that run, and with `per_scenario` each scenario's own),
so the goals printed are the live gate's goals.
Model calls per verdict count every trial of every task; passes are those calls over one trial of
every task (the floor any gate pays), printed with their Monte-Carlo error.

Besides the committed shapes, two noisy ones (issue #39), each held to ≤ 2 passes for an unchanged
PR and ≤ 3 with the 12 % drop: `tiered_suite` (every task noisy, the #18 stress shape) and
`realistic_suite` (the full suite with half its tasks, drawn once, noisy at a live-like spread).
"""

from __future__ import annotations

import math
import statistics
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from evals.core.config import Config, GateConfig, Threshold
from evals.gate.allocate import Noise, active, catch_up, first_look, measure, start_trials, top_up
from evals.gate.quiet import quiet_tests
from evals.gate.stats import Estimate, cluster
from evals.gate.verdict import Decision, decide_all, extra_trials

if TYPE_CHECKING:
    import numpy as np

UNMEASURED_RATE = 0.75  # a point's chance in a task nobody measured (the old shared assumption)
DROP_SHARE = 0.12  # 3 points of 25
SUITE_DETECTION_GOAL = 0.90
FALSE_ALARM_GOAL = 0.05
QUIET_DETECTION_GOAL = 0.90  # a quiet L1 task losing one point in every trial, committed suites
CALLS_GOAL = {"smoke": 400, "full": 900}  # mean model calls per verdict (issue #30)
# mean passes of the suite per verdict on a noisy suite (issue #39): one pass is the floor
PASSES_GOAL = {"no change": 2.0, "drop 12%": 3.0}
LIVE_RATES = (0.6, 0.95)  # a noisy task's chance per point in the realistic shape, drawn uniformly
LIVE_SEED = 39  # the realistic shape is one fixed draw, the same in every run of the bench
TIER_CALLS = {"L1": 8, "L2": 20, "L3": 30}  # calls per trial of a task without a measured baseline
NEVER_BLESSED_K = 6  # the nightly's k: a task without a baseline entry is blessed with it


@dataclass(frozen=True)
class Task:
    """One task of the simulated suite: its size, its cost, and its measured score distribution."""

    name: str
    points: int
    calls_per_trial: int
    mean: float
    sd: float  # > 0: clipped normal; 0: each point passes with probability mean / points
    baseline_trials: int
    tier: str = "L1"
    measured: bool = True

    @property
    def quiet(self) -> bool:
        return self.sd == 0


def tiered_suite(rate: float = UNMEASURED_RATE) -> list[Task]:
    """The full suite's tier shape with every task noisy at `rate` a point (the #18 stress model,
    where no task is quiet): 11 L1, 9 L2, 3 small L3 tasks and Nightshift."""

    def noisy(name: str, points: int, calls: int, tier: str) -> Task:
        sd = (points * rate * (1 - rate)) ** 0.5
        return Task(name, points, calls, rate * points, sd, 6, tier, measured=False)

    return (
        [noisy(f"l1-{i}", 2, 8, "L1") for i in range(11)]
        + [noisy(f"l2-{i}", 6, 20, "L2") for i in range(9)]
        + [noisy(f"l3-{i}", 11, 30, "L3") for i in range(3)]
        + [noisy("nightshift", 25, 40, "L3")]
    )


def realistic_suite(shape: list[Task], seed: int = LIVE_SEED) -> list[Task]:
    """A live-like spread on the committed suite `shape` (its tasks' points, tiers and calls): half
    the tasks, drawn once with `seed`, noisy, each point passing at a chance drawn uniformly from
    `LIVE_RATES` (Nightshift's seed runs, 18.3 of 25, are 0.73; σ as a binomial's: 2.2 on 25);
    the other half quiet at full marks, as a capable model is on an easy task."""
    import random

    draw = random.Random(seed)
    noisy = set(draw.sample(range(len(shape)), len(shape) // 2))
    out = []
    for i, t in enumerate(shape):
        rate = draw.uniform(*LIVE_RATES) if i in noisy else 1.0
        sd = (t.points * rate * (1 - rate)) ** 0.5
        mean = rate * t.points
        out.append(Task(t.name, t.points, t.calls_per_trial, mean, sd, NEVER_BLESSED_K, t.tier, False))
    return out


def suite_shape(root: Path, config: Config, names: list[str]) -> list[Task]:
    """The committed suite `names`: points and tier from each scenario, spread and calls from the
    committed baseline and its nightly history (baseline/history.jsonl beside it, when there is one)."""
    from evals.core.jsonio import read_jsonl
    from evals.gate.allocate import history_scores
    from evals.gate.baseline_file import load_baseline
    from evals.grade.rubric import load_rubric
    from evals.scenario.load import load_scenario

    folder = root / config.scenarios_dir
    path = root / config.baseline
    baseline = load_baseline(path)
    history_file = path.parent / "history.jsonl"
    history = list(read_jsonl(history_file)) if history_file.is_file() else []
    measured: dict[str, Task] = {}
    shapes: list[tuple[str, int, str, int]] = []
    for name in names:
        rubric = load_rubric(folder / name)
        tier = str(load_scenario(folder, name).task_tier())
        judged = sum(1 for _, part in rubric.parts() if part.judge is not None)
        shapes.append((name, rubric.max_points, tier, judged))
        entry = baseline.scenarios.get(name) if baseline else None
        if entry is None or not entry.trials:
            continue
        noise = measure(name, [t.total for t in entry.trials], history_scores(history, name))
        turns = entry.usage.turns_mean if entry.usage and entry.usage.turns_mean else TIER_CALLS[tier]
        sd = 0.0 if noise.quiet else statistics.stdev(noise.scores) if len(noise.scores) > 1 else 0.0
        if not noise.quiet and sd == 0:  # one trial: nothing measured, the tier decides below
            continue
        measured[name] = Task(
            name,
            rubric.max_points,
            round(turns) + judged,
            statistics.fmean(noise.scores),
            sd,
            entry.k,
            tier,
        )
    out = []
    for name, points, tier, judged in shapes:
        if name in measured:
            out.append(measured[name])
            continue
        peers = [t for t in measured.values() if t.tier == tier]
        full_quiet = bool(peers) and all(t.quiet and t.mean == t.points for t in peers)
        rate = 1.0 if full_quiet else UNMEASURED_RATE
        sd = 0.0 if full_quiet else (points * rate * (1 - rate)) ** 0.5
        calls = TIER_CALLS[tier] + judged
        out.append(Task(name, points, calls, rate * points, sd, NEVER_BLESSED_K, tier, measured=False))
    return out


@dataclass(frozen=True)
class SuiteOutcome:
    verdicts: dict[str, float]
    mean_trials: float  # trials per task, over tasks and PRs
    mean_calls: float
    runs: int = 1
    sd_calls: float = 0.0  # spread of one PR's calls, for the Monte-Carlo error of the mean
    calls_per_pass: int = 0  # one trial of every task: the floor any gate pays

    def rate(self, verdict: Decision) -> float:
        return self.verdicts.get(verdict, 0.0)

    def rate_error(self, verdict: Decision) -> float:
        """The Monte-Carlo error of `rate` (95 %, normal; at least that of one PR in `runs`, so a
        rate of 0 or 1 over few PRs is not read as certain)."""
        p = min(max(self.rate(verdict), 1 / self.runs), 1 - 1 / self.runs) if self.runs > 1 else 0.5
        return 1.96 * math.sqrt(p * (1 - p) / self.runs)

    @property
    def passes(self) -> float:
        """Mean calls per verdict in passes of the suite (one trial of every task)."""
        return self.mean_calls / self.calls_per_pass if self.calls_per_pass else 0.0

    @property
    def passes_error(self) -> float:
        """The Monte-Carlo error of `passes` (95 %, normal)."""
        if not self.calls_per_pass:
            return 0.0
        return 1.96 * self.sd_calls / math.sqrt(self.runs) / self.calls_per_pass


@dataclass(frozen=True)
class Change:
    """What a simulated PR does to the agent: every task's mean falls by `share` of its points, or only
    task `only`'s; `lose` points more in every trial of `only` (a quiet task losing one of its points,
    its decisive one, every time)."""

    share: float = 0.0
    only: str | None = None
    lose: int = 0

    def of(self, task: str) -> tuple[float, int]:
        """The share and the whole points `task` loses under this change."""
        if self.only is not None and task != self.only:
            return 0.0, 0
        return self.share, self.lose


NO_CHANGE = Change()


def _scores(rng: np.random.Generator, task: Task, change: Change, n: int) -> list[float]:
    """`n` trial totals of `task` under `change`."""
    import numpy as np

    if n <= 0:
        return []
    drop, lose = change.of(task.name)
    if task.quiet:
        rate = min(1.0, max(0.0, task.mean / task.points - drop))
        return [float(x) for x in rng.binomial(task.points - lose, rate, n)]
    mean = task.mean - drop * task.points - lose
    return [float(x) for x in np.clip(np.rint(rng.normal(mean, task.sd, n)), 0, task.points)]


def cases(suite: list[Task]) -> dict[str, Change]:
    """The simulated PRs: no change, a 12 % drop of every task, and two regressions of one task inside
    the suite that a threshold on the suite's total could hide: Nightshift losing 12 % of its points (3 of
    25), and an L1 task (the first quiet one, else the first) losing one point in every trial."""
    out = {"no change": NO_CHANGE, "drop 12%": Change(DROP_SHARE)}
    names = {t.name for t in suite}
    if "nightshift" in names:
        out["nightshift -3"] = Change(DROP_SHARE, only="nightshift")
    l1 = [t for t in suite if t.tier == "L1"]
    if l1:
        pick = next((t for t in l1 if t.quiet), l1[0])
        out[f"{pick.name} -1"] = Change(only=pick.name, lose=1)
    return out


def simulate_suite_pr(
    rng: np.random.Generator,
    suite: list[Task],
    change: Change,
    gate: GateConfig,
    start_k: int,
    threshold: Threshold,
    allocate: bool = True,
    history: int = 0,
) -> tuple[Decision, int, int]:
    """One PR over the whole suite through the live rule, at the threshold evals.yaml sets (the live
    run's `allowed_drop` of the points that run): verdict, trials in all, model calls."""
    total = sum(t.points for t in suite)
    allowed = threshold.allowed_drop(total)
    each = threshold.scenario_drops({t.name: t.points for t in suite})
    by_name = {t.name: t for t in suite}
    base = {t.name: _scores(rng, t, NO_CHANGE, t.baseline_trials) for t in suite}
    past = {t.name: _scores(rng, t, NO_CHANGE, history) for t in suite}
    noise: dict[str, Noise] = (
        {n: measure(n, scores, [past[n]] if history else []) for n, scores in base.items()}
        if allocate
        else {}
    )
    k = first_look(noise, by_name, allowed, start_k, gate) if allocate else start_k
    ramp = start_k if k < start_k else 0
    ks = start_trials(noise, by_name, k)
    run = {n: _scores(rng, by_name[n], change, n_k) for n, n_k in ks.items()}
    while True:
        for n, more in catch_up(noise, run, k, ramp=ramp).items():
            run[n] += _scores(rng, by_name[n], change, more)
        estimate = Estimate(
            tuple(
                cluster(n, run[n], base[n], gate.prior_sd_percent / 100 * by_name[n].points) for n in by_name
            )
        )
        sides = {n: (base[n], run[n]) for n in by_name}
        guards = quiet_tests(sides, gate.quiet_alpha)
        extra = 0
        if active(noise, run):
            extra = extra_trials(estimate, k, allowed, gate, guards=guards, ramp=ramp, scenarios=each)
        if extra == 0:
            trials = sum(len(scores) for scores in run.values())
            calls = sum(len(run[n]) * by_name[n].calls_per_trial for n in by_name)
            return decide_all(estimate, allowed, gate.confidence, guards, scenarios=each), trials, calls
        for n, more in top_up(noise, run, extra).items():
            run[n] += _scores(rng, by_name[n], change, more)
        k += extra


def run_suite_bench(
    gate: GateConfig,
    threshold: Threshold,
    suite: list[Task] | None = None,
    runs: int = 500,
    seed: int = 0,
    start_trials: int = 3,
    allocate: bool = True,
    history: int = 0,
) -> dict[str, SuiteOutcome]:
    """Each of `cases` (no change, a 12 % drop, one task's regression), `runs` simulated PRs each."""
    import numpy as np

    rng = np.random.default_rng(seed)
    suite = suite if suite is not None else tiered_suite()
    out = {}
    per_pass = sum(t.calls_per_trial for t in suite)
    for name, change in cases(suite).items():
        counts: Counter[str] = Counter()
        trials = 0
        calls: list[int] = []
        for _ in range(runs):
            verdict, n, c = simulate_suite_pr(
                rng, suite, change, gate, start_trials, threshold, allocate, history
            )
            counts[verdict] += 1
            trials += n
            calls.append(c)
        out[name] = SuiteOutcome(
            {v: n / runs for v, n in sorted(counts.items())},
            trials / runs / len(suite),
            statistics.fmean(calls),
            runs,
            statistics.pstdev(calls),
            per_pass,
        )
    return out


def suite_goals(outcomes: dict[str, SuiteOutcome], calls_goal: float | None) -> dict[str, bool]:
    """Each goal the suite bench prints, met or not: `simulate suite` exits 1 when any is missed.
    A committed suite is held to its calls (`calls_goal`); a noisy shape (None) to passes."""
    quiet, dropped = outcomes["no change"], outcomes["drop 12%"]
    goals = {
        "false alarms": quiet.rate("regression") <= FALSE_ALARM_GOAL,
        "detection": dropped.rate("regression") >= SUITE_DETECTION_GOAL,
    }
    if calls_goal is not None:
        # the verdict a team pays for on most PRs: no true change (a 12 % drop's cost is printed too)
        goals["model calls"] = quiet.mean_calls <= calls_goal
        # a quiet L1 task losing one point in every trial (`cases`): the quiet-task test (gate.quiet_alpha)
        for case, o in outcomes.items():
            if case.endswith(" -1"):
                goals["quiet task -1"] = o.rate("regression") >= QUIET_DETECTION_GOAL
    else:
        goals["passes, no change"] = quiet.passes <= PASSES_GOAL["no change"]
        goals["passes, drop 12%"] = dropped.passes <= PASSES_GOAL["drop 12%"]
    return goals


def describe(suite: list[Task]) -> str:
    """The suite's shape in one line: tasks, points, how many are quiet, noisy or unmeasured."""
    quiet = sum(1 for t in suite if t.quiet)
    unmeasured = sum(1 for t in suite if not t.measured)
    calls = sum(t.calls_per_trial for t in suite)
    return (
        f"{len(suite)} tasks, {sum(t.points for t in suite)} points ({quiet} quiet, "
        f"{len(suite) - quiet} noisy; {unmeasured} without a measured baseline); "
        f"a trial of every task costs {calls} model calls"
    )


def format_suite(
    name: str, suite: list[Task], outcomes: dict[str, SuiteOutcome], calls_goal: float | None
) -> str:
    """One suite's figures against its goals, each with its Monte-Carlo error (95 %)."""
    ok = {True: "meets", False: "MISSES"}
    goals = suite_goals(outcomes, calls_goal)
    quiet, dropped = outcomes["no change"], outcomes["drop 12%"]
    fa, det = quiet.rate("regression"), dropped.rate("regression")

    def cost(o: SuiteOutcome) -> str:
        return (
            f"mean trials per task {o.mean_trials:.2f}, {o.mean_calls:.0f} calls = "
            f"{o.passes:.2f} ± {o.passes_error:.2f} passes"
        )

    lines = [
        f"{name}: {describe(suite)}",
        f"  false alarms: {fa:.1%} ± {quiet.rate_error('regression'):.1%} (goal ≤ {FALSE_ALARM_GOAL:.0%}: "
        f"{ok[goals['false alarms']]}); {cost(quiet)}",
        f"  detection of a 12% drop: {det:.1%} ± {dropped.rate_error('regression'):.1%} (goal ≥ "
        f"{SUITE_DETECTION_GOAL:.0%}: {ok[goals['detection']]}); {cost(dropped)}",
    ]
    for case, o in outcomes.items():
        if case not in ("no change", "drop 12%"):
            goal = ""
            if "quiet task -1" in goals and case.endswith(" -1"):
                goal = f" (goal ≥ {QUIET_DETECTION_GOAL:.0%}: {ok[goals['quiet task -1']]})"
            lines.append(
                f"  one task's regression, {case}: caught {o.rate('regression'):.1%} ± "
                f"{o.rate_error('regression'):.1%}{goal}; {cost(o)}"
            )
    if calls_goal is not None:
        lines.append(
            f"  model calls per verdict of an unchanged PR ≤ {calls_goal:g}: {ok[goals['model calls']]} "
            f"({quiet.mean_calls:.0f}; a PR with the 12% drop: {dropped.mean_calls:.0f}, no goal)"
        )
    else:
        lines.append(
            f"  passes per verdict: unchanged PR {quiet.passes:.2f} (goal ≤ {PASSES_GOAL['no change']:g}: "
            f"{ok[goals['passes, no change']]}), 12% drop {dropped.passes:.2f} (goal ≤ "
            f"{PASSES_GOAL['drop 12%']:g}: {ok[goals['passes, drop 12%']]})"
        )
    return "\n".join(lines)
