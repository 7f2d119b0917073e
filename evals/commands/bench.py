"""`bench gate`: measure the gate rule's false-alarm and detection rates on synthetic scores."""

from __future__ import annotations

import argparse

from evals.commands.common import add_config, load_project
from evals.errors import BadInputError, ExitCode


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = sub.add_parser("bench", help="simulation benchmarks of the harness itself")
    inner = parser.add_subparsers(dest="bench_command", required=True)
    gate = inner.add_parser(
        "gate",
        help="false-alarm and detection rates of the configured gate on synthetic seed-shaped scores",
    )
    add_config(gate)
    gate.add_argument("--runs", type=int, default=2000, help="simulated PRs per case (default 2000)")
    gate.add_argument("--seed", type=int, default=0, help="random seed of the simulation (default 0)")
    # Defaults of the simulated scenario live in evals.bench.Scenario (imported only when running:
    # scipy is slow to import and `evals --help` should not wait for it); the help repeats them.
    gate.add_argument(
        "--baseline-trials", type=int, help="trials of each simulated baseline (default 6, the nightly's k)"
    )
    gate.add_argument(
        "--start-trials", type=int, help="k a PR run starts with (default: {evals.yaml:trials})"
    )
    gate.add_argument("--sd", type=float, help="σ of a trial's total (default 2)")
    gate.add_argument("--drop", type=float, help="true drop to detect (default 3)")
    gate.set_defaults(handler=handle_gate)


def handle_gate(args: argparse.Namespace) -> ExitCode:
    """Exit 0 when both goals hold, 1 when one is missed (so CI can run it as a check)."""
    from evals.bench import Scenario, format_result, run_bench

    config, _ = load_project(args.config)
    given = {"sd": args.sd, "drop": args.drop, "baseline_trials": args.baseline_trials}
    scenario = Scenario(
        **{k: v for k, v in given.items() if v is not None}, start_trials=args.start_trials or config.trials
    )
    if args.runs < 1 or scenario.baseline_trials < 1 or scenario.start_trials < 1:
        raise BadInputError("--runs, --baseline-trials and --start-trials must be at least 1")
    result = run_bench(scenario, config.threshold, config.gate, runs=args.runs, seed=args.seed)
    print(format_result(result, config.threshold, config.gate))
    return ExitCode.PASS if result.meets_goals else ExitCode.REGRESSION
