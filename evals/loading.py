"""Load a YAML or JSON file into a pydantic model, turning every failure into a BadInputError.

Users meet this module when they make a typo, so the message names the file and the field path
(`evals.yaml: trials: Input should be greater than 0`) and nothing else is touched.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, TypeVar

import yaml
from pydantic import BaseModel, ValidationError

from evals.errors import BadInputError

M = TypeVar("M", bound=BaseModel)

# libyaml's parser reads the scenario files about eight times faster than the pure-Python one and
# builds the same values (same SafeConstructor); PyYAML without libyaml falls back to Python.
FastLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def parse_yaml(text: str) -> Any:
    """YAML with the C loader; on an error, the pure-Python loader's message, which quotes the line
    and points at the column (libyaml's does not), since a person has a typo to find."""
    try:
        return yaml.load(text, Loader=FastLoader)
    except yaml.YAMLError:
        return yaml.safe_load(text)  # raises the same error, better described


def read_data(path: Path) -> Any:
    """Parse a .yaml/.yml/.json file; a missing or unparsable file is bad input naming the file."""
    if not path.is_file():
        raise BadInputError(f"{path}: file not found")
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise BadInputError(f"{path}: cannot read: {exc}") from exc
    try:
        if path.suffix == ".json":
            return json.loads(text)
        return parse_yaml(text)
    except (json.JSONDecodeError, yaml.YAMLError) as exc:
        raise BadInputError(f"{path}: not valid {path.suffix.lstrip('.').upper()}: {exc}") from exc


def read_json_object(path: Path, missing: str) -> dict[str, Any]:
    """A JSON object an earlier stage wrote (run.json, summary.json); `missing` explains its absence."""
    if not path.is_file():
        raise BadInputError(f"{path}: {missing}")
    data = read_data(path)
    if not isinstance(data, dict):
        raise BadInputError(f"{path}: expected a JSON object")
    return data


def describe_validation_error(path: Path, exc: ValidationError) -> str:
    lines = []
    for err in exc.errors():
        where = ".".join(str(part) for part in err["loc"]) or "(top level)"
        lines.append(f"{path}: {where}: {err['msg']}")
    return "\n".join(lines)


def validate(model: type[M], data: Any, path: Path) -> M:
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise BadInputError(describe_validation_error(path, exc)) from exc


def load_model(model: type[M], path: Path) -> M:
    return validate(model, read_data(path), path)
