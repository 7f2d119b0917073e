"""Grade a stored run again from its outcomes, without running the agent again (`evals grade`).

A changed check or judge prompt is tried on the trials a run already has: each graded trial's
outcome is graded by this definition, and results.jsonl is rewritten at once (atomically) with the
new grades, one line per trial as always: a duplicate line is never a newer grade, it is an error
(evals/records/validate.py). The records are validated before anything is graded again.
"""

from __future__ import annotations

from evals.core.errors import BadInputError
from evals.definition import EvalDefinition
from evals.grade.grader import grade
from evals.grade.judge.cost import judge_cost
from evals.records.model import RunMeta, TrialRecord
from evals.records.rundir import RunDir
from evals.run.finish import checked_records
from evals.world.outcome import Outcome


def regrade(definition: EvalDefinition, rd: RunDir, meta: RunMeta) -> int:
    """Re-grade every finished trial of the run in place; return how many were graded."""
    count = 0
    records: list[TrialRecord] = []
    for record in checked_records(definition, rd, meta):
        if record.status != "ok":
            records.append(record)
            continue
        loaded = definition.scenarios[record.scenario]
        snap = rd.read_trial(record.scenario, record.trial, "outcome", Outcome)
        if snap is None:
            where = rd.trial_file(record.scenario, record.trial, "outcome")
            raise BadInputError(
                f"{where}: missing; cannot re-grade trial {record.trial} (copy the whole run directory, "
                "or run the trial again with `evals run --resume`)"
            )
        graded = grade(snap, loaded, loaded.judge)
        rd.write_trial(record.scenario, record.trial, "grade", graded.model_dump(mode="json"))
        judged = judge_cost(graded, definition.pricing).model_dump()
        metrics = record.metrics.model_copy(update=judged)
        records.append(record.model_copy(update={"grade": graded, "metrics": metrics}))
        count += 1
    rd.write_records(records)
    return count
