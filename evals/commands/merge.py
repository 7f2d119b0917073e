"""`merge`: combine shard run directories into one run, then summarise, gate and report it.

Each trial's layer 1 is computed again from its outcome as it is merged (evals/run/recheck.py): the
shards ran where the model key was and deferred every check that executes the agent's code."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from evals.commands.common import add_config
from evals.core.errors import ExitCode
from evals.core.project import load_project


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = sub.add_parser("merge", help="combine shard run directories into one run (each trial once)")
    add_config(parser)
    parser.add_argument(
        "--out", type=Path, required=True, metavar="DIR", help="a new run directory to create"
    )
    parser.add_argument(
        "--baseline", type=Path, metavar="PATH", help="baseline file (default: {evals.yaml:baseline})"
    )
    parser.add_argument("shards", type=Path, nargs="+", metavar="SHARD_DIR", help="shard run directories")
    parser.set_defaults(handler=handle)


def handle(args: argparse.Namespace) -> ExitCode:
    from evals.records.rundir import RunDir
    from evals.run.finish import finish, reopen
    from evals.run.merge import merge_runs
    from evals.run.recheck import for_merge

    config, project = load_project(args.config)
    result = merge_runs(args.shards, args.out, for_merge(config, project, args.baseline))
    print(f"Merged {len(args.shards)} shard(s), {result.trials} trial(s) → {args.out}", file=sys.stderr)
    if result.missing:
        print(f"  missing, counted as errored: {', '.join(result.missing)}", file=sys.stderr)
    rd = RunDir(args.out)
    definition, meta = reopen(rd, config, project, args.baseline)
    return finish(definition, rd, meta)
