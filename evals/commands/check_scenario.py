"""`check-scenario NAME` (formerly `check-task`): validate a scenario folder and grade its replays
offline (evals/authoring/check.py). Exit 0 when it works; 2 when a replay does not grade as it
declares, or a file is wrong: the scenario is bad input (1 is reserved for an agent's regression).
`--sweep` (or `--trials`/`--instances`) also grades the reference and every valid replay at other
trials and drawn instances (evals/authoring/sweep.py): slower, so not the default."""

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
    parser.add_argument(
        "--sweep",
        action="store_true",
        help="also grade the reference and valid replays at instance 0 and seeds 1-5, trials 0-15",
    )
    parser.add_argument("--trials", metavar="RANGE", help="sweep these trial indices (`0-15`, `0,6,12`)")
    parser.add_argument(
        "--instances",
        type=int,
        metavar="N",
        help="sweep instance 0 and drawn seeds 1..N (0: instance 0 only)",
    )
    parser.set_defaults(handler=handle)


def handle(args: argparse.Namespace) -> ExitCode:
    from evals.authoring.check import check_scenario, sweep
    from evals.authoring.sweep import DRAWN, TRIALS, parse_trials
    from evals.core.errors import BadInputError

    config, project = load_project(args.config)
    report = check_scenario(project, config, args.name, args.instance_seed)
    if args.sweep or args.trials is not None or args.instances is not None:
        try:
            trials = parse_trials(args.trials) if args.trials is not None else list(TRIALS)
        except ValueError as exc:
            raise BadInputError(f"--trials: {exc}") from exc
        drawn = DRAWN if args.instances is None else args.instances
        seeds: list[int | None] = [None, *range(1, drawn + 1)]
        report.lines.append(f"  sweep: instance 0 and {drawn} drawn, trials {args.trials or '0-15'}")
        report.problems += sweep(project, config, args.name, seeds, trials)
    for line in report.lines:
        print(line)
    if report.problems:
        print(f"\n{args.name}: {len(report.problems)} problem(s)")
        for problem in report.problems:
            print(f"  - {problem}")
        return ExitCode.BAD_INPUT
    print(f"\n{args.name}: ok")
    return ExitCode.PASS
