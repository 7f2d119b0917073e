"""`bench gate`: measure the gate rule's false alarms, detection, guard detection, trials and cost on
synthetic scores, at the configured settings (and `--baseline-trials 10` for the larger baseline)."""

from __future__ import annotations

import argparse

from evals.bench import Scenario, format_result, run_bench
from evals.commands.common import add_config, root
from evals.config import load_config
from evals.errors import BadInputError, ExitCode


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = sub.add_parser("bench", help="simulation benchmarks of the harness itself")
    inner = parser.add_subparsers(dest="bench_command", required=True)
    gate = inner.add_parser(
        "gate",
        help="false alarms, detection, guard detection, trials and cost of the configured gate (synthetic)",
    )
    add_config(gate)
    defaults = Scenario()
    gate.add_argument("--runs", type=int, default=2000, help="simulated PRs per case (default 2000)")
    gate.add_argument("--seed", type=int, default=0)
    gate.add_argument("--baseline-trials", type=int, default=defaults.baseline_trials)
    gate.add_argument("--start-trials", type=int, help="k a PR run starts with (default: config trials)")
    gate.add_argument("--sd", type=float, default=defaults.sd, help="σ of a trial's total (default 2)")
    gate.add_argument("--guards", type=int, default=defaults.guards, help="guard parts (default 2)")
    gate.add_argument(
        "--cost-per-trial",
        type=float,
        default=defaults.cost_per_trial,
        help="USD per trial, agent and judge, for the cost per verdict (default 1)",
    )
    gate.set_defaults(handler=handle_gate)


def handle_gate(args: argparse.Namespace) -> ExitCode:
    """Exit 0 when every goal holds, 1 when one is missed (so CI can run it as a check)."""
    config, _ = load_config(root(), args.config)
    if args.runs < 1 or args.baseline_trials < 1 or (args.start_trials is not None and args.start_trials < 1):
        raise BadInputError("--runs, --baseline-trials and --start-trials must be at least 1")
    if args.guards < 0 or args.cost_per_trial < 0:
        raise BadInputError("--guards and --cost-per-trial cannot be negative")
    scenario = Scenario(
        sd=args.sd,
        baseline_trials=args.baseline_trials,
        start_trials=args.start_trials or config.trials,
        guards=args.guards,
        cost_per_trial=args.cost_per_trial,
    )
    result = run_bench(scenario, config.threshold, config.gate, runs=args.runs, seed=args.seed)
    print(format_result(result, config.threshold, config.gate))
    return ExitCode.PASS if result.meets_goals else ExitCode.REGRESSION
