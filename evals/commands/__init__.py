"""One module per command. Each exposes `register(subparsers)`, which adds its parser and sets
`handler` to a function `(args) -> ExitCode`. Adding a command is adding a module to `COMMANDS`."""

from evals.commands import (
    baseline,
    bench,
    calibrate,
    check_scenario,
    compare,
    github,
    grade,
    init,
    janitor,
    labels,
    merge,
    new_scenario,
    run,
    scenarios,
    seed_inbox,
    simulate,
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
    check_scenario,
    new_scenario,
    merge,
    seed_inbox,
    janitor,
    simulate,
    bench,
    github,
    calibrate,
    tools_check,
    view,
    trend,
    init,
]

__all__ = ["COMMANDS"]
