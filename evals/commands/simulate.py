"""`simulate gate`: the gate rule's false alarms, detection (1.5-, 3-, 5-point drops, a falling guard
with and without its history), trials and cost per verdict on synthetic scores, at the configured
settings. `simulate suite`: the same on the committed suites' measured shape, trials allocated by
measured noise. Both say how the gate *would* behave on modelled scores; `bench speed` (bench/) is
how fast this checkout is, and baseline/operating.jsonl how the gate *did* on the real agent.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from dataclasses import replace

from evals.commands.common import add_config
from evals.core.errors import BadInputError, ExitCode
from evals.core.project import load_project

Handler = Callable[[argparse.Namespace], ExitCode]
SHAPES = ["smoke", "full", "every-task-noisy", "realistic"]


def add_simulation(parser: argparse.ArgumentParser, runs: int) -> None:
    """The options every simulation shares: the config, how many PRs per case, the random seed."""
    add_config(parser)
    parser.add_argument("--runs", type=int, default=runs, help=f"simulated PRs per case (default {runs})")
    parser.add_argument("--seed", type=int, default=0, help="random seed of the simulation (default 0)")


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = sub.add_parser("simulate", help="how the configured gate behaves on simulated scores")
    inner = parser.add_subparsers(dest="simulate_command", required=True)
    add_simulations(inner)


def deprecated(old: str, new: str, handler: Handler) -> Handler:
    """`handler`, saying first on stderr that `old` is now spelt `new` (scripts that call the old
    spelling keep working)."""

    def run(args: argparse.Namespace) -> ExitCode:
        print(f"evals: `{old}` is deprecated, use `{new}`", file=sys.stderr)
        return handler(args)

    return run


def add_simulations(inner: argparse._SubParsersAction, old: str | None = None) -> None:  # type: ignore[type-arg]
    """`gate` and `suite` under `inner`; with `old` (the deprecated `bench` spelling), each says so."""

    def handler(name: str, fn: Handler) -> Handler:
        return fn if old is None else deprecated(f"evals {old} {name}", f"evals simulate {name}", fn)

    note = "" if old is None else " (deprecated: evals simulate {})"
    gate = inner.add_parser(
        "gate",
        help="false alarms, detection, guard detection, trials and cost of the configured gate (synthetic)"
        + note.format("gate"),
    )
    add_simulation(gate, runs=2000)
    # Defaults of the simulated task live in evals.gate.simulate.SimulatedTask (imported only when running:
    # scipy is slow to import and `evals --help` should not wait for it); the help repeats them.
    gate.add_argument(
        "--baseline-trials", type=int, help="trials of each simulated baseline (default 6, the nightly's k)"
    )
    gate.add_argument(
        "--start-trials", type=int, help="k a PR run starts with (default: {evals.yaml:trials})"
    )
    gate.add_argument("--sd", type=float, help="σ of a trial's total (default 2)")
    gate.add_argument("--guards", type=int, help="guard parts passing 95%% of the time (default 2)")
    gate.add_argument(
        "--guard-history-trials",
        type=int,
        help="trials in each guard's history, its baseline side (default: what blesses of "
        "--baseline-trials trials fill of gate.guard_history_trials = "
        "{evals.yaml:gate.guard_history_trials})",
    )
    gate.add_argument(
        "--cost-per-trial",
        type=float,
        help="USD per trial, agent and judge, for the cost per verdict (default 1)",
    )
    gate.set_defaults(handler=handler("gate", handle_gate))
    suite = inner.add_parser(
        "suite",
        help="the gate on the committed smoke and full suites, trials allocated by measured noise"
        + note.format("suite"),
    )
    add_simulation(suite, runs=500)
    suite.add_argument(
        "--start-trials", type=int, help="k a noisy task starts with (default: {evals.yaml:trials})"
    )
    suite.add_argument(
        "--suite",
        action="append",
        choices=SHAPES,
        help="which shape to simulate (repeatable; default all four): the committed smoke or full suite "
        "as measured, every task noisy (the #18 stress shape), or realistic (the full suite with half "
        "its tasks noisy at a live-like spread)",
    )
    suite.add_argument(
        "--no-allocate",
        action="store_true",
        help="every task starts at k and is topped up at every look (the rule before #30), for comparison",
    )
    suite.add_argument(
        "--quiet-rate",
        type=float,
        help="a what-if: every quiet task of the committed suites passes each point at this chance in "
        "truth (0.9: quiet in its baseline only by luck); default as measured",
    )
    suite.add_argument(
        "--history",
        type=int,
        default=0,
        help="trials of nightly history drawn beside each baseline (what allocation reads; default 0, "
        "as committed: no baseline/history.jsonl)",
    )
    suite.add_argument(
        "--every-task-noisy",
        action="store_true",
        help="the same as --suite every-task-noisy: 24 tasks, each point passing 75%% of the time",
    )
    suite.set_defaults(handler=handler("suite", handle_suite))


def need_numpy() -> None:
    """The simulations draw their scores with numpy, which running evals does not need: it comes
    with the test tools (requirements-dev.txt), not the runtime (requirements.txt)."""
    import importlib.util

    if importlib.util.find_spec("numpy") is None:
        raise BadInputError(
            "evals simulate gate|suite needs numpy, which the runtime install leaves out: "
            "`make test` (or `pip install -r requirements-dev.txt`) installs it"
        )


def handle_gate(args: argparse.Namespace) -> ExitCode:
    """Exit 0 when every goal holds, 1 when one is missed (so CI can run it as a check)."""
    need_numpy()
    from evals.gate.simulate import SimulatedTask, format_result, run_bench

    config, _ = load_project(args.config)
    given = {
        "sd": args.sd,
        "baseline_trials": args.baseline_trials,
        "guards": args.guards,
        "cost_per_trial": args.cost_per_trial,
        "guard_history_trials": args.guard_history_trials,
    }
    scenario = SimulatedTask(
        **{k: v for k, v in given.items() if v is not None}, start_trials=args.start_trials or config.trials
    )
    if args.runs < 1 or scenario.baseline_trials < 1 or scenario.start_trials < 1:
        raise BadInputError("--runs, --baseline-trials and --start-trials must be at least 1")
    if scenario.guards < 0 or scenario.cost_per_trial < 0 or (args.guard_history_trials or 0) < 0:
        raise BadInputError("--guards, --cost-per-trial and --guard-history-trials cannot be negative")
    result = run_bench(scenario, config.threshold, config.gate, runs=args.runs, seed=args.seed)
    print(format_result(result, config.threshold, config.gate))
    return ExitCode.PASS if result.meets_goals else ExitCode.REGRESSION


def handle_suite(args: argparse.Namespace) -> ExitCode:
    """Exit 0 when every simulated suite meets every goal it prints (false alarms, detection, model
    calls per verdict), 1 when one is missed, as `simulate gate` does: a missed goal is the gate's own
    regression."""
    need_numpy()
    from evals.gate.simulate_suite import (
        CALLS_GOAL,
        format_suite,
        realistic_suite,
        run_suite_bench,
        suite_goals,
        suite_shape,
        tiered_suite,
    )

    config, root = load_project(args.config)
    start = config.trials if args.start_trials is None else args.start_trials
    if args.quiet_rate is not None and not 0 < args.quiet_rate <= 1:
        raise BadInputError("--quiet-rate must be in (0, 1]")
    if args.runs < 1 or start < 1:
        raise BadInputError("--runs and --start-trials must be at least 1")
    names = list(args.suite or ([] if args.every_task_noisy else SHAPES))
    if args.every_task_noisy and "every-task-noisy" not in names:
        names.append("every-task-noisy")
    met = True
    for name in names:
        committed = name if name in ("smoke", "full") else "full"
        if committed not in config.suites:
            raise BadInputError(f"--suite {name}: evals.yaml has no suite named {committed}")
        if name == "every-task-noisy":
            shape = tiered_suite()
        elif name == "realistic":
            shape = realistic_suite(suite_shape(root, config, config.suites[committed]))
        else:
            shape = suite_shape(root, config, config.suites[name])
            if args.quiet_rate is not None:
                shape = [replace(t, mean=args.quiet_rate * t.points) if t.quiet else t for t in shape]
        outcomes = run_suite_bench(
            config.gate,
            config.threshold,
            shape,
            runs=args.runs,
            seed=args.seed,
            start_trials=start,
            allocate=not args.no_allocate,
            history=args.history,
        )
        rule = "every task at k" if args.no_allocate else "trials by measured noise"
        allowed = config.threshold.allowed_drop(sum(t.points for t in shape))
        if args.history:
            rule += f", {args.history} history trials"
        if args.quiet_rate is not None and name in ("smoke", "full"):
            rule += f", quiet tasks at {args.quiet_rate:g} a point in truth"
        label = (
            f"{name} ({rule}; {args.runs} PRs per case, seed {args.seed}, noisy tasks start at ≤ {start}; "
            f"allowed drop {allowed:g} of the suite's points, evals.yaml's threshold)"
        )
        goal = CALLS_GOAL.get(name)
        print(format_suite(label, shape, outcomes, goal))
        met = met and all(suite_goals(outcomes, goal).values())
    return ExitCode.PASS if met else ExitCode.REGRESSION
