"""`grade`: re-grade a stored run from its saved outcomes, without re-running the agent."""

from __future__ import annotations

import argparse
from pathlib import Path

from evals.commands.common import add_config, finish, plan_for_run
from evals.errors import BadInputError, ExitCode
from evals.grade import grade
from evals.outcome import Outcome
from evals.rundir import RunDir


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = sub.add_parser("grade", help="re-grade a stored run without re-running the agent")
    add_config(parser)
    parser.add_argument("--run", type=Path, required=True, help="run directory")
    parser.add_argument("--baseline", type=Path)
    parser.set_defaults(handler=handle)


def handle(args: argparse.Namespace) -> ExitCode:
    rd = RunDir(args.run)
    p, meta = plan_for_run(args, rd)
    for record in rd.results():
        if record["status"] != "ok":
            continue
        ls = p.scenarios[record["scenario"]]
        tdir = rd.trial_dir(record["scenario"], record["trial"])
        path = tdir / "outcome.json"
        if not path.is_file():
            raise BadInputError(f"{path}: missing; cannot re-grade trial {record['trial']}")
        snap = Outcome.model_validate_json(path.read_text(encoding="utf-8"))
        graded = grade(snap, ls.scenario, ls.rubric, ls.judge, ls.folder)
        rd.write_json(tdir.relative_to(rd.path) / "grade.json", graded.model_dump(mode="json"))
        rd.append_result({**record, "grade": graded.model_dump(mode="json")})
    return finish(p, rd, meta)
