"""Parameterised instances: a task folder is a template, an instance fills in its parameters.

A task may declare `parameters:` in scenario.yaml; its files then say `{{param:NAME}}` (or
`{{param:NAME.FIELD}}` for a choice that is a mapping of related values) wherever a value may vary:
names, numbers, thresholds, file paths, dates, which of several bugs is planted. An instance is one
draw of every parameter:

- instance 0 (no seed: PRs, the committed baseline) takes the first choice of each list and the
  lower end of each range, so a task written without parameters, or today's data, is unchanged;
- `--instance-seed N` draws every parameter from `random.Random("<task>:N")`, deterministic per
  (task, seed). All trials of a run share their task's instance: trials stay repeats of one task,
  so their spread is the agent's, not the instances'.

The placeholder syntax cannot clash with `${step.path}` replay references, `{repo}` trial
placeholders, `{{evidence}}` in judge prompts, or Python/YAML/Markdown in repo files. Rendering is
plain text substitution before a file is parsed, so in YAML a value that starts with the placeholder
is quoted when the value could read as something else. Scenario-owned code (`checks/`, `probes/`)
is code, not rendered: it reads `ctx.scenario.instance.values`.

The fingerprint hashes the template (the files as written), never an instance, and judged evidence
is hashed with the instance's values turned back into their placeholders (`neutral`), so one human
label covers every instance.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any

from pydantic import BaseModel, Field, ValidationError, model_validator

from evals.core.errors import BadInputError
from evals.core.loading import describe_validation_error, read_data
from evals.core.model import FrozenModel
from evals.scenario.folder import ScenarioFolder

PLACEHOLDER = re.compile(r"\{\{param:([A-Za-z0-9_.-]*)\}\}")
NAME = r"^[a-z][a-z0-9_]*$"
# Not rendered and not scanned: code (it reads the values itself), documentation for people, and
# human labels (keyed by neutral evidence, the same for every instance).
UNRENDERED_DIRS = ScenarioFolder.UNRENDERED_DIRS
UNRENDERED_FILES = ScenarioFolder.UNRENDERED_FILES

# Shortest value `Instance.neutral` turns back into its placeholder in judged evidence.
MIN_NEUTRAL = 3

Scalar = str | int | float | bool
Choice = Scalar | dict[Annotated[str, Field(pattern=NAME)], Scalar]


class IntRange(FrozenModel):
    """`{range: [LOW, HIGH]}`: an integer from LOW to HIGH inclusive; instance 0 takes LOW."""

    range: tuple[int, int]

    @model_validator(mode="after")
    def _ordered(self) -> IntRange:
        if self.range[0] > self.range[1]:
            raise ValueError("range: LOW must not be above HIGH")
        return self


def _same_fields(choices: list[Choice]) -> list[Choice]:
    if not choices:
        raise ValueError("a parameter needs at least one choice")
    shapes = {tuple(sorted(c)) if isinstance(c, dict) else None for c in choices}
    if len(shapes) > 1:
        raise ValueError("every choice is a plain value, or every choice a mapping with the same fields")
    return choices


ParamSpec = list[Choice] | IntRange


class Declared(BaseModel):
    """scenario.yaml's `parameters:` alone, so a validation error's path starts at `parameters`."""

    parameters: dict[Annotated[str, Field(pattern=NAME)], ParamSpec]


def _text(value: Scalar) -> str:
    """How a value is written into a file: YAML's spelling of booleans, Python's of numbers."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _flatten(name: str, value: Choice) -> dict[str, str]:
    if isinstance(value, dict):
        return {f"{name}.{key}": _text(v) for key, v in value.items()}
    return {name: _text(value)}


@dataclass(frozen=True)
class Instance:
    """One draw of a task's parameters: placeholder name -> text. Empty for an unparameterised task."""

    seed: int | None = None
    values: dict[str, str] = field(default_factory=dict)

    def render(self, text: str) -> str:
        """Fill every `{{param:NAME}}`; an unknown one is left for `check_placeholders` to report."""
        if "{{param:" not in text:
            return text
        return PLACEHOLDER.sub(lambda m: self.values.get(m.group(1), m.group(0)), text)

    def neutral(self, text: str) -> str:
        """Each value turned back into its placeholder (longest first, whole words only, in one pass
        so a placeholder just written is never matched again), so text that differs between
        instances only in their values reads, and hashes, the same. Two parameters with one value
        share the first name in sorted order.

        A value shorter than `MIN_NEUTRAL` characters (`3`, `on`) stays literal: it appears in
        evidence for other reasons too ("3 pages"), and neutralising it there would let a label
        given for one instance grade a different claim in another. Such evidence is then labelled
        per instance (offline, an instance without a label leaves the part unscored, never guessed)."""
        names: dict[str, str] = {}
        for name, value in sorted(self.values.items()):
            if len(value.strip()) >= MIN_NEUTRAL:
                names.setdefault(value, name)
        if not names:
            return text
        alternatives = "|".join(re.escape(v) for v in sorted(names, key=len, reverse=True))
        pattern = re.compile(rf"(?<!\w)(?:{alternatives})(?!\w)")
        return pattern.sub(lambda m: f"{{{{param:{names[m.group(0)]}}}}}", text)


def parse_parameters(raw: Any, where: Path) -> dict[str, ParamSpec]:
    """scenario.yaml's `parameters:` validated (bad input names the file and the parameter)."""
    if raw is None:
        return {}
    try:
        specs = Declared.model_validate({"parameters": raw}).parameters
    except ValidationError as exc:
        raise BadInputError(describe_validation_error(where, exc)) from exc
    for name, spec in specs.items():
        if isinstance(spec, list):
            try:
                _same_fields(spec)
            except ValueError as exc:
                raise BadInputError(f"{where}: parameters.{name}: {exc}") from exc
    return specs


def draw(specs: dict[str, ParamSpec], task: str, seed: int | None) -> Instance:
    """The instance for `seed` (None: instance 0, every first choice and every range's low end)."""
    rng = random.Random(f"{task}:{seed}")
    values: dict[str, str] = {}
    for name in sorted(specs):  # sorted: adding a parameter later does not reorder the others' draws
        spec = specs[name]
        if isinstance(spec, IntRange):
            low, high = spec.range
            values.update(_flatten(name, low if seed is None else rng.randint(low, high)))
        else:
            values.update(_flatten(name, spec[0] if seed is None else rng.choice(spec)))
    return Instance(seed, values)


def placeholder_names(specs: dict[str, ParamSpec]) -> set[str]:
    """Every name a file may use: a plain parameter's name, a mapping's `name.field`s."""
    return set(draw(specs, "", None).values)


def template_files(folder: Path) -> Iterable[Path]:
    """The task's text files that are rendered per instance (and so scanned for placeholders)."""
    for path in sorted(folder.rglob("*")):
        rel = path.relative_to(folder)
        skipped = UNRENDERED_DIRS.intersection(rel.parts) or rel.as_posix() in UNRENDERED_FILES
        if path.is_file() and not skipped:
            yield path


def check_placeholders(folder: Path, specs: dict[str, ParamSpec]) -> set[str]:
    """The parameter names the task's files use; an unknown placeholder is bad input naming its file."""
    known = placeholder_names(specs)
    used: set[str] = set()
    for path in template_files(folder):
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue  # not text: never rendered either
        for match in PLACEHOLDER.finditer(text):
            if match.group(1) not in known:
                line = text.count("\n", 0, match.start()) + 1
                hint = f"declared: {', '.join(sorted(known))}" if known else "no parameters declared"
                raise BadInputError(f"{path}:{line}: unknown placeholder {match.group(0)} ({hint})")
            used.add(match.group(1))
    return used


def check_parameters_used(folder: Path) -> None:
    """A parameter no file uses is bad input (a typo, or a value that varies without changing anything
    the task measures). An authoring check, run by `check-scenario` once every file has parsed, so a
    file broken mid-edit is named for what is wrong with it, not for the placeholders it lost."""
    specs = declared(folder)
    unused = sorted(placeholder_names(specs) - check_placeholders(folder, specs))
    if unused:
        meta_path = ScenarioFolder(folder).meta
        raise BadInputError(f"{meta_path}: parameters: never used in the task's files: {', '.join(unused)}")


def declared(folder: Path) -> dict[str, ParamSpec]:
    """The parameters scenario.yaml in `folder` declares (none when it has no scenario.yaml)."""
    meta_path = ScenarioFolder(folder).meta
    if not meta_path.is_file():
        return {}
    template = read_data(meta_path, mask)
    raw = template.get("parameters") if isinstance(template, dict) else None
    return parse_parameters(raw, meta_path)


def instance_zero(folder: Path) -> Instance:
    """Instance 0 of the task in `folder` (empty when it has no scenario.yaml or no parameters): what
    a caller that names no instance (the `scenarios` listing, a test) reads the files as."""
    return draw(declared(folder), folder.name, None)


def mask(text: str) -> str:
    """Every placeholder as a plain word, so scenario.yaml parses before its parameters are known
    (`{{...}}` may not be valid YAML until it is filled); only `parameters:` is read from it."""
    return PLACEHOLDER.sub(lambda m: "param_" + m.group(1).replace(".", "_"), text)
