"""`run`: run the agent k times per scenario, grade, compare with the baseline, report."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from evals.commands.common import add_config, add_scenarios, load_project
from evals.errors import BadInputError, ExitCode

if TYPE_CHECKING:
    from evals.records import RunMeta
    from evals.rundir import RunDir
    from evals.runner import Plan


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = sub.add_parser(
        "run",
        help="run the agent k times per scenario, grade, compare, report",
        description="Run the agent k times per scenario, grade, compare with the baseline, report. Exit 0 "
        "pass or inconclusive, 1 regression, 2 bad input, 3 infrastructure error (also: more than "
        "`max_error_share` = {evals.yaml:max_error_share} of a scenario's trials errored), 4 not comparable.",
    )
    add_config(parser)
    add_scenarios(parser)
    parser.add_argument(
        "--agent",
        help="auto | claude | replay:NAME | package.module:callable (default: {evals.yaml:agent}; auto is "
        "claude when ANTHROPIC_API_KEY is set, else the scenario's offline replays)",
    )
    parser.add_argument(
        "--trials",
        type=int,
        metavar="K",
        help="trials per scenario to start with (default: {evals.yaml:trials}); when a drop is within the "
        "noise the gate adds trials, up to gate.max_trials = {evals.yaml:gate.max_trials}, before deciding",
    )
    parser.add_argument(
        "--out",
        type=Path,
        metavar="DIR",
        help="run directory (default: {evals.yaml:runs_dir}/<time>-<scenarios>)",
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
    parser.add_argument("--trial-slice", metavar="I/N", help="run only slice I of N (0-based) of the trials")
    parser.add_argument(
        "--resume",
        type=Path,
        metavar="DIR",
        help="finish an interrupted run: run only its missing or errored trials, with its own settings",
    )
    parser.set_defaults(handler=handle)


def handle(args: argparse.Namespace) -> ExitCode:
    from evals.commands.finish import finish
    from evals.merge import slice_trials
    from evals.rundir import RunDir
    from evals.runner import new_run_dir, plan, run_meta

    if args.concurrency is not None and args.concurrency < 1:
        raise BadInputError("--concurrency must be at least 1")
    if args.resume is not None:
        return resume(args)
    config, project = load_project(args.config)
    p = plan(
        project,
        config,
        scenarios=args.scenario,
        agent=args.agent,
        trials=args.trials,
        baseline=args.baseline,
        concurrency=args.concurrency,
        world=args.world,
        budget_usd=args.budget_usd,
        instance_seed=args.instance_seed,
    )
    out = args.out or new_run_dir(project, config, list(p.scenarios))
    if (out / "results.jsonl").exists():
        raise BadInputError(
            f"{out}: already holds a run; choose another --out, or finish that one with "
            f"`evals run --resume {out}`"
        )
    rd = RunDir(out)
    meta = run_meta(p)
    indices = slice_trials(args.trial_slice, p.trials) if args.trial_slice else None
    meta.trial_slice = args.trial_slice
    rd.write_json("run.json", meta.dump())
    print(f"Running {', '.join(p.scenarios)} × {p.trials} with {meta.agent} → {out}", file=sys.stderr)
    print(cost_estimate(p), file=sys.stderr)
    run_to_verdict(p, rd, meta, indices)
    return finish(p.definition, rd, meta)


def cost_estimate(p: Plan) -> str:
    from evals.budget import estimate_line

    d = p.definition
    return estimate_line(d.baseline, list(p.scenarios), p.trials, d.config.gate.max_trials, p.budget_usd)


def run_to_verdict(p: Plan, rd: RunDir, meta: RunMeta, indices: list[int] | None) -> None:
    """Run the trials still missing, then any adaptive extra trials the gate asks for, within the
    cost budget: once the spend reaches it no trial starts, and run.json says the budget ended the run."""
    import asyncio

    from evals.budget import Spend, trial_cost
    from evals.records import read_records
    from evals.runner import progress_bar, run_trials, trials_to_add

    spend = Spend(p.budget_usd, sum(trial_cost(r) for r in read_records(rd.results_path)))
    with progress_bar() as progress:
        asyncio.run(run_trials(p, rd, progress, indices, spend))
        # Adaptive trials: while the verdict is undecided, up to the next look (evals/sequential.py),
        # at most gate.max_trials, never past the cost budget. Not for shards.
        while indices is None and not spend.reached and (extra := trials_to_add(p, rd)) > 0:
            meta.trials_started = meta.trials_started or p.trials
            p.trials += extra
            meta.trials = p.trials
            meta.trials_budget = p.definition.config.gate.max_trials
            rd.write_json("run.json", meta.dump())
            asyncio.run(run_trials(p, rd, progress, spend=spend))
    meta.spent_usd = round(spend.spent, 6)
    if p.budget_usd is not None:
        meta.budget_usd = p.budget_usd
        wanted_more = indices is None and spend.reached and trials_to_add(p, rd) > 0
        meta.stopped_by_budget = True if (spend.skipped or wanted_more) else None
    rd.write_json("run.json", meta.dump())


def resume(args: argparse.Namespace) -> ExitCode:
    """Rerun only what an interrupted run is missing, with the settings stored in its run.json.

    Trials already in results.jsonl with status ok are kept; missing and infrastructure-errored ones
    run again (a later line for the same trial wins). Refuses a directory that is not a run, and a run
    whose agent has changed since, because mixing two agents' trials would score neither.
    """
    from evals.commands.finish import finish
    from evals.merge import slice_trials
    from evals.records import read_meta
    from evals.rundir import RunDir
    from evals.runner import plan, run_meta

    given = {
        "--scenario": args.scenario,
        "--agent": args.agent,
        "--trials": args.trials,
        "--out": args.out,
        "--instance-seed": args.instance_seed,
    }
    clashing = [flag for flag, value in given.items() if value is not None]
    if args.trial_slice:
        clashing.append("--trial-slice")
    if clashing:
        raise BadInputError(f"--resume reuses the run's own settings; drop {', '.join(clashing)}")
    rd = RunDir(args.resume)
    meta = read_meta(rd.path)
    rd.repair_results()
    config, project = load_project(args.config)
    p = plan(
        project,
        config,
        scenarios=meta.scenarios,
        agent=meta.agent_spec,
        trials=meta.trials,
        baseline=args.baseline,
        concurrency=args.concurrency,
        world=meta.world,
        budget_usd=meta.budget_usd,
        instance_seed=meta.instance_seed,
    )
    now = run_meta(p)
    for key in ("agent", "agent_config_hash"):
        if getattr(meta, key) != getattr(now, key):
            raise BadInputError(
                f"{rd.path}: the agent changed since this run started "
                f"({key}: {getattr(meta, key)} -> {getattr(now, key)}); start a new run instead"
            )
    indices = slice_trials(meta.trial_slice, p.trials) if meta.trial_slice else None
    meta.resumed = [*meta.resumed, now.started]
    rd.write_json("run.json", meta.dump())
    print(f"Resuming {', '.join(p.scenarios)} × {p.trials} with {meta.agent} → {rd.path}", file=sys.stderr)
    run_to_verdict(p, rd, meta, indices)
    return finish(p.definition, rd, meta)
