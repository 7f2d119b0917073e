"""`evals COMMAND` (or `python -m evals COMMAND`): a regression gate for a Claude agent across Gmail,
GitHub and Notion. `evals run` runs the default suite offline; `evals COMMAND --help` says more.

Exit codes (every command): 0 pass or success, 1 regression, 2 usage or bad input, 3 infrastructure
error (also: more than `max_error_share` of a scenario's trials errored) or run data that cannot
carry a verdict, 4 not comparable; 130/143 interrupted (Ctrl-C, SIGTERM), 141 when the reader of the
output went away (`| head`).
"""

from __future__ import annotations

import argparse
import gc
import os
import signal
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from types import FrameType

from evals import __version__
from evals.commands import COMMANDS
from evals.commands.common import Parser, RawConfigHelpFormatter
from evals.core.errors import BadInputError, EvalError, ExitCode
from evals.core.project import find_project
from evals.run import interrupt

# 128 + the signal's number, as a shell reports a process a signal ended.
INTERRUPTED = {signal.SIGINT: 130, signal.SIGTERM: 143}
BROKEN_PIPE = 128 + 13  # SIGPIPE: the reader went away, as `seq 1000 | head` ends


def _subparsers(parser: argparse.ArgumentParser) -> Iterator[argparse._SubParsersAction]:  # type: ignore[type-arg]
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            yield action


def _describe_commands(parser: argparse.ArgumentParser) -> None:
    """Every command's `--help` opens with what it does: its one-line `help` from the command list,
    unless the command wrote a longer description of its own."""
    for action in _subparsers(parser):
        helps = {choice.dest: choice.help for choice in action._choices_actions}
        for name, sub in action.choices.items():
            line = helps.get(name)
            if sub.description is None and line:
                sub.description = line[0].upper() + line[1:] + "."
            _describe_commands(sub)


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(prog="evals", description=__doc__, formatter_class=RawConfigHelpFormatter)
    parser.add_argument("--version", action="version", version=f"evals {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module in COMMANDS:
        module.register(sub)
    _describe_commands(parser)
    return parser


# Python's default (700 new objects) runs the cycle collector hundreds of times while `compare`
# validates a 100-trial run, each pass walking every object alive; run data is acyclic, so nearly
# all that work finds nothing. mypy's entry point raises the threshold the same way; a long `run`
# still collects, every 200,000 new container objects instead of every 700.
GC_THRESHOLD = (200_000, 30, 30)
# Old command names, still accepted: each prints where it went, once, on stderr.
RENAMED = {"check-task": "check-scenario", "new-task": "new-scenario", "comment": "github comment"}
_received: list[int] = []


def _on_sigterm(signum: int, frame: FrameType | None) -> None:
    """SIGTERM (a cancelled CI job, `kill`) ends the command as Ctrl-C does: finished trials stay in
    results.jsonl, running trials are cancelled. Delivered again as SIGINT, so a running `asyncio.run`
    cancels its task the way it does for Ctrl-C (its own SIGINT handler) instead of leaving a task
    whose KeyboardInterrupt nobody retrieves; outside asyncio, SIGINT raises KeyboardInterrupt."""
    _received.append(signum)
    interrupt.received.append(signum)
    if callable(signal.getsignal(signal.SIGINT)):
        signal.raise_signal(signal.SIGINT)
    else:  # SIGINT ignored (a background job of a script): nothing would hear it
        raise KeyboardInterrupt


def _interrupted() -> int:
    signum = _received[-1] if _received else signal.SIGINT
    name = signal.Signals(signum).name
    if not interrupt.said:  # a run already said it, with its folder (evals/run/interrupt.py)
        print(
            f"interrupted ({name}): finished trials are kept in results.jsonl; "
            "`evals run --resume DIR` finishes an interrupted run",
            file=sys.stderr,
        )
    return INTERRUPTED.get(signal.Signals(signum), 128 + signum)


def _reader_gone() -> int:
    """The reader of stdout went away (`evals scenarios --names | head`): stop quietly. Point stdout
    at /dev/null so the interpreter's own flush at exit has nowhere to fail."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
    return BROKEN_PIPE


def _crashed(exc: Exception) -> int:
    """An exception no stage turned into an EvalError is a bug in evals, not a verdict: its
    traceback (redacted) and exit 3, never Python's 1, which a workflow would read as a regression."""
    import traceback

    from evals.core.redact import redact_text

    text = "".join(traceback.format_exception(exc))
    print(
        f"{redact_text(text)}error: unexpected {type(exc).__name__} (a bug in evals, not a verdict)",
        file=sys.stderr,
    )
    return int(ExitCode.INFRASTRUCTURE)


def main(argv: list[str] | None = None) -> int:
    gc.set_threshold(*GC_THRESHOLD)
    try:  # the project's .env, wherever in the project the command is run from
        env_file = find_project() / ".env"
    except BadInputError:
        env_file = Path.cwd() / ".env"
    if env_file.is_file():  # python-dotenv reads nothing else (and is 11 ms of imports when there is none)
        from dotenv import load_dotenv

        load_dotenv(env_file)
    args_in = sys.argv[1:] if argv is None else argv
    parser = build_parser()
    if not args_in:  # `evals` alone: what it is and what it can do, never a run
        parser.print_help()
        return int(ExitCode.PASS)
    try:
        args = parser.parse_args(args_in)
    except SystemExit as exc:  # argparse: 0 for --help, 2 for usage errors
        return int(ExitCode.BAD_INPUT) if exc.code else 0
    if args.command is None:
        parser.print_help()
        return int(ExitCode.PASS)
    if args.command in RENAMED:
        print(f"note: `{args.command}` is now `{RENAMED[args.command]}`", file=sys.stderr)
    _received.clear()
    interrupt.received.clear()
    interrupt.said.clear()
    main_thread = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGTERM, _on_sigterm) if main_thread else None
    try:
        code = int(args.handler(args))
        sys.stdout.flush()
        return code
    except BrokenPipeError:
        return _reader_gone()
    except EvalError as exc:
        from evals.core.redact import redact_text
        from evals.core.untrusted import console_lines  # the message may quote a run's files

        print(f"error: {console_lines(redact_text(str(exc)))}", file=sys.stderr)
        return int(exc.exit_code)
    except KeyboardInterrupt:
        return _interrupted()
    except Exception as exc:  # a bug in evals: never exit 1, which means "regression"
        return _crashed(exc)
    finally:
        if main_thread:
            signal.signal(signal.SIGTERM, signal.SIG_DFL if previous is None else previous)
