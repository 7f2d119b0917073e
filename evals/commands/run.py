"""`run`: run the agent k times per scenario, grade, compare with the baseline, report."""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

from evals.commands.common import add_config, finish, root
from evals.config import load_config
from evals.errors import BadInputError, ExitCode
from evals.merge import slice_trials
from evals.rundir import RunDir
from evals.runner import new_run_dir, plan, progress_bar, run_meta, run_trials
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
    parser.set_defaults(handler=handle)


def handle(args: argparse.Namespace) -> ExitCode:
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
    return finish(p, rd, meta)
