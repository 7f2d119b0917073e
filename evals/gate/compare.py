"""`compare(aggregates, baseline) -> Comparison`: every Δ, interval and pass rate, computed once.

The console line, summary.json, the report and the verdict all read this one object, so the Δ a
reviewer sees is the Δ the gate decided on.

A part the judge could not decide is missing data, not a zero: comparing a run whose judge was down
with a fully scored baseline would report a regression that is really an outage. So each scenario's
totals are compared over the parts scored at least once on *both* sides, and a trial's missing part
is filled with its side's mean for that part (the spread then comes from the parts that were
decided). The parts left out are named.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from pydantic import Field, SkipValidation

from evals.core.config import GateConfig, Threshold
from evals.core.model import StrictModel
from evals.gate.aggregate import CategoryStats, ScenarioAggregate, UsageStats
from evals.gate.baseline_file import Baseline, BaselineScenario, recent
from evals.gate.guards import GuardCounts, GuardTest, fisher_two_sided, full_marks, judge_guards
from evals.gate.part_fingerprint import comparability
from evals.gate.passrate import PassRates
from evals.gate.quiet import quiet_tests
from evals.gate.stats import Estimate, cluster, trials_to_decide


class ItemDelta(StrictModel):
    """One criterion or category, run against baseline: mean points and full-marks rate."""

    title: str = Field(default="", description="the rubric's title, so a reason can name what fell")
    baseline: float | None
    run: float | None
    delta: float | None
    baseline_pass_rate: float | None
    pass_rate: float | None
    pass_rate_delta: float | None


class ScenarioComparison(StrictModel):
    baseline: float = Field(description="baseline mean over the parts scored on both sides")
    run: float = Field(description="run mean over the same parts")
    delta: float
    excluded_parts: list[str]
    k: int
    baseline_k: int
    baseline_pass: PassRates = Field(description="the baseline's rates estimated at this run's k")
    pass_p: float | None = Field(
        default=None,
        description="Fisher's exact two-sided p that the per-trial pass rates (passed of trials) differ "
        "by chance: pass@k and pass^k are functions of them, so their deltas are no more than this says",
    )
    baseline_usage: UsageStats | None
    criteria: dict[str, ItemDelta]
    categories: dict[str, ItemDelta]


class TotalComparison(StrictModel):
    """The gated number: Δ of the total over all compared scenarios, with its interval."""

    baseline: float
    run: float
    delta: float
    ci: tuple[float, float]
    confidence: float
    se: float
    allowed_drop: float
    detectable_drop: float
    power: float
    k: int
    baseline_k: int
    budget: int
    decide_at: int | None = Field(
        default=None,
        description="an undecided drop (past the threshold, interval across zero): the trials per "
        "scenario at which its interval would exclude zero if the delta held; None when none up to "
        "DECIDE_LIMIT would (what the report says deciding would take; the gate never reads it)",
    )
    max_points: float | None = Field(
        default=None, description="the compared scenarios' points: the scale Δ and its interval live on"
    )
    clipped: bool = Field(
        default=False,
        description="the interval reached past what the scale allows (below -baseline or above "
        "max_points - baseline) and was cut there: a t interval on a few trials can, a score cannot",
    )

    def detects(self) -> str:
        """The smallest drop this k detects, as a number that can exist: past the compared points
        no drop of this task can reach it, so it says what would help instead."""
        if self.max_points is not None and self.detectable_drop > self.max_points:
            return f"more than the task's {self.max_points:g} points: add trials"
        return f"{self.detectable_drop:.2f}".rstrip("0").rstrip(".") + " points"

    def interval_text(self) -> str:
        """`88% CI -2.10 to +0.40`, with `(clipped to the 0–25 scale)` when it was cut there."""
        low, high = self.ci
        text = f"{self.confidence:.0%} CI {low:+.2f} to {high:+.2f}"
        if self.clipped and self.max_points is not None:
            text += f" (clipped to what a total of 0–{self.max_points:g} allows)"
        return text


class GuardComparison(StrictModel):
    """One guard part, baseline against run: full-marks trials among those in which it was scored."""

    scenario: str
    part: str
    baseline_passed: int
    baseline_trials: int
    baseline_runs: int = Field(default=1, description="blessed runs the baseline side pools (guard history)")
    passed: int
    trials: int
    baseline_pass_rate: float | None
    pass_rate: float | None
    p_value: float = Field(description="one-sided Fisher exact: the run passes it less often")
    p_adjusted: float = Field(description="Holm-adjusted across every guard of the run")
    alpha: float
    regressed: bool


class Comparison(StrictModel):
    """What compare found. `errored` and `changed` stop the comparison before any number is made;
    the verdict (evals/gate/verdict.py) turns this into pass, regression, and so on."""

    errored: list[str] = Field(default_factory=list, description="scenarios with too many errored trials")
    alerts: list[str] = Field(
        default_factory=list, description="what the agent did that a reviewer must see whatever the verdict"
    )
    unmeasured: list[str] = Field(
        default_factory=list,
        description="what the baseline measured and this run could not: a part unscored in every trial, "
        "a guard unscored in any, or more than gate.max_unscored_percent of the points unscored",
    )
    no_baseline: bool = False
    changed: list[str] = Field(default_factory=list, description="eval definition changes since the baseline")
    notices: list[str] = Field(default_factory=list)
    scenarios: dict[str, ScenarioComparison] = Field(default_factory=dict)
    total: TotalComparison | None = None
    guards: list[GuardComparison] = Field(default_factory=list)
    estimate: SkipValidation[Estimate | None] = Field(default=None, exclude=True, repr=False)
    guard_tests: SkipValidation[list[GuardTest]] = Field(default_factory=list, exclude=True, repr=False)
    # quiet tasks scoring less than the one score their baseline always had (evals/gate/quiet.py)
    quiet_tests: SkipValidation[list[GuardTest]] = Field(default_factory=list, exclude=True, repr=False)
    # each compared scenario's own allowed drop when `threshold.per_scenario` holds it on its own
    scenario_allowed: dict[str, float] | None = Field(default=None, exclude=True, repr=False)

    @property
    def regressed_guards(self) -> list[GuardComparison]:
        return [g for g in self.guards if g.regressed]


def delta(a: float | None, b: float | None) -> float | None:
    return round(a - b, 4) if a is not None and b is not None else None


@dataclass(frozen=True)
class Shared:
    """One scenario's trial totals restricted to the parts scored on both sides."""

    parts: list[str]
    excluded: list[str]
    mean_run: float
    mean_base: float
    run_totals: list[float]
    base_totals: list[float]


def _fill(scores: dict[str, float | None], parts: list[str], means: dict[str, float]) -> float:
    return sum(v if (v := scores.get(p)) is not None else means[p] for p in parts)


def shared_parts(agg: ScenarioAggregate, base: BaselineScenario, changed: Sequence[str] = ()) -> Shared:
    """The parts scored on both sides, less those whose definition `changed` since the baseline."""
    run_means = {p: v.mean for p, v in agg.parts.items() if v.mean is not None}
    base_means = {p: v for p, v in base.parts.items() if v is not None}
    parts = [p for p in agg.parts if p in run_means and p in base_means and p not in changed]
    return Shared(
        parts=parts,
        excluded=[p for p in agg.parts if p not in parts and p not in changed],
        mean_run=round(sum(run_means[p] for p in parts), 4),
        mean_base=round(sum(base_means[p] for p in parts), 4),
        run_totals=[_fill(t, parts, run_means) for t in agg.total.per_trial_parts],
        base_totals=[_fill(t.parts, parts, base_means) for t in base.trials],
    )


def unmeasured(
    aggregates: dict[str, ScenarioAggregate],
    baseline: Baseline,
    settings: Settings,
    changed: dict[str, list[str]],
) -> list[str]:
    """What the baseline scored and this run left unscored, when it is enough to doubt the verdict.

    Comparing only the parts scored on both sides would let a run that could not be graded pass on
    what remains: a crash in a check, a tree the grader could not write, or a judge that never
    answered would drop the parts the agent fails. So a part the baseline scored and this run left
    unscored in every trial, a guard unscored in any trial, or unscored points above
    `gate.max_unscored_percent` of the run's make the verdict `error` (unmeasured is never a pass).
    A judge undecided in a few trials stays what it was: missing data, filled by the part's mean.
    """
    reasons: list[str] = []
    lost_points = total_points = 0.0
    for name, agg in aggregates.items():
        base = baseline.scenarios.get(name)
        if base is None or not base.trials:
            continue
        measured = [
            p
            for p, v in base.parts.items()
            if v is not None and p in agg.parts and p not in changed.get(name, [])
        ]
        trials = agg.total.per_trial_parts
        never = [p for p in measured if agg.parts[p].mean is None and trials]
        if never:
            reasons.append(
                f"{name}: unmeasured: {', '.join(never)} scored in the baseline, unscored in every trial "
                "of this run (their reasons are in the viewer)"
            )
        guards = [
            g
            for g in settings.guards.get(name, [])
            if g in measured and g not in never and agg.unscored.get(g)
        ]
        if guards:
            where = ", ".join(f"{g} in {agg.unscored[g]} of {len(trials)} trials" for g in guards)
            reasons.append(f"{name}: unmeasured guard: {where}")
        for part in measured:
            top = agg.parts[part].max
            total_points += top * len(trials)
            lost_points += top * sum(1 for t in trials if t.get(part) is None)
    share = 100 * lost_points / total_points if total_points else 0.0
    if share > settings.gate.max_unscored_percent:
        reasons.append(
            f"unmeasured: {share:.0f}% of this run's points were left unscored, more than "
            f"gate.max_unscored_percent ({settings.gate.max_unscored_percent:g}%)"
        )
    return reasons


def never_scored(agg: ScenarioAggregate, base: BaselineScenario, parts: list[str]) -> list[str]:
    """Parts at 0 in every scored trial on both sides (the eval-suite seed's "suspect the task")."""

    def zero(values: list[float | None]) -> bool:
        scored = [v for v in values if v is not None]
        return bool(scored) and all(v == 0 for v in scored)

    return [
        p
        for p in parts
        if zero([t.get(p) for t in agg.total.per_trial_parts]) and zero([t.parts.get(p) for t in base.trials])
    ]


def _items(
    run: dict[str, CategoryStats], means: dict[str, float | None], rates: dict[str, float | None]
) -> dict[str, ItemDelta]:
    return {
        item: ItemDelta(
            title=v.title,
            baseline=means.get(item),
            run=v.mean,
            delta=delta(v.mean, means.get(item)),
            baseline_pass_rate=rates.get(item),
            pass_rate=v.pass_rate,
            pass_rate_delta=delta(v.pass_rate, rates.get(item)),
        )
        for item, v in run.items()
    }


def baseline_rates(base: BaselineScenario, k: int, pass_threshold: float) -> PassRates:
    """The baseline's pass@k and pass^k at *this run's* k, so the rows compare like with like;
    pass@1 as the baseline recorded it (its own decided trials)."""
    at_k = PassRates.estimate(len(base.trials), base_passes(base, pass_threshold), k)
    return at_k.model_copy(update={"pass_at_1": base.pass_at_1})


def base_passes(base: BaselineScenario, pass_threshold: float) -> int:
    """The baseline's trials whose total reaches the pass threshold."""
    return sum(t.total >= pass_threshold for t in base.trials)


def pass_difference_p(agg: ScenarioAggregate, base: BaselineScenario) -> float | None:
    """How likely chance alone makes the run's and the baseline's passed-of-trials this different.
    With few trials pass^k swings wildly (4 of 6 passes estimate pass^3 at 20%, 2 of 3 at 0%: the
    same rate), so the report marks a pass-rate change that this p does not support."""
    if not agg.k or not base.trials:
        return None
    run_pass = sum(t >= agg.pass_threshold for t in agg.total.per_trial)
    base_pass = base_passes(base, agg.pass_threshold)
    return round(fisher_two_sided(run_pass, agg.k, base_pass, len(base.trials)), 4)


def _scenario(
    agg: ScenarioAggregate, base: BaselineScenario, shared: Shared, changed: Sequence[str]
) -> ScenarioComparison:
    return ScenarioComparison(
        baseline=shared.mean_base,
        run=shared.mean_run,
        delta=round(shared.mean_run - shared.mean_base, 4),
        excluded_parts=[*shared.excluded, *changed],
        k=agg.k,
        baseline_k=len(base.trials),
        baseline_pass=baseline_rates(base, agg.k, agg.pass_threshold),
        pass_p=pass_difference_p(agg, base),
        baseline_usage=base.usage,
        criteria=_items(dict(agg.criteria), base.criteria, base.criteria_pass_rate),
        categories=_items(agg.categories, base.categories, base.categories_pass_rate),
    )


def refusal_alerts(aggregates: dict[str, ScenarioAggregate]) -> list[str]:
    """ "The model refused in N of k trials", per scenario: a refusal ends the trial with whatever the
    agent had done (usually nothing, so 0 points), which would otherwise read as a silent regression."""
    out = []
    for name, agg in aggregates.items():
        refused = sum(agg.refusals.values())
        if refused:
            kinds = ", ".join(f"{c} ×{n}" if n > 1 else c for c, n in sorted(agg.refusals.items()))
            out.append(
                f"{name}: the model refused in {refused} of {agg.k} trials (category: {kinds}); "
                "a refusal is graded as the agent's failure"
            )
    return out


def errored_scenarios(aggregates: dict[str, ScenarioAggregate], max_error_share: float) -> list[str]:
    """Why each scenario's trials cannot be trusted: more than `max_error_share` errored, or none finished."""
    out = []
    for name, agg in aggregates.items():
        trials = agg.k + agg.errored
        if trials and agg.errored / trials > max_error_share:
            out.append(f"{name}: {agg.errored} of {trials} trials failed for infrastructure reasons")
        elif trials and agg.k == 0:
            out.append(f"{name}: no trial finished")
    return out


@dataclass(frozen=True)
class Settings:
    """What the comparison needs from evals.yaml."""

    threshold: Threshold
    gate: GateConfig
    max_error_share: float = 0.5
    guards: dict[str, list[str]] = field(default_factory=dict)  # scenario -> its guard parts, rubric order
    # scenarios with a reference replay, which `check-scenario` holds to full marks: solvable as graded
    solved: frozenset[str] = frozenset()


def _scenario_notices(
    name: str, agg: ScenarioAggregate, base: BaselineScenario, shared: Shared, solved: bool
) -> list[str]:
    """What a reviewer should know about how one scenario was compared."""
    notices = []
    if shared.excluded:
        notices.append(
            f"{name}: compared on the parts scored on both sides; left out (unscored on one side): "
            f"{', '.join(shared.excluded)}"
        )
    suspect = never_scored(agg, base, shared.parts)
    if suspect and solved:
        notices.append(
            f"{name}: never scored: {', '.join(suspect)} scored 0 in every trial of both sides; its "
            f"reference replay does (`evals check-scenario {name}`): docs/gate.md#never-scored"
        )
    elif suspect:
        notices.append(
            f"{name}: suspect the scenario: {', '.join(suspect)} scored 0 in every trial of both the "
            "baseline and this run (0 % pass@k almost always means a scenario or grader bug, "
            "not a hopeless agent)"
        )
    return notices


def compare(
    aggregates: dict[str, ScenarioAggregate],
    fingerprint: dict[str, Any],
    baseline: Baseline | None,
    settings: Settings,
) -> Comparison:
    """Compare each scenario with its baseline, then the total (with the estimate the gate decides on)."""
    result = Comparison(
        errored=errored_scenarios(aggregates, settings.max_error_share), alerts=refusal_alerts(aggregates)
    )
    if result.errored:
        return result
    if baseline is None:
        result.no_baseline = True
        return result
    points_of = {name: agg.max_points for name, agg in aggregates.items()}
    allowed = comparability(baseline.fingerprint, fingerprint, points_of, settings.gate.max_changed_percent)
    result.changed = allowed.blocking
    if result.changed:
        return result
    result.notices += allowed.notices
    result.unmeasured = unmeasured(aggregates, baseline, settings, allowed.changed)
    clusters = []
    max_points = 0
    points: dict[str, float] = {}
    sides: dict[str, tuple[list[float], list[float]]] = {}
    for name, agg in aggregates.items():
        base = baseline.scenarios.get(name)
        if base is None or not base.trials or agg.total.mean is None or base.total_mean is None:
            result.notices.append(f"{name}: not in the baseline; shown, not gated")
            continue
        changed = allowed.changed.get(name, [])
        shared = shared_parts(agg, base, changed)
        if not shared.parts:
            result.notices.append(f"{name}: no part is scored on both sides; shown, not gated")
            continue
        result.notices += _scenario_notices(name, agg, base, shared, name in settings.solved)
        result.scenarios[name] = _scenario(agg, base, shared, changed)
        prior_sd = settings.gate.prior_sd_percent / 100 * agg.max_points
        clusters.append(
            cluster(
                name,
                shared.run_totals,
                shared.base_totals,
                prior_sd,
                mean_run=shared.mean_run,
                mean_base=shared.mean_base,
            )
        )
        max_points += agg.max_points
        points[name] = agg.max_points
        sides[name] = (list(shared.base_totals), list(shared.run_totals))
    if clusters:
        result.estimate = Estimate(tuple(clusters))
        result.scenario_allowed = settings.threshold.scenario_drops(points)
        allowed_drop = settings.threshold.allowed_drop(max_points)
        result.total = _total(result.estimate, settings, allowed_drop, max_points)
    _guards(result, aggregates, baseline, settings)
    result.quiet_tests = quiet_tests(sides, settings.gate.quiet_alpha)
    return result


def guard_counts(
    name: str, part: str, agg: ScenarioAggregate, base: BaselineScenario, history_trials: int
) -> tuple[GuardCounts, int]:
    """Full-marks trials among the trials in which the part was scored, on each side, and how many
    blessed runs the baseline side pools: its guard history, up to `history_trials` trials, when it
    has one for the part (evals/baseline/bless.py), else its own trials (a baseline blessed before
    histories)."""
    top = agg.parts[part].max
    run_pass, run_n = full_marks((t.get(part) for t in agg.total.per_trial_parts), top)
    samples = recent(base.guard_history.get(part, []), history_trials)
    if samples:
        base_pass, base_n = sum(s.passed for s in samples), sum(s.trials for s in samples)
    else:
        base_pass, base_n = full_marks((t.parts.get(part) for t in base.trials), top)
    label = f"{name}/{part}" if name else part
    return GuardCounts(label, base_pass, base_n, run_pass, run_n), max(1, len(samples))


def _guards(
    result: Comparison, aggregates: dict[str, ScenarioAggregate], baseline: Baseline, settings: Settings
) -> None:
    """Test every guard part of the compared scenarios at once (Holm across all of them)."""
    entries: list[tuple[str, str, GuardCounts, int]] = []
    several = len(aggregates) > 1
    window = settings.gate.guard_history_trials
    for name in result.scenarios:
        agg, base = aggregates[name], baseline.scenarios[name]
        for part in settings.guards.get(name, []):
            if part in agg.parts and part not in result.scenarios[name].excluded_parts:
                entries.append((name, part, *guard_counts(name if several else "", part, agg, base, window)))
    tests = judge_guards([c for _, _, c, _ in entries], settings.gate.guard_alpha)
    result.guard_tests = tests
    result.guards = [
        GuardComparison(
            scenario=name,
            part=part,
            baseline_passed=t.counts.base_pass,
            baseline_trials=t.counts.base_n,
            baseline_runs=runs,
            passed=t.counts.run_pass,
            trials=t.counts.run_n,
            baseline_pass_rate=_rate(t.counts.base_rate),
            pass_rate=_rate(t.counts.run_rate),
            p_value=round(t.p, 6),
            p_adjusted=round(t.p_adjusted, 6),
            alpha=t.alpha,
            regressed=t.regressed,
        )
        for (name, part, _, runs), t in zip(entries, tests, strict=True)
    ]


def _rate(value: float | None) -> float | None:
    return None if value is None else round(value, 4)


DECIDE_LIMIT = 500  # trials per scenario past which "what deciding would take" says "more will not"


def clip(ci: tuple[float, float], baseline: float, max_points: float) -> tuple[tuple[float, float], bool]:
    """The interval cut to what a total on 0..max_points can move from `baseline`, and whether it
    was cut. Signs survive the cut (the bounds are -baseline ≤ 0 ≤ max_points - baseline), so no
    decision read from the interval changes."""
    low, high = max(ci[0], -baseline), min(ci[1], max_points - baseline)
    return (low, high), (low, high) != ci


def _total(estimate: Estimate, settings: Settings, allowed: float, max_points: float) -> TotalComparison:
    gate = settings.gate
    low, high = estimate.interval(gate.confidence)
    clusters = estimate.clusters
    undecided = estimate.delta < -allowed and high >= 0
    baseline = sum(c.mean_base for c in clusters)
    (low, high), clipped = clip((low, high), baseline, max_points)
    return TotalComparison(
        baseline=round(baseline, 4),
        run=round(sum(c.mean_run for c in clusters), 4),
        delta=round(estimate.delta, 4),
        ci=(round(low, 4), round(high, 4)),
        confidence=gate.confidence,
        se=round(estimate.se(), 4),
        allowed_drop=round(allowed, 4),
        detectable_drop=round(estimate.detectable_drop(gate.confidence, gate.power, allowed), 4),
        power=gate.power,
        k=min(c.n_run for c in clusters),
        baseline_k=min(c.n_base for c in clusters),
        budget=gate.max_trials,
        decide_at=trials_to_decide(estimate, gate.confidence, DECIDE_LIMIT) if undecided else None,
        max_points=max_points,
        clipped=clipped,
    )
