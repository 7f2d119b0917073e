"""Trials where the noise is: each task's starting trials and top-ups follow its measured spread.

Most L1 tasks score the same in every trial of a given agent, yet the gate used to start every task
at the same k and top every task up at each look, so one trial of the suite cost about ten
Nightshift trials. Here a task whose score never varied (in the baseline's trials and in the
nightly history's, at least two in all) is *quiet*: it starts at one trial and earns more only
when a run trial differs from the score it always had. Every other task (noisy, or never measured)
starts at the run's k and follows the group-sequential schedule (evals/gate/sequential.py) as
before. The looks, their lines and the verdict are unchanged: the schedule is the noisy tasks' k,
fixed in advance.

Why a differing quiet task catches up *before* the next look rather than at it: with one run trial
and a spread-free baseline its cluster has no variance at all (evals/gate/stats.py borrows the
baseline's zero), so a single odd trial would read as a certain drop. Topped up to the noisy tasks'
k it has a spread of its own, and the look weighs it as noise or drop like any other task. A quiet
task that stays identical contributes Δ 0 and no variance, which is what its history says.

Why *every* quiet task joins when one differs, not only that one: a task whose own bad trial earns
it more trials, while its lucky siblings stay at one clean trial, has its drop diluted (the bad
first trial is averaged with more) and theirs hidden; the mean is then biased towards no change.
Simulated on the smoke suite (`evals simulate suite`), topping up only the task that differed caught a
12 % drop 85 % of the time, against 99 % with every task at k. Moving the quiet tasks together, the
only data-dependent choice is "did any quiet trial differ", as likely under no change as never.

The noisy tasks themselves may start below the run's k when the baseline's spread predicts that a
first look can decide there (`first_look`: on a suite of many noisy tasks, one trial each; on
Nightshift alone, never), and the run then looks after every trial up to k.

Pure functions over per-task trial totals, so the live run (evals/run/session.py) and the
simulation (evals/gate/simulate_suite.py, `evals simulate suite`) allocate the same way.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from statistics import NormalDist
from typing import TYPE_CHECKING

from evals.gate.sequential import DETECT_FACTOR

if TYPE_CHECKING:
    from evals.core.config import GateConfig

MIN_MEASURED = 2  # trials needed to call a task quiet: one trial shows no spread either way
FIRST_LOOK_MISS = 0.02  # the share of that drop a first look may pass, as predicted from the baseline
SPREAD_BOUND = 0.9  # that prediction takes the measured spread at this upper confidence bound
MIN_SPREAD_DF = 20  # and needs the spread measured with this many degrees of freedom (a suite's tasks)


@dataclass(frozen=True)
class Noise:
    """What the baseline and the nightly history say about one task's spread."""

    name: str
    scores: tuple[float, ...]  # every measured trial total: the baseline's, then the history's
    baseline_trials: int = 0  # how many of `scores` are the baseline's (the comparison's other side)

    @property
    def quiet(self) -> bool:
        """Enough trials measured, and every one scored the same."""
        return len(self.scores) >= MIN_MEASURED and len(set(self.scores)) == 1

    @property
    def variance(self) -> float | None:
        """The spread of one trial's total, as measured (None: fewer than two trials measured)."""
        return statistics.variance(self.scores) if len(self.scores) >= MIN_MEASURED else None

    @property
    def value(self) -> float | None:
        """The one score a quiet task always had (None for a noisy or unmeasured task)."""
        return self.scores[0] if self.quiet else None


def measure(name: str, baseline: Sequence[float], history: Iterable[Sequence[float]] = ()) -> Noise:
    """A task's noise from its baseline trial totals and each history night's trial totals."""
    scores = [*baseline]
    for night in history:
        scores.extend(night)
    return Noise(name, tuple(float(s) for s in scores), len(baseline))


def history_scores(lines: Iterable[Mapping[str, object]], name: str, nights: int = 30) -> list[list[float]]:
    """Trial totals of task `name` in the newest `nights` lines of baseline/history.jsonl (a line
    without the task, or an older line without per-trial totals, adds nothing)."""
    out: list[list[float]] = []
    for line in list(lines)[-nights:]:
        scenarios = line.get("scenarios")
        entry = scenarios.get(name) if isinstance(scenarios, Mapping) else None
        per_trial = entry.get("per_trial") if isinstance(entry, Mapping) else None
        if isinstance(per_trial, list):
            out.append([float(x) for x in per_trial if isinstance(x, int | float)])
    return out


def start_trials(noise: Mapping[str, Noise], names: Iterable[str], k: int) -> dict[str, int]:
    """Trials each task starts with: one for a quiet task, the run's k for every other."""
    return {n: 1 if n in noise and noise[n].quiet else k for n in names}


def first_look(
    noise: Mapping[str, Noise], names: Iterable[str], allowed_drop: float, k: int, gate: GateConfig
) -> int:
    """The trials the noisy tasks start at: the fewest, at most the run's k, at which the first look would
    pass a drop of `DETECT_FACTOR` thresholds at most `FIRST_LOOK_MISS` of the time, predicted from the
    spread the baseline and history measured (the schedule then looks after every trial up to k:
    `sequential.next_look`'s ramp).

    Why: one pass of the suite is the floor any gate must pay, and a run that starts every noisy task at
    k = 3 pays three before it may stop. On a suite the total's noise is the sum of many tasks' and
    small against a threshold on the suite's points, so one trial each can already pass an unchanged PR;
    on one noisy task (Nightshift alone: σ ≈ 2 against 1.5) it cannot, and the rule keeps k. The first
    look passes when the `pass_confidence` interval lies above −threshold, i.e. Δ > −T + z·se; a true
    drop of 2T is passed with chance Φ(−T/se − z), so the start is the smallest k with T/se(k) ≥ z_miss
    − z. The spread must be measured with `MIN_SPREAD_DF` degrees of freedom (Welch–Satterthwaite over
    the noisy tasks) and is taken at its upper `SPREAD_BOUND` confidence bound: six baseline trials of
    one task measure σ loosely, and a baseline that happened to be tight would start a run low exactly
    when its interval is too narrow (simulated on Nightshift alone with 6-trial baselines, about 3 % of
    PRs started low, and false alarms were 6.2 % at one seed of 500 PRs, within 5 % without it); the
    noisy tasks of a suite measure it well and lose little. The prediction reads only the baseline,
    never the run, so the schedule is fixed before the first trial. A task the baseline never
    measured (or measured once) gives no prediction: the run keeps k."""
    z = NormalDist().inv_cdf(0.5 + gate.pass_confidence / 2)
    need = NormalDist().inv_cdf(1 - FIRST_LOOK_MISS) - z
    terms: list[tuple[float, float, int]] = []  # per task: σ², its degrees of freedom, baseline trials
    for name in names:
        task = noise.get(name)
        if task is None:
            return k
        if task.quiet:
            continue
        var = task.variance
        if var is None or task.baseline_trials < 1:
            return k
        terms.append((var, len(task.scores) - 1.0, task.baseline_trials))
    per_trial = sum(v for v, _, _ in terms)
    if per_trial == 0:
        return k  # every task quiet: none starts below one trial anyway, and a differing one catches up to k
    df = per_trial**2 / sum(v * v / d for v, d, _ in terms if v > 0)
    if df < MIN_SPREAD_DF:
        return k
    bound = df / _chi2_quantile(1 - SPREAD_BOUND, df)
    base = sum(v / n for v, _, n in terms)
    for start in range(1, k):
        se = math.sqrt(bound * (per_trial / start + base))
        if (DETECT_FACTOR - 1) * allowed_drop / se >= need:
            return start
    return k


def _chi2_quantile(p: float, df: float) -> float:
    """The p-quantile of χ² with df degrees of freedom (Wilson–Hilferty: within a few percent from
    df 2 on, ample for a start that is a whole number of trials)."""
    z = NormalDist().inv_cdf(p)
    a = 2 / (9 * df)
    return df * max(1 - a + z * math.sqrt(a), 1e-9) ** 3


def differs(noise: Noise | None, run: Sequence[float]) -> bool:
    """A quiet task whose run scored anything but its one value: it has earned trials."""
    if noise is None or not noise.quiet:
        return False
    return any(score != noise.value for score in run)


def active(
    noise: Mapping[str, Noise], run: Mapping[str, Sequence[float]], errored: Collection[str] = ()
) -> set[str]:
    """Tasks on the sequential schedule: the noisy and unmeasured ones, and every quiet one as soon
    as any quiet task's trial differed (all of them, not only the one that differed: see the module
    docstring). A quiet task's trial that failed for infrastructure reasons (`errored`) counts as
    differing too: it has no score to show the task still scores its one value, and a quiet task
    left at its one errored trial would make the whole verdict `error` (one of one trials failed)
    where the run's k would have had three more."""
    quiet = {n for n in run if n in noise and noise[n].quiet}
    if any(differs(noise[n], run[n]) for n in quiet) or quiet & set(errored):
        return set(run)
    return set(run) - quiet


def catch_up(
    noise: Mapping[str, Noise],
    run: Mapping[str, Sequence[float]],
    k: int,
    errored: Mapping[str, int] | None = None,
    ramp: int = 0,
) -> dict[str, int]:
    """Trials to add now, before the look, so every active task has the schedule's k (a quiet task
    that just differed joins it). `errored`: each task's trials that failed for infrastructure
    reasons, which count towards its k (they were run) but carry no score.

    `ramp`: the run's k when its noisy tasks started below it (`first_look`). A quiet task that
    differed still catches up to that k, not to the ramp's: with one or two trials against a
    spread-free baseline its odd trial would read as a (nearly) certain drop (module docstring)."""
    failed = errored or {}
    have = {n: len(run[n]) + failed.get(n, 0) for n in run}
    target = {n: max(k, ramp) if n in noise and noise[n].quiet else k for n in run}
    return {n: target[n] - have[n] for n in sorted(active(noise, run, set(failed))) if have[n] < target[n]}


def top_up(
    noise: Mapping[str, Noise],
    run: Mapping[str, Sequence[float]],
    extra: int,
    errored: Collection[str] = (),
) -> dict[str, int]:
    """After a look asked for `extra` more trials: each active task gets them, a quiet task that
    has not differed none."""
    if extra <= 0:
        return {}
    return {n: extra for n in sorted(active(noise, run, errored))}
