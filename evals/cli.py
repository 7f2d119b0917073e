"""`evals COMMAND` (or `python -m evals COMMAND`): the command line over the pipeline stages.

Exit codes (every command): 0 pass, 1 regression, 2 usage or bad input (also: no evals.yaml here or
in any folder above), 3 infrastructure error (also: more than `max_error_share` of the trials
errored), 4 not comparable. With no command, `run` runs the default suite.
"""

from __future__ import annotations

import argparse
import gc
import sys
from pathlib import Path

from dotenv import load_dotenv

from evals import __version__
from evals.commands import COMMANDS
from evals.commands.common import Parser, RawConfigHelpFormatter
from evals.core.errors import BadInputError, EvalError, ExitCode
from evals.core.project import find_project


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(prog="evals", description=__doc__, formatter_class=RawConfigHelpFormatter)
    parser.add_argument("--version", action="version", version=f"evals {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module in COMMANDS:
        module.register(sub)
    return parser


# Python's default (700 new objects) runs the cycle collector hundreds of times while `compare`
# validates a 100-trial run, each pass walking every object alive; run data is acyclic, so nearly
# all that work finds nothing. mypy's entry point raises the threshold the same way; a long `run`
# still collects, every 200,000 new container objects instead of every 700.
GC_THRESHOLD = (200_000, 30, 30)
# Old command names, still accepted: each prints where it went, once, on stderr.
RENAMED = {"check-task": "check-scenario", "new-task": "new-scenario", "comment": "github comment"}


def main(argv: list[str] | None = None) -> int:
    gc.set_threshold(*GC_THRESHOLD)
    try:  # the project's .env, wherever in the project the command is run from
        load_dotenv(find_project() / ".env")
    except BadInputError:
        load_dotenv(Path.cwd() / ".env")
    args_in = sys.argv[1:] if argv is None else argv
    parser = build_parser()
    try:
        args = parser.parse_args(args_in or ["run"])
    except SystemExit as exc:  # argparse: 0 for --help, 2 for usage errors
        return int(ExitCode.BAD_INPUT) if exc.code else 0
    if args.command in RENAMED:
        print(f"note: `{args.command}` is now `{RENAMED[args.command]}`", file=sys.stderr)
    try:
        return int(args.handler(args))
    except EvalError as exc:
        from evals.core.redact import redact_text
        from evals.core.untrusted import console_lines  # the message may quote a run's files

        print(f"error: {console_lines(redact_text(str(exc)))}", file=sys.stderr)
        return int(exc.exit_code)
    except KeyboardInterrupt:
        print("interrupted: finished trials are kept in results.jsonl", file=sys.stderr)
        return int(ExitCode.INFRASTRUCTURE)
