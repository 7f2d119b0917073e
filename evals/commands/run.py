"""`run`: run the agent k times per scenario, grade, compare with the baseline, report."""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path
from typing import Any

from evals.backend import make_backend
from evals.commands.common import add_config, finish, plan_for_run, root
from evals.config import load_config
from evals.errors import BadInputError, ExitCode
from evals.merge import slice_trials
from evals.rundir import RunDir
from evals.runner import Plan, new_run_dir, plan, progress_bar, run_meta, run_trials
from evals.summary import trials_to_add


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = sub.add_parser("run", help="run the agent k times per scenario, grade, compare, report")
    add_config(parser)
    parser.add_argument("--scenario", action="append", help="scenario name (repeatable; default: the suite)")
    parser.add_argument("--agent", help="auto | claude | replay:NAME | package.module:callable")
    parser.add_argument("--trials", type=int, help="trials per scenario (k)")
    parser.add_argument("--out", type=Path, help="run directory (default: runs/<time>-<scenarios>)")
    parser.add_argument("--baseline", type=Path, help="baseline file (default: from config)")
    parser.add_argument("--concurrency", type=int, help="trials running at once (default 4)")
    parser.add_argument("--world", default="sandbox", help="where trials run: sandbox (default) or live")
    parser.add_argument("--trial-slice", metavar="I/N", help="run only slice I of N (0-based) of the trials")
    parser.add_argument(
        "--resume",
        type=Path,
        metavar="DIR",
        help="finish an interrupted run: run only its missing or errored trials, with its own settings",
    )
    parser.set_defaults(handler=handle)


def handle(args: argparse.Namespace) -> ExitCode:
    if args.resume is not None:
        return resume(args)
    config, project = load_config(root(), args.config)
    if args.concurrency is not None and args.concurrency < 1:
        raise BadInputError("--concurrency must be at least 1")
    p = plan(
        project,
        config,
        scenarios=args.scenario,
        agent=args.agent,
        trials=args.trials,
        baseline=args.baseline,
        concurrency=args.concurrency,
        world=args.world,
    )
    out = args.out or new_run_dir(project, config, list(p.scenarios))
    if (out / "results.jsonl").exists():
        raise BadInputError(f"{out}: already holds a run; choose another --out")
    rd = RunDir(out)
    meta = run_meta(p)
    indices = slice_trials(args.trial_slice, p.trials) if args.trial_slice else None
    if args.trial_slice:
        meta["trial_slice"] = args.trial_slice
    rd.write_json("run.json", meta)
    print(f"Running {', '.join(p.scenarios)} × {p.trials} with {meta['agent']} → {out}", file=sys.stderr)
    run_to_verdict(p, rd, meta, indices)
    return finish(p, rd, meta)


def run_to_verdict(p: Plan, rd: RunDir, meta: dict[str, Any], indices: list[int] | None) -> None:
    """Run the trials still missing, then any adaptive extra trials the gate asks for."""
    with progress_bar() as progress:
        asyncio.run(run_trials(p, rd, progress, indices))
        # Adaptive trials: a drop past the threshold that noise could explain earns more trials,
        # up to gate.max_trials, before the verdict (evals.gate.extra_trials). Not for shards.
        while indices is None and (extra := trials_to_add(p, rd, meta)) > 0:
            meta.setdefault("trials_started", p.trials)
            p.trials += extra
            meta.update(trials=p.trials, trials_budget=p.config.gate.max_trials)
            rd.write_json("run.json", meta)
            asyncio.run(run_trials(p, rd, progress))


def resume(args: argparse.Namespace) -> ExitCode:
    """Rerun only what an interrupted run is missing, with the settings stored in its run.json.

    Trials already in results.jsonl with status ok are kept; missing and infrastructure-errored ones
    run again (a later line for the same trial wins). Refuses a directory that is not a run, and a run
    whose agent has changed since, because mixing two agents' trials would score neither.
    """
    given = {"--scenario": args.scenario, "--agent": args.agent, "--trials": args.trials, "--out": args.out}
    clashing = [flag for flag, value in given.items() if value is not None]
    if args.trial_slice:
        clashing.append("--trial-slice")
    if clashing:
        raise BadInputError(f"--resume reuses the run's own settings; drop {', '.join(clashing)}")
    if args.concurrency is not None and args.concurrency < 1:
        raise BadInputError("--concurrency must be at least 1")
    rd = RunDir(args.resume)
    p, meta = plan_for_run(args, rd)
    p.backend = make_backend(str(meta.get("world", "sandbox")))
    if args.concurrency is not None:
        p.concurrency = args.concurrency
    now = run_meta(p)
    for key in ("agent", "agent_config_hash"):
        if meta.get(key) != now[key]:
            raise BadInputError(
                f"{rd.path}: the agent changed since this run started "
                f"({key}: {meta.get(key)} -> {now[key]}); start a new run instead"
            )
    slice_spec = meta.get("trial_slice")
    indices = slice_trials(str(slice_spec), p.trials) if slice_spec else None
    meta["resumed"] = [*meta.get("resumed", []), now["started"]]
    rd.write_json("run.json", meta)
    print(f"Resuming {', '.join(p.scenarios)} × {p.trials} with {meta['agent']} → {rd.path}", file=sys.stderr)
    run_to_verdict(p, rd, meta, indices)
    return finish(p, rd, meta)
