"""One module per command. Each exposes `register(subparsers)`, which adds its parser and sets
`handler` to a function `(args) -> ExitCode`. Adding a command is adding a module to `COMMANDS`."""

from evals.commands import (
    baseline,
    bench,
    calibrate,
    comment,
    compare,
    grade,
    janitor,
    labels,
    merge,
    run,
    scenarios,
    seed_inbox,
    tools_check,
    trend,
    view,
)

COMMANDS = [
    run,
    grade,
    compare,
    baseline,
    labels,
    scenarios,
    merge,
    seed_inbox,
    janitor,
    bench,
    comment,
    calibrate,
    tools_check,
    view,
    trend,
]

__all__ = ["COMMANDS"]
