"""A scenario's rubric as data (`scenario/<name>/rubric.yaml`), validated against the check registry.

Criteria are what reports show (C1..C20, T1..T5); each has one or more *parts*, the unit that is
scored: binary when decided by code alone, 0..points when a judge decides after code passed.
Splitting partial credit into named parts keeps every point traceable to one assertion.

A loaded rubric carries the registry its names resolve in: the package's vocabulary plus the
checks the scenario brings in its own folder (`<scenario>.<check>`), so grading looks names up in
the rubric's own registry and one scenario's checks are never visible to another.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from pydantic import ConfigDict, Field, PrivateAttr, model_validator

from evals.core.errors import BadInputError
from evals.core.loading import Located, load_model, yaml_position
from evals.core.model import FrozenModel
from evals.core.suggest import did_you_mean
from evals.grade.checks import VOCABULARY
from evals.grade.registry import Registry, RegistryError, bad_params, load_scenario_checks
from evals.scenario.folder import ScenarioFolder
from evals.scenario.params import instance_zero


class Strict(FrozenModel):
    model_config = ConfigDict(populate_by_name=True)


class CheckRef(Strict):
    check: str
    params: dict[str, object] = Field(default_factory=dict, alias="with")


class JudgeRef(Strict):
    prompt: str = Field(description="prompt file, relative to the scenario folder")
    evidence: str
    params: dict[str, object] = Field(default_factory=dict, alias="with")


class Part(Strict):
    id: str
    points: int = Field(gt=0)
    description: str = ""
    checks: list[CheckRef] = Field(default_factory=list)
    requires: list[str] = Field(default_factory=list, description="parts whose layer 1 must pass first")
    judge: JudgeRef | None = None
    guard: bool = Field(
        default=False,
        description="may never regress: its pass rate is gated on its own (evals/gate/guards.py)",
    )
    decisive: bool = Field(
        default=False,
        description="a serious violation (data leaving the company, a policy exception granted, a withheld "
        "change shipped, another owner's work touched, a source of truth rewritten): failing it fails "
        "the trial whatever else scored",
    )

    @model_validator(mode="after")
    def _decidable(self) -> Part:
        if not self.checks and not self.requires and self.judge is None:
            raise ValueError(f"part {self.id} has neither checks nor a judge")
        if self.judge is None and self.points != 1:
            raise ValueError(f"part {self.id}: a code-only part is binary; split it into parts of 1 point")
        return self


class Criterion(Strict):
    id: str
    title: str
    category: str
    parts: list[Part] = Field(min_length=1)

    @property
    def points(self) -> int:
        return sum(p.points for p in self.parts)


class Category(Strict):
    title: str


class Rubric(Strict):
    max_points: int = Field(gt=0)
    pass_threshold: int = Field(gt=0, description="a trial passes with total >= this")
    categories: dict[str, Category]
    criteria: list[Criterion] = Field(min_length=1)
    _registry: Registry = PrivateAttr(default=VOCABULARY)

    @property
    def registry(self) -> Registry:
        """Where this rubric's check and evidence names resolve (set by `load_rubric`)."""
        return self._registry

    @model_validator(mode="after")
    def _consistent(self) -> Rubric:
        """Cross-field rules, each raised at the field it is about (`Located`), so the error names
        that line of rubric.yaml rather than the top of the file."""
        total = sum(c.points for c in self.criteria)
        if total != self.max_points:
            raise Located(
                ("max_points",), f"criteria add up to {total} points, max_points says {self.max_points}"
            )
        if self.pass_threshold > self.max_points:
            raise Located(("pass_threshold",), "pass_threshold is above max_points")
        seen: set[str] = set()
        for c, criterion in enumerate(self.criteria):
            if criterion.category not in self.categories:
                known = ", ".join(self.categories)
                raise Located(
                    ("criteria", c, "category"),
                    f"{criterion.id}: unknown category {criterion.category!r} (categories: {known})",
                )
            for n, part in enumerate(criterion.parts):
                if part.id in seen:
                    raise Located(("criteria", c, "parts", n, "id"), f"duplicate part id {part.id}")
                for r, required in enumerate(part.requires):
                    if required not in seen:
                        raise Located(
                            ("criteria", c, "parts", n, "requires", r),
                            f"{part.id}: requires {required!r}, which is not an earlier part",
                        )
                seen.add(part.id)
        return self

    def parts(self) -> list[tuple[Criterion, Part]]:
        return [(c, p) for c in self.criteria for p in c.parts]

    def category_points(self) -> dict[str, int]:
        out = dict.fromkeys(self.categories, 0)
        for criterion in self.criteria:
            out[criterion.category] += criterion.points
        return out


RUBRIC_FILE = ScenarioFolder.RUBRIC


def scenario_registry(scenario_dir: Path, vocabulary: Registry = VOCABULARY) -> Registry:
    """The package's vocabulary plus the scenario's own checks; a clash is bad input."""
    try:
        return vocabulary.merged(load_scenario_checks(scenario_dir))
    except RegistryError as exc:
        raise BadInputError(f"{scenario_dir}: {exc}") from exc


def _check_refs(path: Path, rubric: Rubric, registry: Registry, scenario_dir: Path) -> None:
    """Every name the rubric uses exists in `registry`, with parameters its function accepts; a
    problem is reported at its line of rubric.yaml."""
    own = sorted(n for n in registry.checks if n.startswith(f"{scenario_dir.name}."))
    hint = f" (this scenario's own checks: {', '.join(own)})" if own else ""
    for c, criterion in enumerate(rubric.criteria):
        for n, part in enumerate(criterion.parts):
            here = ("criteria", c, "parts", n)
            for k, ref in enumerate(part.checks):
                fn = registry.checks.get(ref.check)
                problem = None if fn is None else bad_params(fn, dict(ref.params))
                if fn is None or problem:
                    # Located only on the error path: composing the file again costs a parse.
                    at = f"{path}{yaml_position(path, (*here, 'checks', k, 'check'))}: {part.id}"
                    if fn is None:
                        near = did_you_mean(ref.check, registry.checks)
                        raise BadInputError(f"{at}: unknown check {ref.check!r}{near}{hint}")
                    raise BadInputError(f"{at}: check {ref.check}: {problem}")
            if part.judge is not None:
                _check_judge(path, part, (*here, "judge"), registry, scenario_dir)


def _check_judge(
    path: Path, part: Part, loc: tuple[int | str, ...], registry: Registry, scenario_dir: Path
) -> None:
    assert part.judge is not None
    extractor = registry.evidence.get(part.judge.evidence)
    if extractor is None:
        at = f"{path}{yaml_position(path, (*loc, 'evidence'))}: {part.id}"
        near = did_you_mean(part.judge.evidence, registry.evidence)
        raise BadInputError(f"{at}: unknown evidence {part.judge.evidence!r}{near}")
    problem = bad_params(extractor, dict(part.judge.params))
    if problem:
        at = f"{path}{yaml_position(path, (*loc, 'evidence'))}: {part.id}"
        raise BadInputError(f"{at}: evidence {part.judge.evidence}: {problem}")
    if not (scenario_dir / part.judge.prompt).is_file():
        at = f"{path}{yaml_position(path, (*loc, 'prompt'))}: {part.id}"
        raise BadInputError(f"{at}: judge prompt not found: {part.judge.prompt}")


def load_rubric(
    scenario_dir: Path, vocabulary: Registry = VOCABULARY, render: Callable[[str], str] | None = None
) -> Rubric:
    """The scenario's rubric, its names checked against `vocabulary` plus the scenario's own checks.
    `render` fills a parameterised task's placeholders (its instance; default: instance 0) before the
    file is parsed."""
    path = scenario_dir / RUBRIC_FILE
    rubric = load_model(Rubric, path, render or instance_zero(scenario_dir).render)
    registry = scenario_registry(scenario_dir, vocabulary)
    _check_refs(path, rubric, registry, scenario_dir)
    rubric._registry = registry
    return rubric
