"""`aggregate(records, rubric) -> ScenarioAggregate`: one scenario's trials reduced to means per part,
criterion, category and total; pass@1, pass@k, pass^k; tokens, cost and turns.

Means skip unscored parts (an undecided judge is missing data, not a zero). Errored trials are
infrastructure failures: counted, never scored.
"""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Sequence

from pydantic import Field

from evals.core.model import StrictModel
from evals.gate.passrate import PassRates
from evals.grade.result import TrialGrade
from evals.grade.rubric import Part, Rubric
from evals.records.model import TrialMetrics, TrialRecord


class Stats(StrictModel):
    pass


class PartStats(Stats):
    criterion: str
    max: int
    scored: int = Field(description="trials in which the part was scored")
    mean: float | None
    pass_rate: float | None = Field(description="share of scored trials with full marks on the part")
    decisive: bool = Field(
        default=False,
        exclude_if=lambda decisive: not decisive,
        description="a serious violation fails its trial",
    )


class CategoryStats(Stats):
    title: str
    max: int
    mean: float | None
    pass_rate: float | None = Field(description="share of trials with full marks on every part of it")


class CriterionStats(CategoryStats):
    category: str


class TotalStats(Stats):
    mean: float | None = Field(description="sum of the part means: unscored parts leave the sum, not 0")
    stdev: float | None
    per_trial: list[float]
    per_trial_parts: list[dict[str, float | None]]


class UsageStats(Stats):
    """Sums over the scenario's finished trials, and per-trial means of the process signals."""

    input_tokens: float = 0
    output_tokens: float = 0
    cache_read_input_tokens: float = 0
    cache_creation_input_tokens: float = 0
    cost_usd: float = 0
    judge_input_tokens: float = 0
    judge_output_tokens: float = 0
    judge_cost_usd: float = 0
    turns_mean: float | None = None
    tool_calls_mean: float | None = None
    latency_s_mean: float | None = None

    @property
    def tokens(self) -> float:
        return self.input_tokens + self.output_tokens

    @property
    def total_cost_usd(self) -> float:
        """What the trials cost in all, the agent's model calls and the judge's."""
        return self.cost_usd + self.judge_cost_usd


class TrialError(Stats):
    trial: int
    error: str | None


class ScenarioAggregate(Stats):
    k: int = Field(description="finished (graded) trials")
    errored: int
    max_points: int
    pass_threshold: float
    total: TotalStats
    pass_at_1: float | None = None
    pass_at_k: float | None = None
    pass_pow_k: float | None = None
    parts: dict[str, PartStats]
    criteria: dict[str, CriterionStats]
    categories: dict[str, CategoryStats]
    unscored: dict[str, int] = Field(description="part -> trials in which it was left unscored")
    refusals: dict[str, int] = Field(
        default_factory=dict,
        description="refusal category -> graded trials the model's refusal ended (a behaviour the gate "
        "reports whatever the verdict; the trial is graded as the agent left it)",
    )
    usage: UsageStats
    errors: list[TrialError]

    @property
    def rates(self) -> PassRates:
        return PassRates(pass_at_1=self.pass_at_1, pass_at_k=self.pass_at_k, pass_pow_k=self.pass_pow_k)


def _mean(values: Sequence[float]) -> float | None:
    return round(statistics.fmean(values), 4) if values else None


def _sum_or_none(values: Sequence[float | None]) -> float | None:
    present = [v for v in values if v is not None]
    return round(sum(present), 4) if present else None


def _scores(grade: TrialGrade) -> dict[str, float | None]:
    return {p.id: p.score for p in grade.parts}


PartScores = list[dict[str, float | None]]  # per trial: part id → score (None: unscored)


def full_marks_rate(table: PartScores, parts: Sequence[Part]) -> float | None:
    """Share of trials with full marks on every one of `parts`, among trials where all were scored."""
    decided = []
    for scores in table:
        if all(scores.get(part.id) is not None for part in parts):
            decided.append(all(scores[part.id] == part.points for part in parts))
    return round(sum(decided) / len(decided), 4) if decided else None


def _part_stats(table: PartScores, rubric: Rubric) -> dict[str, PartStats]:
    out = {}
    for criterion, part in rubric.parts():
        scores = [s for row in table if (s := row.get(part.id)) is not None]
        out[part.id] = PartStats(
            criterion=criterion.id,
            max=part.points,
            scored=len(scores),
            mean=_mean(scores),
            pass_rate=round(sum(s >= part.points for s in scores) / len(scores), 4) if scores else None,
            decisive=part.decisive,
        )
    return out


def _criterion_stats(
    table: PartScores, rubric: Rubric, parts: dict[str, PartStats]
) -> dict[str, CriterionStats]:
    return {
        c.id: CriterionStats(
            title=c.title,
            category=c.category,
            max=c.points,
            mean=_sum_or_none([parts[p.id].mean for p in c.parts]),
            pass_rate=full_marks_rate(table, c.parts),
        )
        for c in rubric.criteria
    }


def _category_stats(
    table: PartScores, rubric: Rubric, criteria: dict[str, CriterionStats]
) -> dict[str, CategoryStats]:
    out = {}
    for cat, points in rubric.category_points().items():
        in_cat = [c for c in rubric.criteria if c.category == cat]
        out[cat] = CategoryStats(
            title=rubric.categories[cat].title,
            max=points,
            mean=_sum_or_none([criteria[c.id].mean for c in in_cat]),
            pass_rate=full_marks_rate(table, [p for c in in_cat for p in c.parts]),
        )
    return out


USAGE_SUMS = (
    "input_tokens",
    "output_tokens",
    "cache_read_input_tokens",
    "cache_creation_input_tokens",
    "cost_usd",
    "judge_input_tokens",
    "judge_output_tokens",
    "judge_cost_usd",
)


def usage(metrics: list[TrialMetrics]) -> UsageStats:
    sums = {k: round(sum(float(getattr(m, k) or 0) for m in metrics), 6) for k in USAGE_SUMS}
    return UsageStats(
        **sums,
        turns_mean=_mean([float(m.turns) for m in metrics]),
        tool_calls_mean=_mean([float(m.tool_calls) for m in metrics]),
        latency_s_mean=_mean([m.latency_s for m in metrics]),
    )


def aggregate(records: list[TrialRecord], rubric: Rubric) -> ScenarioAggregate:
    """One scenario's records (any order; errored ones included) reduced for comparison and report."""
    ok = [r for r in records if r.graded]
    grades = [r.grade for r in ok if r.grade is not None]
    errored = [r for r in records if r.status != "ok"]
    table = [_scores(g) for g in grades]  # built once: every statistic below reads it
    parts = _part_stats(table, rubric)
    criteria = _criterion_stats(table, rubric, parts)
    totals = [float(g.total) for g in grades]
    return ScenarioAggregate(
        k=len(ok),
        errored=len(errored),
        max_points=rubric.max_points,
        pass_threshold=rubric.pass_threshold,
        total=TotalStats(
            mean=_sum_or_none([p.mean for p in parts.values()]),
            stdev=round(statistics.stdev(totals), 4) if len(totals) > 1 else None,
            per_trial=totals,
            per_trial_parts=table,
        ),
        **PassRates.of_flags([g.passed for g in grades]).model_dump(),
        parts=parts,
        criteria=criteria,
        categories=_category_stats(table, rubric, criteria),
        unscored={pid: n for pid, p in parts.items() if (n := len(grades) - p.scored)},
        refusals=dict(
            Counter(
                r.metrics.refusal_category or "unspecified" for r in ok if r.metrics.termination == "refusal"
            )
        ),
        usage=usage([r.metrics for r in ok]),
        errors=[TrialError(trial=r.trial, error=r.error) for r in errored],
    )
