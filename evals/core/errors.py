"""Errors that end a command, each carrying its exit code (README "Exit codes").

Every command exits with one of: 0 pass (or success), 1 regression, 2 usage or bad input,
3 infrastructure error (the verdict `error`: also run data that cannot be trusted), 4 not comparable;
130 or 143 when interrupted (SIGINT, SIGTERM), 141 when the reader of its output went away. Raising
one of these types is the only way code below the CLI picks an exit code, so the mapping lives in
exactly one place (the signal codes are the CLI's own: evals/cli.py).
"""

from __future__ import annotations

from enum import IntEnum


class ExitCode(IntEnum):
    PASS = 0
    REGRESSION = 1
    BAD_INPUT = 2
    INFRASTRUCTURE = 3
    NOT_COMPARABLE = 4


class EvalError(Exception):
    """Base class: a message meant for the user and the exit code it implies."""

    exit_code: ExitCode = ExitCode.INFRASTRUCTURE


class BadInputError(EvalError):
    """A config, scenario, baseline or argument the user supplied is wrong. Names the file and field."""

    exit_code = ExitCode.BAD_INPUT


class InfrastructureError(EvalError):
    """Something outside the agent failed (API down after retries, disk full): never a regression."""

    exit_code = ExitCode.INFRASTRUCTURE


class RunDataError(EvalError):
    """A run's own files cannot carry a verdict: an unreadable line, a duplicate or unplanned trial, a
    record the rubric contradicts, planned trials without a record. The verdict is `error` (exit 3),
    never a pass: a gate that scores what it could read would pass a run that died after one trial,
    or one whose records were forged. The message names the file and, for a line, the line."""

    exit_code = ExitCode.INFRASTRUCTURE
