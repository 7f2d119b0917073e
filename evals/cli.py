"""`python -m evals COMMAND`: the command line over the pipeline stages.

Exit codes (every command): 0 pass, 1 regression, 2 usage or bad input, 3 infrastructure error,
4 not comparable. With no command, `run` runs the default suite.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from dotenv import load_dotenv

from evals.commands import COMMANDS
from evals.errors import EvalError, ExitCode


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m evals", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module in COMMANDS:
        module.register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    load_dotenv(Path.cwd() / ".env")
    args_in = sys.argv[1:] if argv is None else argv
    parser = build_parser()
    try:
        args = parser.parse_args(args_in or ["run"])
    except SystemExit as exc:  # argparse: 0 for --help, 2 for usage errors
        return int(ExitCode.BAD_INPUT) if exc.code else 0
    try:
        return int(args.handler(args))
    except EvalError as exc:
        from evals.redact import redact_text

        print(f"error: {redact_text(str(exc))}", file=sys.stderr)
        return int(exc.exit_code)
    except KeyboardInterrupt:
        print("interrupted: finished trials are kept in results.jsonl", file=sys.stderr)
        return int(ExitCode.INFRASTRUCTURE)
