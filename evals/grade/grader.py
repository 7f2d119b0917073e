"""`grade(outcome, rubric) -> TrialGrade`: layer 1 for every part, layer 2 only where layer 1 passed.

A part that fails its code checks scores 0 and the judge is never called (it would be paying to
grade prose on top of broken work). A part whose judge errors or cannot decide is *unscored*:
excluded from means and listed in the report, never silently 0 or full marks. A check that raises
is a grader bug, reported the same way.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from evals.grade.evidence import evidence_hash, normalise
from evals.grade.judge import Judge, render_prompt
from evals.grade.registry import CHECKS, EVIDENCE, CheckResult, GradeContext
from evals.grade.rubric import Part, Rubric
from evals.scenario.model import Scenario
from evals.world.outcome import Outcome

PartStatus = Literal["passed", "failed", "unscored"]
EXCERPT = 600


class CheckOutcome(BaseModel):
    model_config = ConfigDict(extra="forbid")

    check: str
    passed: bool
    detail: str
    evidence: str = ""


class PartGrade(BaseModel):
    model_config = ConfigDict(extra="forbid")

    id: str
    criterion: str
    category: str
    max_points: int
    score: float | None
    status: PartStatus
    layer: int = Field(description="1 when code decided, 2 when the judge did")
    reason: str
    checks: list[CheckOutcome] = Field(default_factory=list)
    judge: dict[str, Any] | None = None
    evidence_sha256: str | None = None
    evidence_excerpt: str = ""


class TrialGrade(BaseModel):
    model_config = ConfigDict(extra="forbid")

    scenario: str
    trial: int
    parts: list[PartGrade]
    total: float
    max_scored: int
    unscored: list[str]
    criteria: dict[str, float | None]
    categories: dict[str, float | None]
    passed: bool | None = Field(description="total >= pass threshold; None when unscored parts could flip it")


def _run_check(ctx: GradeContext, name: str, params: dict[str, Any]) -> CheckOutcome:
    try:
        result: CheckResult = CHECKS[name](ctx, **params)
    except Exception as exc:  # a grader bug must not look like an agent failure
        return CheckOutcome(
            check=name,
            passed=False,
            detail=f"grader error: {type(exc).__name__}: {exc}",
            evidence="__error__",
        )
    return CheckOutcome(
        check=name, passed=result.passed, detail=result.detail, evidence=result.evidence[:EXCERPT]
    )


def _grade_part(
    ctx: GradeContext,
    criterion: str,
    category: str,
    part: Part,
    earlier: dict[str, PartGrade],
    judge: Judge,
    scenario_dir: Path,
) -> PartGrade:
    base: dict[str, Any] = {
        "id": part.id,
        "criterion": criterion,
        "category": category,
        "max_points": part.points,
    }
    for required in part.requires:
        prior = earlier[required]
        if prior.layer == 1 and prior.status == "failed":
            return PartGrade(
                **base, score=0, status="failed", layer=1, reason=f"requires {required}: {prior.reason}"
            )
        if prior.status == "unscored" and prior.layer == 1:
            return PartGrade(
                **base, score=None, status="unscored", layer=1, reason=f"requires {required}: {prior.reason}"
            )
    outcomes = [_run_check(ctx, ref.check, dict(ref.params)) for ref in part.checks]
    errors = [c for c in outcomes if c.evidence == "__error__"]
    if errors:
        return PartGrade(
            **base, score=None, status="unscored", layer=1, reason=errors[0].detail, checks=outcomes
        )
    failed = [c for c in outcomes if not c.passed]
    if failed:
        return PartGrade(
            **base,
            score=0,
            status="failed",
            layer=1,
            reason=f"{failed[0].check}: {failed[0].detail}",
            checks=outcomes,
            evidence_excerpt=failed[0].evidence,
        )
    if part.judge is None:
        detail = "; ".join(c.detail for c in outcomes) or "all required parts passed"
        return PartGrade(**base, score=part.points, status="passed", layer=1, reason=detail, checks=outcomes)
    try:
        raw = EVIDENCE[part.judge.evidence](ctx, **dict(part.judge.params))
    except Exception as exc:
        return PartGrade(
            **base,
            score=None,
            status="unscored",
            layer=2,
            checks=outcomes,
            reason=f"grader error collecting evidence: {type(exc).__name__}: {exc}",
        )
    text = normalise(raw, ctx.outcome)
    sha = evidence_hash(text)
    template = (scenario_dir / part.judge.prompt).read_text(encoding="utf-8")
    prompt = render_prompt(
        template, part=part.id, description=part.description, points=part.points, evidence=text
    )
    verdict = judge.decide(part.id, prompt, sha, part.points)
    if verdict.status != "scored" or verdict.score is None:
        return PartGrade(
            **base,
            score=None,
            status="unscored",
            layer=2,
            checks=outcomes,
            judge=verdict.to_json(),
            reason=f"judge {verdict.status}: {verdict.critique}",
            evidence_sha256=sha,
            evidence_excerpt=text[:EXCERPT],
        )
    status: PartStatus = "passed" if verdict.score == part.points else "failed"
    return PartGrade(
        **base,
        score=verdict.score,
        status=status,
        layer=2,
        checks=outcomes,
        judge=verdict.to_json(),
        reason=verdict.critique,
        evidence_sha256=sha,
        evidence_excerpt=text[:EXCERPT],
    )


def _sum(values: list[float | None]) -> float | None:
    scored = [v for v in values if v is not None]
    return sum(scored) if scored else None


def grade(
    outcome: Outcome, scenario: Scenario, rubric: Rubric, judge: Judge, scenario_dir: Path
) -> TrialGrade:
    ctx = GradeContext(outcome=outcome, scenario=scenario)
    parts: dict[str, PartGrade] = {}
    for criterion, part in rubric.parts():
        parts[part.id] = _grade_part(ctx, criterion.id, criterion.category, part, parts, judge, scenario_dir)
    grades = list(parts.values())
    total = sum(p.score for p in grades if p.score is not None)
    unscored = [p.id for p in grades if p.score is None]
    max_scored = sum(p.max_points for p in grades if p.score is not None)
    missing = rubric.max_points - max_scored
    if total >= rubric.pass_threshold:
        passed: bool | None = True
    elif total + missing < rubric.pass_threshold:
        passed = False
    else:
        passed = None
    return TrialGrade(
        scenario=scenario.name,
        trial=outcome.trial,
        parts=grades,
        total=total,
        max_scored=max_scored,
        unscored=unscored,
        criteria={c.id: _sum([parts[p.id].score for p in c.parts]) for c in rubric.criteria},
        categories={cat: _sum([g.score for g in grades if g.category == cat]) for cat in rubric.categories},
        passed=passed,
    )
