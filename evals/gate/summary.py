"""`Summary`: the verdict with everything that led to it, written as summary.json and read by the
report, the baseline and the history.

Built only from typed stage outputs (records → aggregates → comparison → verdict), so `compare`,
`grade` and `merge` rebuild it from a run directory and the eval definition, never the agent.
"""

from __future__ import annotations

from typing import Any

from pydantic import Field, ValidationError

from evals.core.errors import BadInputError
from evals.core.loading import describe_validation_error
from evals.core.model import StrictModel
from evals.gate.aggregate import CategoryStats, ScenarioAggregate
from evals.gate.compare import Comparison, GuardComparison, ItemDelta, ScenarioComparison, TotalComparison
from evals.gate.judge_record import JudgeCheck
from evals.gate.operating import OperatingTally
from evals.gate.verdict import Verdict, VerdictName
from evals.grade.result import PartGrade
from evals.records.model import RunMeta, TrialMetrics, TrialRecord
from evals.records.rundir import RunDir


class TotalLine(StrictModel):
    """The headline: the run's total over every scored part, and the gated comparison beside it."""

    mean: float | None
    max: int
    baseline: float | None = Field(description="baseline total over the parts compared")
    compared: float | None = Field(default=None, description="this run's total over the same parts")
    delta: float | None = Field(description="compared - baseline: the Δ the gate decided on")


class Adaptive(StrictModel):
    started_with: int
    trials: int
    budget: int | None


class FlatItem(StrictModel):
    """A criterion or category with its comparison, keyed `scenario/item` when a run has several."""

    mean: float | None
    max: int
    baseline: float | None
    delta: float | None
    pass_rate: float | None
    baseline_pass_rate: float | None
    pass_rate_delta: float | None


class TierStats(StrictModel):
    """One tier of the suite (L1 single-service, L2 cross-service, L3 multi-stakeholder): its tasks
    as units, so pass^k is the share of tasks that passed every trial (the eval seed's reading)."""

    tasks: list[str]
    points: int
    mean: float | None
    pass_at_1: float | None
    pass_at_k: float | None
    pass_pow_k: float | None


class TrialSummary(StrictModel):
    trial: int
    status: str
    error: str | None
    total: float | None
    passed: bool | None
    parts: list[PartGrade]
    metrics: TrialMetrics
    violations: list[str] = Field(
        default_factory=list, description="decisive parts the trial failed: each alone failed it"
    )
    collateral: list[str] = Field(
        default_factory=list,
        exclude_if=lambda changes: not changes,
        description="what the trial changed outside its task's write set (the `collateral` violation)",
    )


class Summary(StrictModel):
    verdict: VerdictName
    reasons: list[str]
    alerts: list[str] = Field(
        default_factory=list, description="what the agent did that a reviewer must see (the model refused)"
    )
    notices: list[str]
    run: RunMeta
    total: TotalLine
    gate: TotalComparison | None
    guards: list[GuardComparison] = Field(default_factory=list, description="guard parts, each tested alone")
    adaptive: Adaptive
    criteria: dict[str, FlatItem]
    categories: dict[str, FlatItem]
    scenarios: dict[str, ScenarioAggregate]
    comparison: dict[str, ScenarioComparison]
    fingerprint: dict[str, Any]
    trials: dict[str, list[TrialSummary]]
    tiers: dict[str, TierStats] = Field(default_factory=dict)
    operating: OperatingTally | None = Field(
        default=None,
        description="the gate's measured false alarms and canary catches (baseline/operating.jsonl), "
        "as of the definition this run was compared under; None in summaries written before it",
    )
    judge_agreement: JudgeCheck | None = Field(
        default=None,
        description="the newest measurement of the judge against people (baseline/judge.jsonl); None "
        "when none was recorded",
    )

    @property
    def several(self) -> bool:
        return len(self.scenarios) > 1

    def verdict_of(self) -> Verdict:
        return Verdict(verdict=self.verdict, reasons=self.reasons, alerts=self.alerts, notices=self.notices)


def _flat(
    aggregates: dict[str, ScenarioAggregate], comparison: Comparison, criteria: bool
) -> dict[str, FlatItem]:
    """Criteria (or categories) of every scenario in one table with their comparison."""
    several = len(aggregates) > 1
    out = {}
    for name, agg in aggregates.items():
        compared = comparison.scenarios.get(name)
        items: dict[str, CategoryStats] = dict(agg.criteria) if criteria else agg.categories
        deltas: dict[str, ItemDelta] = {}
        if compared is not None:
            deltas = compared.criteria if criteria else compared.categories
        for item, value in items.items():
            d = deltas.get(item)
            out[f"{name}/{item}" if several else item] = FlatItem(
                mean=value.mean,
                max=value.max,
                baseline=d.baseline if d else None,
                delta=d.delta if d else None,
                pass_rate=value.pass_rate,
                baseline_pass_rate=d.baseline_pass_rate if d else None,
                pass_rate_delta=d.pass_rate_delta if d else None,
            )
    return out


def _total(aggregates: dict[str, ScenarioAggregate], comparison: Comparison) -> TotalLine:
    means = [a.total.mean for a in aggregates.values() if a.total.mean is not None]
    gated = comparison.total
    return TotalLine(
        mean=round(sum(means), 4) if means else None,
        max=sum(a.max_points for a in aggregates.values()),
        baseline=gated.baseline if gated else None,
        compared=gated.run if gated else None,
        delta=gated.delta if gated else None,
    )


def _trials(records: list[TrialRecord], names: list[str]) -> dict[str, list[TrialSummary]]:
    out: dict[str, list[TrialSummary]] = {name: [] for name in names}
    for r in records:
        out.setdefault(r.scenario, []).append(
            TrialSummary(
                trial=r.trial,
                status=r.status,
                error=r.error,
                total=r.grade.total if r.grade else None,
                passed=r.grade.passed if r.grade else None,
                parts=r.grade.parts if r.grade else [],
                metrics=r.metrics,
                violations=list(r.grade.violations) if r.grade else [],
                collateral=list(r.grade.collateral) if r.grade else [],
            )
        )
    return out


def _mean_of(values: list[float | None]) -> float | None:
    present = [v for v in values if v is not None]
    return round(sum(present) / len(present), 4) if present else None


def tier_stats(aggregates: dict[str, ScenarioAggregate], tiers: dict[str, str]) -> dict[str, TierStats]:
    """Per tier, the mean total and the mean of its tasks' pass@1, pass@k and pass^k."""
    out = {}
    for tier in sorted(set(tiers.values())):
        names = [n for n in aggregates if tiers.get(n) == tier]
        aggs = [aggregates[n] for n in names]
        means = [a.total.mean for a in aggs]
        out[tier] = TierStats(
            tasks=names,
            points=sum(a.max_points for a in aggs),
            mean=round(sum(m for m in means if m is not None), 4)
            if any(m is not None for m in means)
            else None,
            pass_at_1=_mean_of([a.pass_at_1 for a in aggs]),
            pass_at_k=_mean_of([a.pass_at_k for a in aggs]),
            pass_pow_k=_mean_of([a.pass_pow_k for a in aggs]),
        )
    return out


def build_summary(
    meta: RunMeta,
    aggregates: dict[str, ScenarioAggregate],
    comparison: Comparison,
    verdict: Verdict,
    fingerprint: dict[str, Any],
    records: list[TrialRecord],
    tiers: dict[str, str] | None = None,
    operating: OperatingTally | None = None,
    judge_agreement: JudgeCheck | None = None,
) -> Summary:
    return Summary(
        verdict=verdict.verdict,
        reasons=verdict.reasons,
        alerts=verdict.alerts,
        notices=verdict.notices,
        run=meta,
        total=_total(aggregates, comparison),
        gate=comparison.total,
        guards=comparison.guards,
        adaptive=Adaptive(
            started_with=meta.trials_started or meta.trials, trials=meta.trials, budget=meta.trials_budget
        ),
        criteria=_flat(aggregates, comparison, criteria=True),
        categories=_flat(aggregates, comparison, criteria=False),
        scenarios=aggregates,
        comparison=comparison.scenarios,
        fingerprint=fingerprint,
        trials=_trials(records, list(aggregates)),
        tiers=tier_stats(aggregates, tiers or {}),
        operating=operating,
        judge_agreement=judge_agreement,
    )


def read_summary_if_any(rd: RunDir) -> Summary | None:
    """The run's summary.json as a `Summary`, None when there is none; one this version cannot
    read is bad input, named."""
    raw = rd.read_summary_json()
    if raw is None:
        return None
    try:
        return Summary.model_validate_json(raw)
    except ValidationError as exc:
        raise BadInputError(describe_validation_error(rd.summary_path, exc)) from exc
