"""`compare`: compare a stored run with a baseline and rewrite its summary and report."""

from __future__ import annotations

import argparse
from pathlib import Path

from evals.commands.common import add_config, finish, plan_for_run
from evals.errors import ExitCode
from evals.rundir import RunDir


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = sub.add_parser("compare", help="compare a stored run with the baseline and rewrite its report")
    add_config(parser)
    parser.add_argument("--run", type=Path, required=True)
    parser.add_argument("--baseline", type=Path)
    parser.set_defaults(handler=handle)


def handle(args: argparse.Namespace) -> ExitCode:
    rd = RunDir(args.run)
    p, meta = plan_for_run(args, rd)
    return finish(p, rd, meta)
