"""`view`: write viewer.html into a run directory, the page to read a run's transcripts in. The
run's records are validated first, as by `compare`: a page over a run that died half-way or whose
records were tampered with would show a story the evidence does not support."""

from __future__ import annotations

import argparse

from evals.commands.common import add_config, add_run
from evals.core.errors import ExitCode
from evals.core.project import load_project


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = sub.add_parser(
        "view", help="write viewer.html into a run directory: transcripts, tool calls, rubric parts"
    )
    add_config(parser)
    add_run(parser, "run directory")
    parser.set_defaults(handler=handle)


def handle(args: argparse.Namespace) -> ExitCode:
    from evals.records.rundir import RunDir
    from evals.report.viewer import write_viewer
    from evals.run.finish import checked_records, reopen

    config, project = load_project(args.config)
    rd = RunDir(args.run)
    definition, meta = reopen(rd, config, project)
    checked_records(definition, rd, meta)
    page = write_viewer(args.run, abouts=definition.about_views())
    size = page.stat().st_size
    print(f"Viewer: {page} ({size / 1e6:.1f} MB); open it in a browser, anchors like #scenario/trial/part")
    return ExitCode.PASS
