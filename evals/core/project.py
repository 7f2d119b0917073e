"""Which project a command works on: the nearest folder holding evals.yaml, and its config.

Kept free of heavy imports: every command's help text reads the config's defaults through here,
and `evals --help` should not pay for pydantic.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from evals.core.errors import BadInputError

if TYPE_CHECKING:
    from evals.core.config import Config

CONFIG_FILE = "evals.yaml"


def find_project(start: Path | None = None) -> Path:
    """The project a command works on: the nearest folder holding evals.yaml, from the working
    directory up to the filesystem root, so `cd scenario && evals run` works as from the top."""
    here = (start or Path.cwd()).resolve()
    looked = [here, *here.parents]
    for folder in looked:
        if (folder / CONFIG_FILE).is_file():
            return folder
    shown = ", ".join(str(f) for f in looked[:4]) + (", …" if len(looked) > 4 else "")
    raise BadInputError(
        f"no {CONFIG_FILE} in {here} or any folder above it (looked in {shown}); "
        "run `evals` inside the project (the folder with evals.yaml or below it), or pass --config PATH"
    )


def load_project(config: Path | None) -> tuple[Config, Path]:
    """The config (from --config, else the discovered project's evals.yaml) and the folder its
    relative paths are resolved against."""
    from evals.core.config import load_config

    return load_config(find_project() if config is None else Path("."), config)
