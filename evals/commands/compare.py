"""`compare`: compare a stored run with a baseline and rewrite its summary and report."""

from __future__ import annotations

import argparse
from pathlib import Path

from evals.commands.common import add_config, add_run
from evals.core.errors import ExitCode
from evals.core.project import load_project


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = sub.add_parser("compare", help="compare a stored run with the baseline and rewrite its report")
    add_config(parser)
    add_run(parser)
    parser.add_argument(
        "--baseline", type=Path, metavar="PATH", help="baseline file (default: {evals.yaml:baseline})"
    )
    parser.set_defaults(handler=handle)


def handle(args: argparse.Namespace) -> ExitCode:
    from evals.records.rundir import RunDir
    from evals.run.finish import finish, reopen

    config, project = load_project(args.config)
    rd = RunDir(args.run)
    definition, meta = reopen(rd, config, project, args.baseline)
    return finish(definition, rd, meta)
