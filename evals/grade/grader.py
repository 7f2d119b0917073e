"""`grade(outcome, task, judge) -> TrialGrade`: layer 1 for every part, layer 2 only where layer 1 passed.

A part that fails its code checks scores 0 and the judge is never called (it would be paying to
grade prose on top of broken work). A part whose judge errors or cannot decide is *unscored*:
excluded from means and listed in the report, never silently 0 or full marks. A check that raises
is a grader bug, reported the same way; but a file of the agent's that the grader cannot write,
parse or walk (a name the filesystem refuses, a 100,000-deep expression) is the agent's failure
(evals/grade/artefact.py), or one tool call could make a failing check disappear.

Layer 1 runs first for every part (later parts depend only on earlier parts' code checks), then the
judged parts that passed go to the judge together, so a trial's judge calls can overlap.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from evals.core.errors import InfrastructureError
from evals.grade.artefact import AgentArtefactError
from evals.grade.checks.collateral import Collateral, collateral
from evals.grade.confine.policy import ExecutionDeferred
from evals.grade.evidence import evidence_hash, prepare
from evals.grade.judge import Judge, Judgement, JudgePrompt, JudgeRequest, load_prompt
from evals.grade.passrule import trial_pass
from evals.grade.registry import CheckResult, GradeContext, Registry
from evals.grade.result import CheckOutcome, PartGrade, PartStatus, TrialGrade
from evals.grade.rubric import Part, Rubric
from evals.grade.task import Task
from evals.world.outcome import Outcome

EXCERPT = 600


def _run_check(registry: Registry, ctx: GradeContext, name: str, params: dict[str, Any]) -> CheckOutcome:
    try:
        result: CheckResult = registry.checks[name](ctx, **params)
    except ExecutionDeferred as exc:  # agent code may not run in this job: decided where it may
        return CheckOutcome(check=name, passed=False, detail=f"deferred: {exc}", deferred=True)
    except InfrastructureError:  # the machine cannot confine agent code as required: no grade at all
        raise
    except AgentArtefactError as exc:  # the agent's files cannot be read, written or run: its failure
        return CheckOutcome(check=name, passed=False, detail=f"the agent's files: {exc}")
    except Exception as exc:  # a grader bug must not look like an agent failure
        return CheckOutcome(
            check=name,
            passed=False,
            detail=f"grader error: {type(exc).__name__}: {exc}",
            grader_error=True,
        )
    return CheckOutcome(
        check=name, passed=result.passed, detail=result.detail, evidence=result.evidence[:EXCERPT]
    )


@dataclass(frozen=True)
class Pending:
    """A judged part whose layer 1 passed: everything but the verdict."""

    base: dict[str, Any]
    checks: list[CheckOutcome]
    request: JudgeRequest
    evidence: str

    def resolve(self, verdict: Judgement) -> PartGrade:
        common: dict[str, Any] = {
            **self.base,
            "layer": 2,
            "checks": self.checks,
            "judge": verdict,
            "evidence_sha256": self.request.evidence_sha,
            "evidence_excerpt": self.evidence[:EXCERPT],
        }
        if verdict.status != "scored" or verdict.score is None:
            return PartGrade(
                **common, score=None, status="unscored", reason=f"judge {verdict.status}: {verdict.critique}"
            )
        status: PartStatus = "passed" if verdict.score == self.request.points else "failed"
        return PartGrade(**common, score=verdict.score, status=status, reason=verdict.critique)


Staged = PartGrade | Pending


def _layer_one(
    ctx: GradeContext,
    criterion: str,
    category: str,
    part: Part,
    earlier: dict[str, Staged],
    prompts: dict[str, JudgePrompt],
    scenario_dir: Path,
    registry: Registry,
) -> Staged:
    base: dict[str, Any] = {
        "id": part.id,
        "criterion": criterion,
        "category": category,
        "max_points": part.points,
    }
    for required in part.requires:
        prior = earlier[required]
        if isinstance(prior, Pending) or prior.layer != 1:
            continue  # its code checks passed; only layer 1 gates later parts
        if prior.status == "failed":
            reason = f"not done: requires {required}, which failed: {prior.reason}"
            return PartGrade(**base, score=0, status="failed", layer=1, reason=reason, not_done=True)
        if prior.status == "unscored":
            return PartGrade(
                **base, score=None, status="unscored", layer=1, reason=f"requires {required}: {prior.reason}"
            )
    outcomes = [_run_check(registry, ctx, ref.check, dict(ref.params)) for ref in part.checks]
    errors = [c for c in outcomes if c.grader_error]
    if errors:
        return PartGrade(
            **base, score=None, status="unscored", layer=1, reason=errors[0].detail, checks=outcomes
        )
    failed = [c for c in outcomes if not c.passed and not c.deferred]
    deferred = [c for c in outcomes if c.deferred]
    if deferred and not failed:
        reason = f"{deferred[0].check}: executes the agent's code, so it is graded where no secret is"
        return PartGrade(**base, score=None, status="unscored", layer=1, reason=reason, checks=outcomes)
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
        raw = registry.evidence[part.judge.evidence](ctx, **dict(part.judge.params))
    except Exception as exc:
        return PartGrade(
            **base,
            score=None,
            status="unscored",
            layer=2,
            checks=outcomes,
            reason=f"grader error collecting evidence: {type(exc).__name__}: {exc}",
        )
    if part.judge.prompt not in prompts:
        prompts[part.judge.prompt] = load_prompt(
            scenario_dir / part.judge.prompt,
            f"{scenario_dir.name}/{part.judge.prompt}",
            ctx.scenario.instance.render,
        )
    prompt = prompts[part.judge.prompt]
    text = prepare(raw, ctx.outcome)
    request = JudgeRequest(
        part=part.id,
        points=part.points,
        prompt=prompt,
        text=prompt.render(part=part.id, description=part.description, points=part.points, evidence=text),
        evidence_sha=evidence_hash(text, ctx.scenario.instance),
    )
    return Pending(base=base, checks=outcomes, request=request, evidence=text)


def layer_one(outcome: Outcome, task: Task) -> dict[str, Staged]:
    """Every part through its code checks, in rubric order; judged parts that passed come back Pending.

    Split from the judging so a trial's judge calls can run together, and so `calibrate` can collect
    exactly the (part, evidence) pairs the judge would be asked about.
    """
    ctx = GradeContext(outcome=outcome, scenario=task.scenario)
    prompts: dict[str, JudgePrompt] = {}
    staged: dict[str, Staged] = {}
    for criterion, part in task.rubric.parts():
        staged[part.id] = _layer_one(
            ctx, criterion.id, criterion.category, part, staged, prompts, task.folder, task.rubric.registry
        )
    return staged


def _sum(values: list[float | None]) -> float | None:
    scored = [v for v in values if v is not None]
    return sum(scored) if scored else None


def grade(outcome: Outcome, task: Task, judge: Judge) -> TrialGrade:
    """The trial's grade for `task`: layer 1 for every part, then one batch to `judge` for the
    judged parts that passed it."""
    staged = layer_one(outcome, task)
    pending = [s for s in staged.values() if isinstance(s, Pending)]
    verdicts = dict(
        zip((p.request.part for p in pending), judge.decide_all([p.request for p in pending]), strict=True)
    )
    parts: dict[str, PartGrade] = {
        pid: s.resolve(verdicts[pid]) if isinstance(s, Pending) else s for pid, s in staged.items()
    }
    return assemble(task.name, outcome.trial, task.rubric, parts, world_collateral(outcome, task))


def world_collateral(outcome: Outcome, task: Task) -> Collateral:
    """What the agent changed outside the task's write set: the suite-wide invariant, decided here for
    every task rather than by a rubric part (evals/grade/checks/collateral.py)."""
    ctx = GradeContext(outcome=outcome, scenario=task.scenario)
    try:
        return collateral(outcome, ctx.seeded, task.scenario)
    except AgentArtefactError as exc:  # a file of the agent's the grader cannot handle: its failure
        return Collateral(changes=[f"the agent's files: {exc}"])


def assemble(
    scenario: str, trial: int, rubric: Rubric, parts: dict[str, PartGrade], found: Collateral | None = None
) -> TrialGrade:
    """A trial's grade from its parts' grades, in rubric order, and what changed outside the write set:
    totals, criteria, categories, pass."""
    found = found or Collateral()
    grades = list(parts.values())
    total = sum(p.score for p in grades if p.score is not None)
    unscored = [p.id for p in grades if p.score is None]
    max_scored = sum(p.max_points for p in grades if p.score is not None)
    passed, violations = trial_pass(rubric, grades, found.changes, found.pending)
    return TrialGrade(
        scenario=scenario,
        trial=trial,
        parts=grades,
        total=total,
        max_scored=max_scored,
        unscored=unscored,
        criteria={c.id: _sum([parts[p.id].score for p in c.parts]) for c in rubric.criteria},
        categories={cat: _sum([g.score for g in grades if g.category == cat]) for cat in rubric.categories},
        passed=passed,
        violations=violations,
        collateral=found.changes,
        collateral_pending=found.pending,
    )
