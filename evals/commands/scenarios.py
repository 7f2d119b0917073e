"""`scenarios`: list the scenarios."""

from __future__ import annotations

import argparse

from evals.commands.common import add_config, load_project
from evals.errors import ExitCode


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = sub.add_parser("scenarios", help="list the scenarios")
    add_config(parser)
    parser.set_defaults(handler=handle)


def handle(args: argparse.Namespace) -> ExitCode:
    from evals.scenario import list_scenarios

    config, project = load_project(args.config)
    for name in list_scenarios(project / config.scenarios_dir):
        print(name)
    return ExitCode.PASS
