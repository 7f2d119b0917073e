"""`judge agreement`: the judge against the labelled set, with intervals (evals/authoring/judge_agreement.py).

Only the parser lives here: the measurement pulls in the grader, the judge and the sandbox world,
which `evals --help` should not wait for.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from evals.commands.common import add_config, add_scenarios
from evals.core.errors import ExitCode


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = sub.add_parser("judge", help="how far the judge agrees with people, and its drift alarm")
    inner = parser.add_subparsers(dest="judge_command", required=True)
    agree = inner.add_parser(
        "agreement",
        help="per-criterion agreement with the labelled set: raw beside a constant judge, κ and AC1 with "
        "intervals (re-judges the replays' labelled evidence through the cache, or reads --run's verdicts)",
    )
    add_config(agree)
    add_scenarios(agree)
    agree.add_argument(
        "--run", type=Path, metavar="DIR", help="measure the verdicts this run stored (no model call)"
    )
    agree.add_argument(
        "--record",
        nargs="?",
        const=True,
        default=None,
        metavar="FILE",
        help="append the measurement and its drift alarms to FILE (default: judge.jsonl next to "
        "{evals.yaml:baseline}); the report's judge line and `baseline bless` read it",
    )
    agree.set_defaults(handler=handle_agreement)


def handle_agreement(args: argparse.Namespace) -> ExitCode:
    from evals.authoring.judge_agreement import agreement, default_record
    from evals.core.project import load_project

    config, project = load_project(args.config)
    record: Path | None = None
    if args.record is True:
        record = default_record(config, project)
    elif args.record is not None:
        record = Path(args.record)
    return agreement(config, project, args.scenario, args.run, record)
