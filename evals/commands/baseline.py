"""`baseline bless`: make a finished run the baseline."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from evals.baseline import baseline_from_run, load_baseline, write_baseline
from evals.commands.common import add_config, root
from evals.config import load_config
from evals.errors import BadInputError, ExitCode
from evals.rundir import RunDir


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = sub.add_parser("baseline", help="manage the blessed baseline")
    inner = parser.add_subparsers(dest="baseline_command", required=True)
    bless = inner.add_parser("bless", help="make a finished run the baseline (atomic write)")
    add_config(bless)
    bless.add_argument("--run", type=Path, required=True)
    bless.add_argument("--out", type=Path, help="baseline file to write (default: from config)")
    bless.set_defaults(handler=handle_bless)


def handle_bless(args: argparse.Namespace) -> ExitCode:
    config, project = load_config(root(), args.config)
    rd = RunDir(args.run)
    summary_path = rd.path / "summary.json"
    if not summary_path.is_file():
        raise BadInputError(f"{summary_path}: no summary; finish or grade the run first")
    summary = json.loads(summary_path.read_text(encoding="utf-8"))
    if summary["verdict"] == "error":
        raise BadInputError(f"{rd.path}: the run's verdict is error; not blessing it")
    out = args.out or project / config.baseline
    write_baseline(out, baseline_from_run(summary, rd.results(), rd.path))
    load_baseline(out)
    print(f"Blessed {rd.path} as {out}")
    return ExitCode.PASS
