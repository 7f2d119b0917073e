"""Read a scenario folder into a `Scenario`, checking references between files.

A scenario is spread over several files (scenario.yaml, emails.yaml, notion.yaml, prompts/, repo/);
cross-file mistakes such as an email from an unknown persona are reported here with the file name.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, TypeAdapter, ValidationError

from evals.core.errors import BadInputError
from evals.core.loading import describe_validation_error, read_data, validate, yaml_position
from evals.core.suggest import did_you_mean
from evals.scenario.folder import ScenarioFolder, list_scenarios
from evals.scenario.model import Email, PageSpec, Scenario
from evals.scenario.params import Instance, check_placeholders, draw, mask, parse_parameters

M = TypeVar("M", bound=BaseModel)

SCENARIO_FILE = ScenarioFolder.META
__all__ = ["list_scenarios", "load_scenario"]


def _read_prompt(folder: Path, value: Any, field: str, instance: Instance) -> str:
    """A prompt is either inline text or `{file: relative/path.md}`."""
    if isinstance(value, dict) and set(value) == {"file"}:
        path = folder / str(value["file"])
        if not path.is_file():
            raise BadInputError(f"{folder / SCENARIO_FILE}: prompts.{field}: file not found: {path}")
        return instance.render(path.read_text(encoding="utf-8"))
    if isinstance(value, str):
        return value
    raise BadInputError(f"{folder / SCENARIO_FILE}: prompts.{field}: expected text or {{file: PATH}}")


def _read_repo_files(root: Path, instance: Instance) -> dict[str, str]:
    if not root.is_dir():
        raise BadInputError(f"{root}: repo folder not found")
    files: dict[str, str] = {}
    for path in sorted(root.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc":
            rel = path.relative_to(root).as_posix()
            try:
                files[rel] = instance.render(path.read_text(encoding="utf-8"))
            except UnicodeDecodeError as exc:
                raise BadInputError(f"{path}: repo files must be UTF-8 text") from exc
    return files


def _validate_list(model: type[M], path: Path, instance: Instance) -> list[M]:
    """Validate a data file holding a list of `model`, so an error names that file, not scenario.yaml."""
    try:
        return TypeAdapter(list[model]).validate_python(read_data(path, instance.render))  # type: ignore[valid-type]
    except ValidationError as exc:
        raise BadInputError(describe_validation_error(path, exc)) from exc


def load_scenario(scenarios_dir: Path, name: str, instance_seed: int | None = None) -> Scenario:
    """The task `name` as instance `instance_seed` (None: instance 0, see evals/scenario/params.py):
    every text file rendered with the instance's values before it is parsed."""
    folder = scenarios_dir / name
    meta_path = folder / SCENARIO_FILE
    if not meta_path.is_file():
        names = list_scenarios(scenarios_dir)
        raise BadInputError(
            f"{meta_path}: no such scenario {name!r}{did_you_mean(name, names)} "
            f"(known: {', '.join(names) or 'none'}; `evals scenarios` lists them)"
        )
    template = read_data(meta_path, mask)
    if not isinstance(template, dict):
        raise BadInputError(f"{meta_path}: expected a mapping at the top level")
    specs = parse_parameters(template.get("parameters"), meta_path)
    check_placeholders(folder, specs)
    instance = draw(specs, name, instance_seed)
    meta = read_data(meta_path, instance.render)
    if not isinstance(meta, dict):
        raise BadInputError(f"{meta_path}: expected a mapping at the top level")
    meta.pop("parameters", None)
    prompts = meta.get("prompts")
    if not isinstance(prompts, dict):
        raise BadInputError(f"{meta_path}: prompts: expected a mapping with `system` and `task`")
    data = dict(meta)
    data["prompts"] = {k: _read_prompt(folder, prompts.get(k), k, instance) for k in ("system", "task")}
    data["emails"] = _validate_list(Email, ScenarioFolder(folder).emails, instance)
    data["pages"] = _validate_list(PageSpec, ScenarioFolder(folder).notion, instance)
    repo_meta = meta.get("repo")
    repo: dict[str, Any] = repo_meta if isinstance(repo_meta, dict) else {}
    data["files"] = _read_repo_files(folder / str(repo.get("files_dir", "repo")), instance)
    scenario = validate(Scenario, data, meta_path)
    scenario._instance = instance
    _check_references(scenario, folder)
    return scenario


def _check_references(scenario: Scenario, folder: Path) -> None:
    persona_ids = {p.id for p in scenario.personas}
    emails = ScenarioFolder(folder).emails
    seen: set[str] = set()
    for n, email in enumerate(scenario.emails):
        if email.id in seen:
            raise BadInputError(f"{_at(emails, (n, 'id'))}: duplicate email id {email.id!r}")
        if email.sender not in persona_ids:
            known = sorted(persona_ids)
            raise BadInputError(
                f"{_at(emails, (n, 'from'))}: {email.id}: unknown persona {email.sender!r}"
                f"{did_you_mean(email.sender, known)} (personas: {', '.join(known)})"
            )
        if email.reply_to is not None and email.reply_to not in seen:
            raise BadInputError(
                f"{_at(emails, (n, 'reply_to'))}: {email.id}: reply_to {email.reply_to!r} "
                "is not an earlier email"
            )
        seen.add(email.id)
    keys: set[str] = set()
    for n, page in enumerate(scenario.pages):
        if page.key in keys:
            raise BadInputError(
                f"{_at(ScenarioFolder(folder).notion, (n, 'key'))}: duplicate page key {page.key!r}"
            )
        keys.add(page.key)
    for n, replay in enumerate(scenario.offline_replays):
        if not ScenarioFolder(folder).replay(replay).is_file():
            where = _at(folder / SCENARIO_FILE, ("offline_replays", n))
            raise BadInputError(f"{where}: offline_replays: no replays/{replay}.yaml")


def _at(path: Path, loc: tuple[int | str, ...]) -> str:
    """`FILE:LINE:COLUMN` of the entry `loc` names, for a cross-file mistake found after validation."""
    return f"{path}{yaml_position(path, loc)}"
