"""When the adaptive loop looks at the data, and what each look may decide (a group-sequential rule).

`run` starts with `trials` per scenario (fewer when allocation predicts a first look can decide
sooner: evals/gate/allocate.py `first_look`; the run then looks after every trial up to `trials`)
and looks; while the verdict is undecided it adds trials up
to the next look (`gate.min_trials`, then every `gate.look_every` trials, capped at
`gate.max_trials`) and looks again.
Every look is another chance for noise to cross a line, so the lines are those of a
Haybittle–Peto design: an *interim* look calls a regression only past a much stricter interval
(`gate.interim_confidence`, 99.8%); the last look uses the gate's own `gate.confidence`. The
interim looks then spend almost none of the false-alarm rate, and the simulation (evals/gate/simulate.py)
measures the whole rule.

A look stops the run when the answer is already clear either way:
- the gate's interval lies wholly below −threshold (a clear regression) or wholly above it (a clear
  pass);
- the interim regression line is crossed;
- the drop stays within the threshold by a margin (`gate.pass_confidence`: the interval at that
  narrower confidence lies wholly above −threshold), so a real drop past the threshold would rarely
  look like this; most unchanged PRs stop at their first look;
- the drop is within the threshold and a drop of twice it, the one the gate is held to catch, is
  ruled out at 1 % (`equivalent`, the equivalence look).

Trials are never added to a run with no spread of its own: a deterministic agent (replays), or k ≥ 3
trials of each scenario with identical totals. More of the same number would tell nothing new.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Literal

from evals.core.config import GateConfig
from evals.gate.stats import Cluster, Estimate, quantile

Look = Literal["pass", "regression", "undecided"]
SPREAD_TRIALS = 3  # run trials of one task that, all equal, say the agent repeats itself
DETECT_FACTOR = 2.0  # the drop the gate is held to catch, in thresholds: 3 points of Nightshift's 1.5,
# 12 % of a suite's points against its 6 % (evals/gate/simulate.py, simulate_suite.py)
EQUIVALENCE_MISS = 0.01  # the share of that drop one equivalence look may pass (`equivalent`)


def next_look(k: int, gate: GateConfig, ramp: int = 0) -> int:
    """The k of the next look after one at k: after every trial below `ramp` (the run's k, when
    allocation started its noisy tasks below it: evals/gate/allocate.py `first_look`), then
    `min_trials`, then every `look_every` trials, never past `max_trials`."""
    if k < ramp:
        return min(gate.max_trials, k + 1)
    return min(gate.max_trials, max(gate.min_trials, k + gate.look_every))


def looks(start: int, gate: GateConfig, ramp: int = 0) -> list[int]:
    """Every k at which a run that starts at `start` may look (the schedule is fixed in advance,
    never chosen from the data, so the boundaries mean what they say)."""
    out = [start]
    while out[-1] < gate.max_trials:
        out.append(next_look(out[-1], gate, ramp))
    return out


def own_spread(estimate: Estimate) -> bool | None:
    """Whether the run's own trials vary: None when no scenario has `SPREAD_TRIALS` run trials to
    tell. Two are too few: two trials of a task whose totals spread like Nightshift's (σ ≈ 2) are
    equal one time in seven, and a run stopped on that reads its Δ with no run spread at all (a
    ramp from one trial looks at two: `next_look`)."""
    measured = [c for c in estimate.clusters if c.n_run >= SPREAD_TRIALS and not c.borrowed]
    if not measured:
        return None
    return any(c.var_run > 0 for c in measured)


def regression_at(estimate: Estimate, allowed_drop: float, confidence: float) -> bool:
    """The gate's regression line: Δ past −threshold and the interval's upper end below 0."""
    return estimate.delta < -allowed_drop and estimate.interval(confidence)[1] < 0


def equivalent(estimate: Estimate, allowed_drop: float) -> bool:
    """The equivalence look: the drop is within the threshold, and a drop of `DETECT_FACTOR`
    thresholds (the one the gate is held to catch) is ruled out at one-sided `EQUIVALENCE_MISS`.

    Why: a run whose Δ sits steadily a little inside −threshold (on a suite, most often a baseline
    that happened to score high: its error never shrinks with run trials) used to wait for the
    `pass_confidence` interval to clear −threshold, and went on to `max_trials`; on the every-task-noisy
    suite 3 % of unchanged PRs paid 9 to 15 passes, a fifth of the mean cost. The drop the gate must
    catch is already ruled out there. At 1 % a look, Nightshift alone (σ ≈ 2, 1.5) is never passed by
    it before its `pass_confidence` line would pass it: its figures do not move."""
    if estimate.delta < -allowed_drop:
        return False
    z = quantile(1 - EQUIVALENCE_MISS, estimate.df())
    return estimate.delta - z * estimate.se() > -DETECT_FACTOR * allowed_drop


def look(estimate: Estimate, allowed_drop: float, gate: GateConfig) -> Look:
    """What an interim look decides about the total."""
    low, high = estimate.interval(gate.confidence)
    if high < -allowed_drop or regression_at(estimate, allowed_drop, gate.interim_confidence):
        return "regression"
    if low > -allowed_drop or estimate.interval(gate.pass_confidence)[0] > -allowed_drop:
        return "pass"
    if equivalent(estimate, allowed_drop):
        return "pass"
    return "undecided"


def scenario_gate(gate: GateConfig, m: int) -> GateConfig:
    """The lines each of `m` scenarios is held to on its own (`threshold.per_scenario`): the gate's
    two-sided confidences with their miss shared out Bonferroni-wise, 1 − (1 − c)/m, so that the m
    scenario tests together spend no more of the false-alarm rate than one. One scenario (m = 1): the
    gate's own lines, and its test is the total's."""
    if m <= 1:
        return gate
    return gate.model_copy(
        update={
            "confidence": 1 - (1 - gate.confidence) / m,
            "interim_confidence": 1 - (1 - gate.interim_confidence) / m,
        }
    )


def noisy_clusters(estimate: Estimate, allowed: Mapping[str, float]) -> tuple[int, list[Cluster]]:
    """The scenario family `threshold.per_scenario` tests: its size m (the scenarios whose baseline
    measured a spread: two trials or more, not all equal; the baseline is fixed before the run, so m
    is too) and those of it tested at this look, the ones with two run trials or more.

    Why not the quiet ones: a scenario whose baseline never varied has no spread to weigh a run trial
    against (its cluster's variance is the run's alone, or none), and a noisy task's lucky spread-free
    baseline then read a few low run trials as a certain drop: simulated on the every-task-noisy
    suite, testing every scenario raised false alarms to 16 %. A quiet scenario's drop still counts in
    the total, and its guard parts are gated on their own.
    Why two run trials: one trial has no spread of its own, its scenario would be weighed against the
    baseline's six alone, and a suite of many noisy tasks that stops at its first look (one trial
    each) then alarmed on one task's bad trial (realistic suite: 6.8 %)."""
    family = [c for c in estimate.clusters if c.name in allowed and c.n_base >= 2 and c.var_base > 0]
    return len(family), [c for c in family if c.n_run >= 2]


def _alone(c: Cluster) -> Estimate:
    """One scenario's Δ as an estimate of its own, its two sides' spreads pooled (Student's equal-
    variance t). Why pooled, where the total uses Welch: under no change both sides are draws of one
    agent, and one small task's run trials are often all equal (three trials of a 2-point task at 75 %
    a point are equal one time in five); Welch then reads its Δ against the baseline's spread alone
    with five degrees of freedom, and each of a suite's many small tasks alarms often enough to break
    the Bonferroni budget (simulated on the every-task-noisy suite: 9.8 % false alarms)."""
    if c.borrowed or c.n_run < 2 or c.n_base < 2:
        return Estimate((c,))
    df = c.df_run + c.df_base
    var = (c.df_run * c.var_run + c.df_base * c.var_base) / df
    pooled = replace(c, var_run=var, var_base=var, df_run=df, df_base=df, borrowed=True)
    return Estimate((pooled,))


def scenario_interval(c: Cluster, confidence: float) -> tuple[float, float]:
    """One scenario's interval as its own test reads it (spreads pooled: `_alone`)."""
    return _alone(c).interval(confidence)


def scenario_regressions(estimate: Estimate, allowed: Mapping[str, float], confidence: float) -> list[str]:
    """The tested scenarios (`noisy_clusters`) whose own drop is a regression by the gate's rule (past
    their own allowed drop, the interval's upper end below 0) at the Bonferroni share of `confidence`."""
    m, tested = noisy_clusters(estimate, allowed)
    level = 1 - (1 - confidence) / max(1, m)
    return [c.name for c in tested if regression_at(_alone(c), allowed[c.name], level)]


def scenario_interim(estimate: Estimate, allowed: Mapping[str, float], gate: GateConfig) -> list[str]:
    """The tested scenarios that crossed their interim regression line (`interim_confidence`, its
    Bonferroni share): only these stop a run early on their own. Not the gate's clear-regression line
    as the total's look has it (interval wholly below −threshold): a scenario's allowed drop is small,
    that line is almost the last look's, and tested at every look of the ramp and the schedule it
    spent the false-alarm rate many times over (simulated on the realistic suite: 6.6 %)."""
    m, tested = noisy_clusters(estimate, allowed)
    line = scenario_gate(gate, m).interim_confidence
    return [c.name for c in tested if regression_at(_alone(c), allowed[c.name], line)]


def scenario_undecided(c: Cluster, allowed: float, gate: GateConfig, m: int) -> bool:
    """Would more trials decide this scenario on its own? Its look (at its Bonferroni lines) has not
    passed it, and at `max_trials` its test would catch the drop the gate is held to catch on it
    (`DETECT_FACTOR` of its allowed drop) with `gate.power`. Only such a scenario keeps a run going
    whose total has passed.

    Why the second condition: on a suite of many small noisy tasks each task's allowed drop is a
    fraction of a point, no look ever passes it, and waiting on it ran unchanged PRs of the
    every-task-noisy suite to 3.6 passes for a drop that 15 trials could not show anyway. Nightshift,
    the smoke suite's one noisy task (σ ≈ 2 against 1.5), is the case it keeps: more trials do decide it."""
    if c.n_run >= gate.max_trials:
        return False
    each = scenario_gate(gate, m)
    alone = _alone(c)
    if look(alone, allowed, each) == "pass":
        return False
    se, df = alone.se(gate.max_trials), alone.df(gate.max_trials)
    bar = max(allowed, quantile(0.5 + each.confidence / 2, df) * se) + quantile(gate.power, df) * se
    return bar <= DETECT_FACTOR * allowed


def no_more_needed(estimate: Estimate, deterministic: bool) -> str | None:
    """Why this run earns no adaptive trials whatever its numbers say (None: it may)."""
    if deterministic:
        return "the agent is deterministic"
    if own_spread(estimate) is False:
        return "the run's trials have no spread"
    return None


def continued(gate: GateConfig, continuations: int) -> GateConfig:
    """The schedule and lines of a run continued `continuations` times after an inconclusive verdict
    (`evals run --continue`, a maintainer's `/evals continue` on a PR).

    The same sequential test goes on, never a fresh one: every look already made stays counted, and
    each continuation adds `max_trials` more trials per scenario to the schedule. An inconclusive
    verdict has already spent the last look's share of the false-alarm rate (its `confidence` line),
    so every look of a continuation, its last included, calls a regression only past the interim
    line (`interim_confidence`, 99.8 %): a continuation spends almost none of the rate, where a fresh
    run (labelling again until green) spends it all again. It passes as an interim look does, or when
    the drop is within the threshold at its last look."""
    if continuations <= 0:
        return gate
    return gate.model_copy(
        update={
            "max_trials": gate.max_trials * (1 + continuations),
            "confidence": max(gate.confidence, gate.interim_confidence),
            # a guard, likewise, falls only past its interim line (one-sided, evals/gate/guards.py)
            "guard_alpha": min(gate.guard_alpha, (1 - gate.interim_confidence) / 2),
        }
    )
