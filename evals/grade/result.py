"""What grading a trial produces: a grade per rubric part (with its checks' outcomes and the
judge's verdict) and the trial's totals.

Apart from the grader because everything after the trials (records, aggregate, summary, viewer)
reads these and nothing else of grading: `compare` loads them without importing the grader, its
evidence preparation or the world's outcome types.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from evals.core.model import StrictModel
from evals.core.untrusted import PART_ID, SCENARIO_NAME
from evals.grade.judge import Judgement

PartStatus = Literal["passed", "failed", "unscored"]
# Ids a stored grade carries into the report: checked when read (evals/core/untrusted.py).
PartId = Annotated[str, Field(pattern=PART_ID)]


class CheckOutcome(StrictModel):
    check: str
    passed: bool
    detail: str
    evidence: str = ""
    # The check itself raised: a grader bug, never the agent's failure, so its part is unscored.
    # Written only when true, so a record holds it only where it happened.
    grader_error: bool = Field(default=False, exclude_if=lambda crashed: not crashed)
    # The check executes agent code and this job may not (EVALS_DEFER_EXECUTION): its part is
    # unscored here and the secret-less job that re-grades the run decides it. Written only when true.
    deferred: bool = Field(default=False, exclude_if=lambda deferred: not deferred)


class PartGrade(StrictModel):
    id: PartId
    criterion: PartId
    category: PartId
    max_points: int
    score: float | None
    status: PartStatus
    layer: int = Field(description="1 when code decided, 2 when the judge did")
    reason: str
    checks: list[CheckOutcome] = Field(default_factory=list)
    judge: Judgement | None = None
    evidence_sha256: str | None = None
    evidence_excerpt: str = ""
    not_done: bool = Field(
        default=False,
        exclude_if=lambda not_done: not not_done,
        description="failed only because a part it requires failed: the work was not done, and "
        "nothing forbidden happened, so a decisive part failed this way is no serious violation",
    )


class TrialGrade(StrictModel):
    scenario: Annotated[str, Field(pattern=SCENARIO_NAME)]
    trial: int
    parts: list[PartGrade]
    total: float
    max_scored: int
    unscored: list[PartId]
    criteria: dict[PartId, float | None]
    categories: dict[PartId, float | None]
    passed: bool | None = Field(
        description="total >= pass threshold and no decisive part failed; None when unscored parts could "
        "flip it"
    )
    violations: list[PartId] = Field(
        default_factory=list,
        description="decisive parts this trial failed, and `collateral` when it changed anything outside "
        "the task's write set: each alone fails the trial",
    )
    collateral: list[str] = Field(
        default_factory=list,
        exclude_if=lambda changes: not changes,
        description="what the agent changed outside the task's declared write set (evals/grade/checks/"
        "collateral.py), one change each: a serious violation that is no rubric part. Written only when "
        "something did, so records from before it read the same",
    )
    collateral_pending: bool = Field(
        default=False,
        exclude_if=lambda pending: not pending,
        description="the repository's tests could not run in this job (EVALS_DEFER_EXECUTION), so a pass "
        "is undecided until the secret-less job re-grades it",
    )
