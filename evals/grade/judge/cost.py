"""What grading a trial cost in judge calls, priced from the pricing file.

Computed wherever a trial is graded (a run, or `grade --run` re-grading a stored run), from the
verdicts on its part grades: a model call carries its token usage, a cache hit or a human label
carries none and costs nothing. Each verdict is priced at the model that answered it.

Not re-exported from `evals.grade.judge`: pricing is a run's concern, which grading itself never
needs.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from evals.core.model import FrozenModel
from evals.core.pricing import Pricing
from evals.core.usage import Usage
from evals.grade.judge._judgement import Judgement


class _Judged(Protocol):
    @property
    def judge(self) -> Judgement | None: ...


class Graded(Protocol):
    """A graded trial (`TrialGrade`): parts, each with the judge's verdict or None."""

    @property
    def parts(self) -> Sequence[_Judged]: ...


class JudgeCost(FrozenModel):
    """A trial's judge tokens and USD; the field names are the trial record's metric names."""

    judge_input_tokens: int = 0
    judge_output_tokens: int = 0
    judge_cost_usd: float | None = 0.0


def judge_cost(graded: Graded, pricing: Pricing) -> JudgeCost:
    """Tokens and cost of the judge calls behind this grade; None cost when a model has no price."""
    per_model: dict[str | None, Usage] = {}
    for part in graded.parts:
        verdict = part.judge
        if verdict is None or not verdict.usage:
            continue
        used = Usage(
            input_tokens=int(verdict.usage.get("input_tokens", 0)),
            output_tokens=int(verdict.usage.get("output_tokens", 0)),
        )
        per_model[verdict.model] = per_model.get(verdict.model, Usage()).add(used)
    total = Usage()
    costs: list[float | None] = []
    for model, used in per_model.items():
        total = total.add(used)
        if used != Usage():
            costs.append(pricing.cost(model, used))
    known = [c for c in costs if c is not None]
    return JudgeCost(
        judge_input_tokens=total.input_tokens,
        judge_output_tokens=total.output_tokens,
        judge_cost_usd=sum(known, 0.0) if len(known) == len(costs) else None,
    )
