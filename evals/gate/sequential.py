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

from typing import Literal

from evals.core.config import GateConfig
from evals.gate.stats import Estimate, quantile

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
