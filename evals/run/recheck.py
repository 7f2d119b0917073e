"""Layer 1 again, where no secret is: the verdict believes only what it can check.

The job that holds the model key runs the agent and grades what executes nothing; every check that
would execute the agent's code is deferred there (EVALS_DEFER_EXECUTION, evals/grade/confine/
policy.py) and its part left unscored. The jobs without secrets that read the run (the PR's
verdict job, the nightly's merge) call `recheck` on every graded trial: layer 1 is computed again
from the stored outcome by this checkout's definition, executing checks inside the confinement, and
the result replaces the record's layer 1. What the record said must agree wherever it could know:
every check it ran (not deferred) must have the same result here, and a judged part's verdict is
kept only when its layer 1 passes here and the evidence the judge saw has the hash it has here.
Anything else (a missing outcome, a part the rubric lacks, a disagreement, a judge score out of
range) is bad input, so the verdict is `error`, never a pass.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from evals.core.config import Config
from evals.core.errors import BadInputError
from evals.definition import EvalDefinition
from evals.grade.grader import Pending, Staged, assemble, layer_one, world_collateral
from evals.grade.result import PartGrade
from evals.records.model import TrialRecord
from evals.records.rundir import RunDir
from evals.run.finish import reopen
from evals.world.outcome import Outcome


def _agrees(where: str, stored: PartGrade, staged: Staged) -> None:
    """Every check the record ran has the result it has here (deferred ones were not run there)."""
    here = staged.checks
    if not stored.checks or not here:
        return  # one side never ran the part's checks (a required part failed or was deferred)
    if [c.check for c in stored.checks] != [c.check for c in here]:
        raise BadInputError(f"{where}: the record's checks are not the rubric's")
    for old, new in zip(stored.checks, here, strict=True):
        if old.deferred:
            continue
        if new.deferred:
            raise BadInputError(f"{where}: {new.check} could not run here (EVALS_DEFER_EXECUTION is set)")
        if old.passed != new.passed or old.grader_error != new.grader_error:
            raise BadInputError(
                f"{where}: the record says {old.check} {'passed' if old.passed else 'failed'}, but on the "
                f"stored outcome it {'passes' if new.passed else 'fails'}"
            )


def _judged(where: str, stored: PartGrade, pending: Pending) -> PartGrade:
    """A judged part whose layer 1 passes here: the record's verdict, if the judge saw this evidence."""
    if stored.judge is None:
        if stored.status != "unscored":
            raise BadInputError(f"{where}: passes its code checks on the stored outcome, not in the record")
        # Never judged where the record was made: its layer 1 (or a part it requires) was deferred
        # to this job, or could not be decided there. Nothing to keep; no judge is asked here.
        return PartGrade(
            **pending.base,
            score=None,
            status="unscored",
            layer=1,
            reason="its code checks were decided only here, after the judge ran; no verdict to keep",
            checks=pending.checks,
        )
    if stored.evidence_sha256 != pending.request.evidence_sha:
        raise BadInputError(f"{where}: the judge's evidence is not the stored outcome's (hash differs)")
    verdict = stored.judge
    if verdict.status == "scored" and (
        verdict.score is None or not 0 <= verdict.score <= pending.request.points
    ):
        raise BadInputError(
            f"{where}: the judge's score {verdict.score} is outside 0..{pending.request.points}"
        )
    return pending.resolve(verdict)


def recheck_record(definition: EvalDefinition, rd: RunDir, record: TrialRecord) -> TrialRecord:
    """`record` with layer 1 computed again from its stored outcome (see the module's docstring)."""
    if record.status != "ok":
        return record
    where = f"{record.scenario}#{record.trial}"
    loaded = definition.scenarios.get(record.scenario)
    if loaded is None or record.grade is None:
        raise BadInputError(
            f"{where}: a graded trial of a scenario this run does not have, or without a grade"
        )
    outcome = rd.read_trial(record.scenario, record.trial, "outcome", Outcome)
    if outcome is None:
        raise BadInputError(
            f"{rd.trial_file(record.scenario, record.trial, 'outcome')}: missing; layer 1 cannot be checked"
        )
    if (outcome.scenario, outcome.trial) != (record.scenario, record.trial):
        raise BadInputError(f"{where}: its outcome is {outcome.scenario}#{outcome.trial}'s")
    staged = layer_one(outcome, loaded)
    stored = {p.id: p for p in record.grade.parts}
    if set(stored) != set(staged):
        raise BadInputError(f"{where}: the record's parts are not the rubric's")
    parts: dict[str, PartGrade] = {}
    for pid, here in staged.items():
        at = f"{where} part {pid}"
        _agrees(at, stored[pid], here)
        parts[pid] = _judged(at, stored[pid], here) if isinstance(here, Pending) else here
    grade = assemble(record.scenario, record.trial, loaded.rubric, parts, world_collateral(outcome, loaded))
    return record.model_copy(update={"grade": grade})


def recheck(definition: EvalDefinition, rd: RunDir, records: list[TrialRecord]) -> list[TrialRecord]:
    """Every record with layer 1 checked and completed here; BadInputError on the first disagreement."""
    return [recheck_record(definition, rd, record) for record in records]


def for_merge(
    config: Config, project: Path, baseline: Path | None
) -> Callable[[RunDir, TrialRecord], TrialRecord]:
    """`recheck_record` for `merge_runs`: the definition is loaded from the merged run.json (written
    before the first record) the first time a record needs it."""
    loaded: list[EvalDefinition] = []

    def check(rd: RunDir, record: TrialRecord) -> TrialRecord:
        if not loaded:
            loaded.append(reopen(rd, config, project, baseline)[0])
        return recheck_record(loaded[0], rd, record)

    return check
