"""`grade`: re-grade a stored run from its saved outcomes, without re-running the agent.

Each re-graded trial's judge tokens and cost are recomputed from the new grade: what this re-grade
paid (0 when every verdict came from the cache or the labels), not what the original run paid.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from evals.commands.common import add_config, add_run
from evals.errors import ExitCode


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = sub.add_parser("grade", help="re-grade a stored run without re-running the agent")
    add_config(parser)
    add_run(parser)
    parser.add_argument(
        "--baseline", type=Path, metavar="PATH", help="baseline file (default: {evals.yaml:baseline})"
    )
    parser.set_defaults(handler=handle)


def handle(args: argparse.Namespace) -> ExitCode:
    from evals.commands.finish import definition_for_run, finish
    from evals.errors import BadInputError
    from evals.grade.grader import grade
    from evals.grade.judge.cost import judge_cost
    from evals.outcome import Outcome
    from evals.records import read_records
    from evals.rundir import RunDir

    rd = RunDir(args.run)
    definition, meta = definition_for_run(args, rd, with_judge=True)
    for record in read_records(rd.results_path):
        if record.status != "ok":
            continue
        ls = definition.scenarios[record.scenario]
        tdir = rd.trial_dir(record.scenario, record.trial)
        path = tdir / "outcome.json"
        if not path.is_file():
            raise BadInputError(
                f"{path}: missing; cannot re-grade trial {record.trial} (copy the whole run directory, "
                "or run the trial again with `evals run --resume`)"
            )
        snap = Outcome.model_validate_json(path.read_text(encoding="utf-8"))
        graded = grade(snap, ls.scenario, ls.rubric, ls.judge, ls.folder)
        rd.write_json(tdir.relative_to(rd.path) / "grade.json", graded.model_dump(mode="json"))
        judged = judge_cost(graded, definition.pricing).model_dump()
        regraded = record.model_copy(
            update={"grade": graded, "metrics": record.metrics.model_copy(update=judged)}
        )
        rd.append_result(regraded.model_dump(mode="json"))
    return finish(definition, rd, meta)
