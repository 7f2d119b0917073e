"""`calibrate`: how often the model judge agrees with the human labels (evals/authoring/calibrate.py).

Only the parser lives here: the calibration pulls in the grader, the judge and the simulated world, which
`evals --help` should not wait for.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from evals.commands.common import add_config, add_scenarios
from evals.core.errors import ExitCode


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = sub.add_parser(
        "calibrate", help="judge-label agreement per judged part (needs ANTHROPIC_API_KEY)"
    )
    add_config(parser)
    add_scenarios(parser)
    parser.add_argument(
        "--run", type=Path, metavar="DIR", help="take evidence from this run's outcomes, not the replays"
    )
    parser.set_defaults(handler=handle)


def handle(args: argparse.Namespace) -> ExitCode:
    from evals.authoring.calibrate import calibrate
    from evals.core.project import load_project

    config, project = load_project(args.config)
    return calibrate(config, project, args.scenario, args.run)
