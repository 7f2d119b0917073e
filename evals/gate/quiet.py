"""Quiet tasks tested on their own (`gate.quiet_alpha`): a task that scored the same in every baseline
trial and scores less in the run.

The suite's threshold (a percent of the points that run, and each *noisy* task within its own) lets a
quiet task lose one point in every trial: one point of 73 is within the total's line, and a task with
no measured spread is not in the per-scenario family (evals/gate/sequential.py `noisy_clusters`). This
is the guard test (evals/gate/guards.py) on a whole task: the trials at (or above) the one score it
always had, baseline against run, Fisher's exact one-sided test. The baseline's own trials only (what
`compare` reads): the nightly history (baseline/history.jsonl) would make 3 low run trials enough
against 30 clean ones, where 3 clean baseline trials need about 9, but it reaches only the runner's
allocation today (docs/gate.md#quiet-tasks).

Multiplicity: Bonferroni across *every* scenario of the run, not only the quiet ones. Which tasks are
quiet is decided by the data (a 3-point task passing 90 % a point is quiet over three trials about
40 % of the time), and the exact test is valid for each task whether or not it was selected
(selection needs every failure to fall in the run, which is what the p-value measures), so the union
bound over all m scenarios keeps the family's rate at α; Holm across the selected few would not.

The tests are returned as `GuardTest`s so that the verdict and the looks treat them as guards are
treated (`verdict.decide_all`, `verdict.extra_trials`: an interim look stops only past the interim
line; one promising at `max_trials` keeps a run going).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from evals.gate.allocate import MIN_MEASURED
from evals.gate.guards import GuardCounts, GuardTest, fisher_less


def quiet_value(base: Sequence[float]) -> float | None:
    """The one score a task had in every baseline trial (None: fewer than two, or they varied)."""
    return base[0] if len(base) >= MIN_MEASURED and len(set(base)) == 1 else None


def quiet_tests(
    sides: Mapping[str, tuple[Sequence[float], Sequence[float]]], alpha: float
) -> list[GuardTest]:
    """For each task (name → its baseline trial totals, its run trial totals) that was quiet in the
    baseline and has run trials: the run's trials at or above its one score against the baseline's,
    one-sided Fisher, at α / m (m: every task in `sides`); none when α is 0."""
    if alpha <= 0:
        return []  # gate.quiet_alpha 0: off
    m = max(1, len(sides))
    out = []
    for name in sorted(sides):
        base, run = sides[name]
        value = quiet_value(base)
        if value is None or not run:
            continue
        at = sum(1 for s in run if s >= value)
        counts = GuardCounts(f"{name}{QUIET_MARK}{value:g})", len(base), len(base), at, len(run))
        p = fisher_less(at, len(run), len(base), len(base))
        out.append(GuardTest(counts, p, p, alpha / m, whole_task=True))
    return out


QUIET_MARK = " (quiet at "


def quiet_only(tests: Sequence[GuardTest]) -> list[GuardTest]:
    """The quiet-task tests among a run's guard-like tests."""
    return [t for t in tests if t.whole_task]
