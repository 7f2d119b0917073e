"""`check-scenario NAME` (formerly `check-task`): validate a scenario folder and grade its replays
offline (evals/authoring/check.py). Exit 0 when it works; 2 when a replay does not grade as it
declares, or a file is wrong: the scenario is bad input (1 is reserved for an agent's regression)."""

from __future__ import annotations

import argparse

from evals.commands.common import add_config
from evals.core.errors import ExitCode
from evals.core.project import load_project


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = sub.add_parser(
        "check-scenario",
        aliases=["check-task"],
        help="validate a scenario folder and grade its reference and wrong replays offline",
        description=__doc__,
    )
    add_config(parser)
    parser.add_argument("name", help="the scenario, as `evals scenarios` lists it")
    parser.add_argument(
        "--instance-seed",
        type=int,
        metavar="N",
        help="check instance N of a parameterised scenario (default: the fixed instance 0)",
    )
    parser.set_defaults(handler=handle)


def handle(args: argparse.Namespace) -> ExitCode:
    from evals.authoring.check import check_scenario

    config, project = load_project(args.config)
    report = check_scenario(project, config, args.name, args.instance_seed)
    for line in report.lines:
        print(line)
    if report.problems:
        print(f"\n{args.name}: {len(report.problems)} problem(s)")
        for problem in report.problems:
            print(f"  - {problem}")
        return ExitCode.BAD_INPUT
    print(f"\n{args.name}: ok")
    return ExitCode.PASS
