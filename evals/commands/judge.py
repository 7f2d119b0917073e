"""`judge agreement`: the judge against the labelled set, with intervals (evals/authoring/judge_agreement.py).

Only the parser lives here: the measurement pulls in the grader, the judge and the sandbox world,
which `evals --help` should not wait for.
"""

from __future__ import annotations

import argparse
from datetime import date
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
    source = agree.add_mutually_exclusive_group()
    source.add_argument(
        "--run", type=Path, metavar="DIR", help="measure the verdicts this run stored (no model call)"
    )
    source.add_argument(
        "--prompts-from",
        type=Path,
        metavar="HEAD",
        help="a PR head checked out as data: measure only the judge prompts it edits, with its text "
        "(the rest stays this checkout's; recorded as the PR's measurement, which the report's judge "
        "line shows and bless never accepts)",
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
    window = agree.add_mutually_exclusive_group()
    window.add_argument(
        "--days",
        type=_positive,
        default=90,
        metavar="N",
        help="count the labels of the newest N days by label date (default 90; undated labels.yaml "
        "labels always count)",
    )
    window.add_argument("--all-labels", action="store_true", help="count every label, however old")
    agree.add_argument(
        "--as-of",
        type=_day,
        metavar="YYYY-MM-DD",
        help="end the window on this day (default: the newest dated label's); later labels are not counted",
    )
    agree.set_defaults(handler=handle_agreement)


def _positive(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"{text!r}: a whole number of days, at least 1")
    return int(text)


def _day(text: str) -> date:
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: a day as YYYY-MM-DD") from None


def handle_agreement(args: argparse.Namespace) -> ExitCode:
    from evals.authoring.judge_agreement import agreement, default_record
    from evals.core.project import load_project

    config, project = load_project(args.config)
    record: Path | None = None
    if args.record is True:
        record = default_record(config, project)
    elif args.record is not None:
        record = Path(args.record)
    days = None if args.all_labels else args.days
    return agreement(
        config,
        project,
        args.scenario,
        args.run,
        record,
        days=days,
        as_of=args.as_of,
        prompts_from=args.prompts_from,
    )
