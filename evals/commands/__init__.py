"""One module per command. Each exposes `register(subparsers)`, which adds its parser and sets
`handler` to a function `(args) -> ExitCode`. Adding a command is adding a module to `COMMANDS`."""

from evals.commands import (
    baseline,
    bench,
    calibrate,
    check_task,
    comment,
    compare,
    grade,
    janitor,
    labels,
    merge,
    new_task,
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
    check_task,
    new_task,
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
