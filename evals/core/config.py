"""The one config file at the repository root (`evals.yaml`): defaults every command starts from.

Validated strictly (unknown keys are errors) because a misspelt `threshhold` silently ignored would
make the gate lie about what it checks.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal, get_args

from pydantic import BaseModel, Field, ValidationError, ValidationInfo, field_validator, model_validator

from evals.core.claude_models import refusals
from evals.core.errors import BadInputError
from evals.core.loading import Located, error_loc, error_message, read_data, yaml_position
from evals.core.model import FrozenModel
from evals.core.suggest import did_you_mean

CONFIG_FILE = "evals.yaml"


class Threshold(FrozenModel):
    """How far the total may drop below the baseline before the gate fails: points or percent of max."""

    points: float | None = Field(default=None, ge=0)
    percent: float | None = Field(default=None, ge=0, le=100)
    per_scenario: bool = Field(
        default=False,
        description="also hold every scenario to the threshold on its own points (Bonferroni across the "
        "run's scenarios), so a percent of a suite's total cannot hide one task's regression",
    )

    @model_validator(mode="after")
    def _exactly_one(self) -> Threshold:
        if (self.points is None) == (self.percent is None):
            raise ValueError("set exactly one of `points` or `percent`")
        return self

    def allowed_drop(self, max_points: float) -> float:
        if self.points is not None:
            return self.points
        assert self.percent is not None
        return max_points * self.percent / 100.0

    def scenario_drops(self, points: Mapping[str, float]) -> dict[str, float] | None:
        """Each scenario's own allowed drop (`allowed_drop` of its points) when `per_scenario` is set
        and the run has several, else None: the total alone is gated."""
        if not self.per_scenario or len(points) < 2:
            return None  # one scenario: its test is the total's
        return {name: self.allowed_drop(p) for name, p in points.items()}


class GateConfig(FrozenModel):
    """How the gate tells a regression from noise (see evals/gate/stats.py and evals/gate/verdict.py).

    A drop past the threshold is a regression only when the confidence interval of the change lies
    wholly below zero; while that is undecided `run` adds trials at fixed looks (evals/gate/sequential.py),
    up to `max_trials` per scenario, and if the noise still explains the drop the verdict is
    `inconclusive`. Guard parts are tested on their own (evals/gate/guards.py), against a history pooled
    over the last blesses (evals/baseline/bless.py).
    """

    confidence: float = Field(default=0.88, gt=0.5, lt=1, description="two-sided confidence of the interval")
    interim_confidence: float = Field(
        default=0.998, gt=0.5, lt=1, description="an interim look calls a regression only past this interval"
    )
    pass_confidence: float = Field(
        default=0.6, gt=0, lt=1, description="an interim look passes when this interval is above −threshold"
    )
    max_trials: int = Field(default=15, ge=0, le=1000, description="trial budget per scenario; 0 = never add")
    allocate: bool = Field(
        default=True,
        description="a scenario whose score never varied in the baseline and history starts at one trial "
        "and earns more only when a trial differs (evals/gate/allocate.py); not for replays",
    )
    min_trials: int = Field(
        default=6, ge=1, le=1000, description="the second look: an undecided run grows to this k"
    )
    look_every: int = Field(
        default=3, ge=1, le=1000, description="after `min_trials`, look again every this many trials"
    )
    max_changed_percent: float = Field(
        default=20, ge=0, le=100, description="changed parts above this share of points: not-comparable"
    )
    max_unscored_percent: float = Field(
        default=10,
        ge=0,
        le=100,
        description="a run whose unscored points (part × trial, of parts the baseline scored) exceed this "
        "share of its points cannot pass: it is `error`, unmeasured (evals/gate/compare.py)",
    )
    guard_alpha: float = Field(default=0.05, gt=0, lt=1, description="Holm-adjusted level of the guard tests")
    quiet_alpha: float = Field(
        default=0.0,
        ge=0,
        lt=1,
        description="level of the quiet-task test (a task that never varied in the baseline scores less), "
        "Bonferroni across the compared scenarios; 0 = off (evals/gate/quiet.py)",
    )
    guard_history_trials: int = Field(
        default=30,
        ge=0,
        le=10000,
        description="a guard's baseline side pools the newest blesses up to this many trials "
        "(evals/baseline/bless.py; 30 = 5 nightly blesses of 6); 0 = the last baseline's own trials only",
    )
    power: float = Field(default=0.8, gt=0.5, lt=1, description="for the smallest drop this k can detect")
    prior_sd_percent: float = Field(
        default=8.0, gt=0, le=100, description="noise σ (percent of max) when no side has 2 trials"
    )


class Budget(FrozenModel):
    """What one run may spend, agent and judge together (USD). No new trial starts once the spend
    reaches it, so a run ends at most one concurrent batch past it; None: no money limit."""

    usd: float | None = Field(default=None, gt=0, description="USD per run, starting trials included")


class JudgeConfig(FrozenModel):
    model: str = Field(min_length=1)
    max_tokens: int = Field(default=1024, gt=0)
    cache_dir: str = ".evals-cache/judge"
    concurrency: int = Field(default=4, ge=1, le=32, description="judge calls in flight at once")
    max_retries: int = Field(default=2, ge=0, le=10, description="SDK retries on 429/5xx per call")
    timeout_s: float = Field(default=60.0, gt=0, description="per-request timeout in seconds")
    temperature: float | None = Field(
        default=0.0, ge=0, le=1, description="null: send none (the only choice for models that reject it)"
    )
    min_agreement: float = Field(
        default=0.8, ge=0, le=1, description="the drift alarm's floor: raw agreement with the labelled set"
    )

    @field_validator("temperature")
    @classmethod
    def _model_takes_it(cls, value: float | None, info: ValidationInfo) -> float | None:
        """A judge model documented to reject sampling would answer every call with a 400."""
        for _, why in refusals(str(info.data.get("model", "")), temperature=value):
            raise ValueError(why)
        return value


class AgentLimits(FrozenModel):
    """Floors for the limits in agent/agent.yaml that decide whose failure a trial is. A failure after
    the definition's patience (this request timeout, this many retries) is the service's, an
    infrastructure error; a PR that asks for less gets these, so it cannot turn the model's slow
    answers into errors the score leaves out (evals/agents/config.py)."""

    timeout_s: float = Field(default=600.0, gt=0, description="per model request, at least")
    max_retries: int = Field(default=4, ge=0, le=20, description="SDK retries on 429, 529, 5xx, at least")


class Config(FrozenModel):
    suite: list[str] = Field(
        min_length=1,
        description="scenarios `run` uses without --scenario; in the file a list or a suite's name",
    )
    suites: dict[str, list[str]] = Field(
        default_factory=dict, description="named task sets (smoke for PRs, full for the nightly)"
    )
    trials: int = Field(gt=0, le=1000)
    agent: str = Field(
        default="auto",
        description="auto = claude when ANTHROPIC_API_KEY is set, else the scenario's offline replays",
    )
    threshold: Threshold
    gate: GateConfig = GateConfig()
    agent_limits: AgentLimits = AgentLimits()
    budget: Budget = Budget()
    judge: JudgeConfig
    pricing: str = "pricing.yaml"
    baseline: str = "baseline/baseline.json"
    missing_baseline: Literal["notice", "error"] = "notice"
    concurrency: int = Field(default=4, ge=1, le=256, description="trials running at once (--concurrency)")
    max_error_share: float = Field(
        default=0.5,
        ge=0,
        le=1,
        description="verdict is error when more than this share of a scenario's trials errored",
    )
    runs_dir: str = "runs"
    scenarios_dir: str = "scenario"

    @model_validator(mode="before")
    @classmethod
    def _suite_by_name(cls, data: object) -> object:
        """`suite: smoke` is the list `suites.smoke`, so the default run and the PRs share one list."""
        if isinstance(data, dict) and isinstance(data.get("suite"), str):
            suites = data.get("suites")
            name = data["suite"]
            if not isinstance(suites, dict) or name not in suites:
                known = list(suites) if isinstance(suites, dict) else []
                raise Located(
                    ("suite",),
                    f"{name!r} is not a suite under `suites:`{did_you_mean(name, known)} "
                    f"(known: {', '.join(known) or 'none'})",
                )
            return {**data, "suite": suites[name]}
        return data

    @model_validator(mode="after")
    def _suites_not_empty(self) -> Config:
        for name, members in self.suites.items():
            if not members:
                raise Located(("suites", name), "a suite needs at least one scenario")
        return self

    def suite_named(self, name: str) -> list[str]:
        """The scenarios of suite `name` (`--suite NAME`); an unknown name is bad input."""
        if name not in self.suites:
            known = ", ".join(self.suites) or "none"
            raise BadInputError(
                f"--suite {name}: no such suite in {CONFIG_FILE}{did_you_mean(name, self.suites)} "
                f"(known: {known})"
            )
        return list(self.suites[name])


def _keys_at(loc: tuple[int | str, ...]) -> list[str]:
    """The keys the config allows in the mapping at `loc` (for "did you mean")."""
    model: Any = Config
    for part in loc:
        field = model.model_fields.get(part) if isinstance(part, str) else None
        if field is None:
            return []
        candidates = [field.annotation, *get_args(field.annotation)]
        model = next((c for c in candidates if isinstance(c, type) and issubclass(c, BaseModel)), None)
        if model is None:
            return []
    return list(model.model_fields)


def _misspelt(errors: list[Any]) -> set[tuple[int | str, ...]]:
    """Required keys reported missing only because an unknown key next to them is their misspelling
    (`trails: 3`): the "Field required" line would send a person looking for the wrong mistake."""
    meant = set()
    for err in errors:
        loc = tuple(err["loc"])
        if err["type"] == "extra_forbidden" and loc:
            close = difflib.get_close_matches(str(loc[-1]), _keys_at(loc[:-1]), n=1)
            meant |= {(*loc[:-1], c) for c in close}
    return meant


def describe_config_error(path: Path, exc: ValidationError) -> str:
    """One line per problem, `FILE:LINE:COLUMN: key: what`, with "did you mean" for unknown keys."""
    lines = []
    errors = exc.errors()
    misspelt = _misspelt(errors)
    for err in errors:
        loc = error_loc(err)
        if err["type"] == "missing" and loc in misspelt:
            continue
        where = ".".join(str(part) for part in loc) or "(top level)"
        message = error_message(err)
        if err["type"] == "extra_forbidden" and loc:
            keys = _keys_at(loc[:-1])
            message = f"unknown key{did_you_mean(str(loc[-1]), keys)} (allowed here: {', '.join(keys)})"
        lines.append(f"{path}{yaml_position(path, loc)}: {where}: {message}")
    return "\n".join(lines)


def _check_suites(config: Config, path: Path) -> None:
    """Every scenario a suite names has a folder under `scenarios_dir`: a typo is reported at its
    line of evals.yaml, not as a missing file in a folder that was never meant to exist."""
    root = path.parent / config.scenarios_dir
    known = sorted(p.name for p in root.iterdir() if p.is_dir()) if root.is_dir() else []
    problems = []
    for suite, members in config.suites.items():
        for n, name in enumerate(members):
            if name not in known:
                where = f"{path}{yaml_position(path, ('suites', suite, n))}"
                problems.append(
                    f"{where}: suites.{suite}: no scenario {name!r} in {config.scenarios_dir}/"
                    f"{did_you_mean(name, known)}"
                )
    for n, name in enumerate(config.suite):
        if name not in known and not any(name in members for members in config.suites.values()):
            where = f"{path}{yaml_position(path, ('suite', n))}"
            problems.append(
                f"{where}: suite: no scenario {name!r} in {config.scenarios_dir}/{did_you_mean(name, known)}"
            )
    if problems:
        raise BadInputError("\n".join(problems))


def load_config(root: Path, path: Path | None = None) -> tuple[Config, Path]:
    """Load the config; relative paths in it are resolved against the folder that holds it."""
    config_path = path or (root / CONFIG_FILE)
    try:
        config = Config.model_validate(read_data(config_path))
    except ValidationError as exc:
        raise BadInputError(describe_config_error(config_path, exc)) from exc
    _check_suites(config, config_path)
    return config, config_path.parent
