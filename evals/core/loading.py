"""Load a YAML or JSON file into a pydantic model, turning every failure into a BadInputError.

Users meet this module when they make a typo, so the message names the file and the field path
(`evals.yaml: trials: Input should be greater than 0`) and nothing else is touched.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, TypeVar

import yaml
from pydantic import BaseModel, ValidationError

from evals.core.errors import BadInputError

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


def parse_yaml_all(text: str) -> list[Any]:
    """Every document of a multi-document YAML stream (Kubernetes manifests), with the C loader;
    where libyaml refuses the text, what the pure-Python loader makes of it (or its error)."""
    try:
        return list(yaml.load_all(text, Loader=FastLoader))
    except yaml.YAMLError:
        return list(yaml.safe_load_all(text))


def read_data(path: Path, render: Callable[[str], str] | None = None) -> Any:
    """Parse a .yaml/.yml/.json file; a missing or unparsable file is bad input naming the file.

    `render` rewrites the text before it is parsed (a parameterised task's instance values,
    evals/scenario/params.py)."""
    if not path.is_file():
        raise BadInputError(f"{path}: file not found")
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise BadInputError(f"{path}: cannot read: {exc}") from exc
    if render is not None:
        text = render(text)
    try:
        if path.suffix == ".json":
            return json.loads(text)
        return parse_yaml(text)
    except json.JSONDecodeError as exc:
        raise BadInputError(f"{path}:{exc.lineno}:{exc.colno}: not valid JSON: {exc.msg}") from exc
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        if mark is None:
            raise BadInputError(f"{path}: not valid YAML: {exc}") from exc
        problem = getattr(exc, "problem", None) or "syntax error"
        where = f"{path}:{mark.line + 1}:{mark.column + 1}"
        # PyYAML's own text quotes the lines and marks the columns (the parse's context and problem)
        raise BadInputError(f"{where}: not valid YAML: {problem}\n{exc}") from exc


def read_json_object(path: Path, missing: str) -> dict[str, Any]:
    """A JSON object an earlier stage wrote (run.json, summary.json); `missing` explains its absence."""
    if not path.is_file():
        raise BadInputError(f"{path}: {missing}")
    data = read_data(path)
    if not isinstance(data, dict):
        raise BadInputError(f"{path}: expected a JSON object")
    return data


def yaml_position(path: Path, loc: tuple[int | str, ...]) -> str:
    """`:LINE:COLUMN` of the YAML node a validation error's `loc` names (the key, for a mapping
    entry; the deepest node that exists, for a missing one), or "" for JSON or an unreadable file.
    Composes the file again, but only on the error path."""
    if path.suffix not in (".yaml", ".yml"):
        return ""
    try:
        node = yaml.compose(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, yaml.YAMLError):
        return ""
    if node is None:
        return ""
    mark = node.start_mark
    for part in loc:
        child = None
        if isinstance(node, yaml.MappingNode):
            for key, value in node.value:
                if isinstance(key, yaml.ScalarNode) and key.value == str(part):
                    child, mark = value, key.start_mark
                    break
        elif isinstance(node, yaml.SequenceNode) and isinstance(part, int) and 0 <= part < len(node.value):
            child = node.value[part]
            mark = child.start_mark
        if child is None:
            break
        node = child
    return f":{mark.line + 1}:{mark.column + 1}"


class Located(ValueError):
    """A validator's error about one field of the file, not the whole of it: a model validator that
    checks several fields at once (the rubric's categories, the config's suite) raises this with the
    field's path (`("criteria", 2, "category")`), so the message points at that line of the file
    instead of the top of it."""

    def __init__(self, loc: tuple[int | str, ...], message: str) -> None:
        super().__init__(message)
        self.loc = loc
        self.message = message


def error_loc(err: Mapping[str, Any]) -> tuple[int | str, ...]:
    """A pydantic error's path into the data, extended by a `Located` validator error's own."""
    loc = tuple(err["loc"])
    cause = (err.get("ctx") or {}).get("error")
    return loc + cause.loc if isinstance(cause, Located) else loc


def error_message(err: Mapping[str, Any]) -> str:
    cause = (err.get("ctx") or {}).get("error")
    return cause.message if isinstance(cause, Located) else str(err["msg"])


def describe_validation_error(path: Path, exc: ValidationError) -> str:
    lines = []
    for err in exc.errors():
        loc = error_loc(err)
        where = ".".join(str(part) for part in loc) or "(top level)"
        lines.append(f"{path}{yaml_position(path, loc)}: {where}: {error_message(err)}")
    return "\n".join(lines)


def validate(model: type[M], data: Any, path: Path) -> M:
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise BadInputError(describe_validation_error(path, exc)) from exc


def load_model(model: type[M], path: Path, render: Callable[[str], str] | None = None) -> M:
    return validate(model, read_data(path, render), path)
