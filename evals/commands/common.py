"""Helpers every command's parser uses. Kept free of heavy imports: every command module imports
this at start-up, and `evals --help` should not pay for the pipeline."""

from __future__ import annotations

import argparse
import functools
import re
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from evals.core.errors import BadInputError
from evals.core.project import CONFIG_FILE, find_project


def add_config(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--config",
        type=Path,
        default=None,
        metavar="PATH",
        help=f"config file (default: the nearest {CONFIG_FILE}, from here upwards)",
    )


def add_scenarios(parser: argparse.ArgumentParser) -> None:
    """`--scenario NAME` (repeatable), the same for every command that picks scenarios of the suite."""
    parser.add_argument(
        "--scenario",
        action="append",
        help="scenario name (repeatable; default: the suite, {evals.yaml:suite})",
    )


def add_run(parser: argparse.ArgumentParser, what: str = "finished run directory") -> None:
    """`--run DIR`, the same for every command that works on a stored run: `--run` always names a
    run that exists (its run.json is read first), `--out` always a new one."""
    parser.add_argument(
        "--run", type=Path, required=True, metavar="DIR", help=f"{what} (written under runs/ by `evals run`)"
    )


class Renamed(argparse.Action):
    """An option's old spelling, still accepted (hidden from help): stores into the new option and
    says, once, on stderr, what it is called now."""

    def __init__(self, option_strings: Sequence[str], dest: str, new: str, **kwargs: Any) -> None:
        self.new = new
        super().__init__(option_strings, dest, help=argparse.SUPPRESS, **kwargs)

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: Any,
        option_string: str | None = None,
    ) -> None:
        print(f"note: `{option_string}` is now `{self.new}`", file=sys.stderr)
        setattr(namespace, self.dest, values)


def add_renamed(parser: argparse.ArgumentParser, old: str, new: str, dest: str, **kwargs: Any) -> None:
    """Accept `old` for the option now called `new` (whose value lands in `dest`)."""
    parser.add_argument(old, action=Renamed, new=new, dest=dest, **kwargs)


_CONFIG_REF = re.compile(r"\{evals\.yaml:([\w.]+)\}")


def _config_data() -> dict[str, Any]:
    """The nearest evals.yaml as plain data, read only when a help text is shown (never validated
    here: `--help` must work, and stay fast, even on a config with a typo)."""
    try:
        path = find_project() / CONFIG_FILE
        return _parse_config(path, path.stat().st_mtime_ns)
    except (BadInputError, OSError):
        return {}


@functools.lru_cache(maxsize=4)
def _parse_config(path: Path, mtime_ns: int) -> dict[str, Any]:
    """Parsed once per file version (a help page asks for several keys)."""
    import yaml

    from evals.core.loading import parse_yaml

    try:
        data = parse_yaml(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError):
        return {}
    return data if isinstance(data, dict) else {}


def config_default(key: str) -> str:
    """`key` (dotted) as evals.yaml sets it, else the config model's default, for help texts. A key
    the file must set (no default) read where there is no evals.yaml says so, instead of inventing
    a value."""
    data = _config_data()
    value: Any = data
    for part in key.split("."):
        value = value.get(part) if isinstance(value, dict) else None
    if value is None:
        from evals.core.config import Config

        model: Any = Config
        for part in key.split("."):
            fields = getattr(model, "model_fields", None) if isinstance(model, type) else None
            field = fields.get(part) if fields else None
            if field is not None and field.is_required():
                return f"evals.yaml's {key}" + ("" if data else "; no evals.yaml here")
            value = None if field is None else field.get_default(call_default_factory=True)
            model = type(value)  # a section's default (GateConfig()): its class holds the fields
    if isinstance(value, list):
        return ", ".join(str(v) for v in value)
    return "unset" if value is None else str(value)


class ConfigHelpFormatter(argparse.HelpFormatter):
    """Fills `{evals.yaml:KEY}` in help and descriptions with the value the config gives, when help
    is shown, so `--trials` says the default the command will really use."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        text = super()._get_help_string(action)
        if text is None:
            return None
        return _CONFIG_REF.sub(lambda m: config_default(m[1]).replace("%", "%%"), text)

    def _format_text(self, text: str) -> str:
        return super()._format_text(_CONFIG_REF.sub(lambda m: config_default(m[1]), text))


class RawConfigHelpFormatter(ConfigHelpFormatter, argparse.RawDescriptionHelpFormatter):
    """The top level's: its description is the module docstring, laid out by hand."""


class Parser(argparse.ArgumentParser):
    """Every parser of the CLI: help with the config's defaults filled in."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", ConfigHelpFormatter)
        super().__init__(*args, **kwargs)
