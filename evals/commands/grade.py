"""`grade`: re-grade a stored run from its saved outcomes, without re-running the agent.

Each re-graded trial's judge tokens and cost are recomputed from the new grade: what this re-grade
paid (0 when every verdict came from the cache or the labels), not what the original run paid.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from evals.commands.common import add_config, add_run
from evals.core.errors import ExitCode
from evals.core.project import load_project


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = sub.add_parser("grade", help="re-grade a stored run without re-running the agent")
    add_config(parser)
    add_run(parser)
    parser.add_argument(
        "--baseline", type=Path, metavar="PATH", help="baseline file (default: {evals.yaml:baseline})"
    )
    parser.set_defaults(handler=handle)


def handle(args: argparse.Namespace) -> ExitCode:
    from evals.records.rundir import RunDir
    from evals.run.finish import finish, reopen
    from evals.run.regrade import regrade

    config, project = load_project(args.config)
    rd = RunDir(args.run)
    definition, meta = reopen(rd, config, project, args.baseline, with_judge=True)
    regrade(definition, rd, meta)
    return finish(definition, rd, meta)
