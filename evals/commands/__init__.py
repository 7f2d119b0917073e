"""One module per command. Each exposes `register(subparsers)`, which adds its parser and sets
`handler` to a function `(args) -> ExitCode`. Adding a command is adding a module to `COMMANDS`."""

from evals.commands import baseline, compare, grade, labels, merge, run, scenarios

COMMANDS = [run, grade, compare, baseline, labels, scenarios, merge]

__all__ = ["COMMANDS"]
