"""Helpers shared by commands: the project root, the config option, reopening a stored run."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from evals.config import load_config
from evals.errors import ExitCode
from evals.loading import read_json_object
from evals.rundir import RunDir
from evals.runner import Plan, plan
from evals.summary import summarise, write_outputs


def root() -> Path:
    """Commands work on the project in the current directory (its evals.yaml, scenario/, baseline/)."""
    return Path.cwd()


def add_config(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", type=Path, default=None, help="config file (default: ./evals.yaml)")


def plan_for_run(args: argparse.Namespace, rd: RunDir) -> tuple[Plan, dict[str, Any]]:
    """Rebuild the plan a stored run was made with, from its run.json."""
    meta = read_json_object(rd.path / "run.json", "not a run directory (no run.json)")
    config, project = load_config(root(), args.config)
    p = plan(
        project,
        config,
        scenarios=meta["scenarios"],
        agent=meta["agent_spec"],
        trials=meta["trials"],
        baseline=getattr(args, "baseline", None),
    )
    return p, meta


def finish(p: Plan, rd: RunDir, meta: dict[str, Any]) -> ExitCode:
    """Aggregate, gate, write summary.json and report.md, print the verdict; return its exit code."""
    summary, gate = summarise(p, rd, meta)
    report = write_outputs(rd, summary, gate)
    total = summary["total"]
    delta = ""
    if total["delta"] is not None:
        delta = f" (baseline {total['baseline']:.2f}, Δ {total['delta']:+.2f})"
    mean = "–" if total["mean"] is None else f"{total['mean']:.2f}"
    print(f"Verdict: {gate.verdict} · total {mean} / {total['max']}{delta}")
    for line in gate.reasons + gate.notices:
        print(f"  {line}")
    print(f"Report: {report}")
    sys.stdout.flush()
    return gate.exit_code
