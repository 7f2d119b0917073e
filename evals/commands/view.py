"""`view`: write viewer.html into a run directory, the page to read a run's transcripts in."""

from __future__ import annotations

import argparse
from pathlib import Path

from evals.core.errors import ExitCode


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = sub.add_parser(
        "view", help="write viewer.html into a run directory: transcripts, tool calls, rubric parts"
    )
    parser.add_argument("--run", type=Path, required=True, metavar="DIR", help="run directory (runs/...)")
    parser.set_defaults(handler=handle)


def handle(args: argparse.Namespace) -> ExitCode:
    from evals.report.viewer import write_viewer

    page = write_viewer(args.run)
    size = page.stat().st_size
    print(f"Viewer: {page} ({size / 1e6:.1f} MB); open it in a browser, anchors like #scenario/trial/part")
    return ExitCode.PASS
