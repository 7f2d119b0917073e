"""`trend`: the nightly trend of baseline/history.jsonl as Mermaid charts, with a drift notice."""

from __future__ import annotations

import argparse
from pathlib import Path

from evals.commands.common import add_config, add_renamed
from evals.core.errors import ExitCode
from evals.core.project import load_project


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = sub.add_parser("trend", help="print the nightly trend (Mermaid charts) and any drift")
    add_config(parser)
    parser.add_argument(
        "--history", type=Path, help="history file (default: history.jsonl next to the baseline)"
    )
    parser.add_argument("--nights", type=int, default=30, help="how many of the last nights (default 30)")
    parser.add_argument("--markdown", type=Path, metavar="FILE", help="also write the Markdown to this file")
    add_renamed(parser, "--out", "--markdown", dest="markdown", type=Path)
    parser.add_argument(
        "--run",
        type=Path,
        metavar="DIR",
        help="also write it to DIR/trend.md, which the run's report.md shows below its verdict",
    )
    parser.set_defaults(handler=handle)


def handle(args: argparse.Namespace) -> ExitCode:
    """Print the trend; in GitHub Actions also append it to the job summary (GitHub renders Mermaid)."""
    from evals.baseline.history import HISTORY_FILE
    from evals.baseline.trend import trend_of
    from evals.records.rundir import RunDir
    from evals.report.job_summary import append_job_summary

    config, project = load_project(args.config)
    path = args.history or (project / config.baseline).parent / HISTORY_FILE
    text = trend_of(path, config.threshold, max(1, args.nights))
    print(text, end="")
    if args.markdown:
        args.markdown.parent.mkdir(parents=True, exist_ok=True)
        args.markdown.write_text(text, encoding="utf-8")
    if args.run:
        RunDir(args.run).write_trend(text)
    append_job_summary("\n" + text.rstrip("\n"))
    return ExitCode.PASS
