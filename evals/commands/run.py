"""`run`: run the agent k times per scenario, grade, compare with the baseline, report."""

from __future__ import annotations

import argparse
from pathlib import Path

from evals.commands.common import add_config, add_scenarios
from evals.core.errors import BadInputError, ExitCode
from evals.core.project import load_project


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = sub.add_parser(
        "run",
        help="run the agent k times per scenario, grade, compare, report",
        description="Run the agent k times per scenario, grade, compare with the baseline, report. Exit 0 "
        "pass or inconclusive, 1 regression, 2 bad input, 3 infrastructure error (also: more than "
        "`max_error_share` = {evals.yaml:max_error_share} of a scenario's trials errored, or run data "
        "that cannot carry a verdict), 4 not comparable; 130 or 143 interrupted.",
    )
    add_config(parser)
    add_scenarios(parser)
    _add_plan(parser)
    _add_where(parser)
    parser.set_defaults(handler=handle)


def _add_plan(parser: argparse.ArgumentParser) -> None:
    """What runs: the suite, the agent, how many trials, against which baseline, how fast, how dear."""
    parser.add_argument(
        "--suite",
        metavar="NAME",
        help="run this suite of evals.yaml `suites:` instead (e.g. full); not with --scenario",
    )
    parser.add_argument(
        "--agent",
        help="auto | claude | replay:NAME | package.module:callable (default: {evals.yaml:agent}; auto is "
        "claude when ANTHROPIC_API_KEY is set, else the scenario's offline replays)",
    )
    parser.add_argument(
        "--trials",
        type=int,
        metavar="K",
        help="trials every scenario starts with (default: {evals.yaml:trials}); by default a scenario quiet "
        "in the baseline starts at one; when a drop is within the noise the gate adds trials, up to "
        "gate.max_trials = {evals.yaml:gate.max_trials}, before deciding",
    )
    parser.add_argument(
        "--baseline", type=Path, metavar="PATH", help="baseline file (default: {evals.yaml:baseline})"
    )
    parser.add_argument(
        "--concurrency",
        type=int,
        metavar="N",
        help="trials running at once (default: {evals.yaml:concurrency})",
    )
    parser.add_argument("--world", default="sandbox", help="where trials run: sandbox (default) or live")
    parser.add_argument(
        "--budget-usd", type=float, metavar="USD", help="most this run may spend, agent + judge (budget.usd)"
    )
    parser.add_argument(
        "--instance-seed",
        type=int,
        metavar="N",
        help="run instance N of every parameterised task (values drawn from N; recorded in run.json); "
        "default: the fixed instance 0 that PRs and the committed baseline use",
    )


def _add_where(parser: argparse.ArgumentParser) -> None:
    """Where it runs: a new run directory, one shard of the trials, or an interrupted run finished."""
    parser.add_argument(
        "--out",
        type=Path,
        metavar="DIR",
        help="a new run directory (default: {evals.yaml:runs_dir}/<UTC time>-<suite or scenario>, made "
        "unique)",
    )
    parser.add_argument("--trial-slice", metavar="I/N", help="run only slice I of N (0-based) of the trials")
    parser.add_argument(
        "--resume",
        type=Path,
        metavar="DIR",
        help="finish an interrupted run (an existing run directory): run only its missing or errored "
        "trials, with its own settings",
    )
    parser.add_argument(
        "--continue",
        dest="continue_run",
        type=Path,
        metavar="DIR",
        help="continue an inconclusive run: more trials in the same run and the same sequential test "
        "(up to gate.max_trials more per scenario; a regression only past gate.interim_confidence), "
        "with --budget-usd (default budget.usd) more to spend; never a fresh start",
    )


def handle(args: argparse.Namespace) -> ExitCode:
    from evals.run.runner import new_run_dir, plan
    from evals.run.session import start

    if args.concurrency is not None and args.concurrency < 1:
        raise BadInputError("--concurrency must be at least 1")
    if args.resume is not None or args.continue_run is not None:
        return resume(args)
    config, project = load_project(args.config)
    if args.suite is not None and args.scenario:
        raise BadInputError("--suite and --scenario: name one or the other")
    p = plan(
        project,
        config,
        scenarios=config.suite_named(args.suite) if args.suite is not None else args.scenario,
        agent=args.agent,
        trials=args.trials,
        baseline=args.baseline,
        concurrency=args.concurrency,
        world=args.world,
        budget_usd=args.budget_usd,
        instance_seed=args.instance_seed,
    )
    return start(p, args.out or new_run_dir(project, config, list(p.scenarios)), args.trial_slice)


def resume(args: argparse.Namespace) -> ExitCode:
    """`--resume DIR` and `--continue DIR` take the run's own settings: any flag that would change
    them is refused (`--continue` takes a `--budget-usd` for what it may spend more)."""
    from evals.records.rundir import RunDir
    from evals.run import session

    given = {
        "--scenario": args.scenario,
        "--suite": args.suite,
        "--agent": args.agent,
        "--trials": args.trials,
        "--out": args.out,
        "--instance-seed": args.instance_seed,
    }
    clashing = [flag for flag, value in given.items() if value is not None]
    if args.trial_slice:
        clashing.append("--trial-slice")
    flag = "--resume" if args.continue_run is None else "--continue"
    if args.resume is not None and args.continue_run is not None:
        clashing.append("--resume")
    if args.budget_usd is not None and args.continue_run is None:
        clashing.append("--budget-usd")
    if clashing:
        raise BadInputError(f"{flag} reuses the run's own settings; drop {', '.join(clashing)}")
    config, project = load_project(args.config)
    if args.continue_run is not None:
        if args.budget_usd is not None and args.budget_usd <= 0:
            raise BadInputError("--budget-usd must be more than 0")
        return session.continue_run(
            RunDir(args.continue_run), project, config, args.baseline, args.concurrency, args.budget_usd
        )
    return session.resume(RunDir(args.resume), project, config, args.baseline, args.concurrency)
