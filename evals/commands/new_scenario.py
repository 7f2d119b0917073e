"""`new-scenario NAME` (formerly `new-task`): scaffold a scenario folder that loads, so
`check-scenario NAME` can say what is missing (evals/authoring/scaffold.py)."""

from __future__ import annotations

import argparse

from evals.commands.common import add_config
from evals.core.errors import ExitCode
from evals.core.project import load_project


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = sub.add_parser(
        "new-scenario",
        aliases=["new-task"],
        help="scaffold a scenario folder under the scenarios directory",
        description=__doc__,
    )
    add_config(parser)
    parser.add_argument("name", help="folder name: lower-case words joined by hyphens")
    parser.add_argument(
        "--tier",
        choices=["L1", "L2", "L3"],
        default="L1",
        help="the scenario's tier (default L1: one service)",
    )
    parser.set_defaults(handler=handle)


def handle(args: argparse.Namespace) -> ExitCode:
    from evals.authoring.scaffold import scaffold

    config, project = load_project(args.config)
    folder = scaffold(project / config.scenarios_dir, args.name, args.tier)
    print(f"created {folder}:")
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        print(f"  {path.relative_to(folder).as_posix()}")
    print(f"next: python -m evals check-scenario {args.name}  (it says what is missing)")
    return ExitCode.PASS
