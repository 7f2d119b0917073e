"""The blessed baseline (`baseline/baseline.json`): its format, reading, writing and partial update.

The baseline keeps per-trial, per-part points, not only means: the gate's confidence interval needs
the raw draws. It also keeps the eval-definition fingerprint (a baseline graded by another rubric
is not comparable), the agent config hash, and the commit and date it came from; and, for each
guard part, a *guard history*: the full-marks counts of this bless and of the blesses before it
while the part's definition stayed the same (evals/baseline/bless.py), because six trials are too few to see
a guard fall (evals/gate/guards.py). Written atomically and read back before it replaces the old one; a
corrupt file is bad input (exit 2), a missing one is a notice unless config says otherwise. Making
one from a run is evals/baseline/bless.py.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pydantic import Field, ValidationError, field_validator, model_validator

from evals.core.errors import BadInputError
from evals.core.jsonio import dumps_pretty, write_text_atomic
from evals.core.loading import describe_validation_error
from evals.core.model import FrozenModel, StrictModel
from evals.gate.aggregate import UsageStats

BASELINE_VERSION = 1


class BaselineTrial(StrictModel):
    trial: int
    total: float
    parts: dict[str, float | None]


class GuardSample(FrozenModel):
    """One blessed run's full-marks count for one guard part: a unit of the guard history.

    Keyed by the run it came from (its directory name and start time), so blessing the same run
    twice replaces its sample instead of counting its trials again."""

    run: str = Field(min_length=1, description="the blessed run's directory name")
    started: str = Field(description="when that run started (with `run`, the sample's key)")
    passed: int = Field(ge=0, description="trials with full marks on the part")
    trials: int = Field(ge=1, description="trials in which the part was scored")

    @model_validator(mode="after")
    def _passed_within_trials(self) -> GuardSample:
        if self.passed > self.trials:
            raise ValueError(f"passed ({self.passed}) is more than trials ({self.trials})")
        return self

    @property
    def key(self) -> tuple[str, str]:
        return (self.run, self.started)


def recent(samples: Sequence[GuardSample], max_trials: int) -> list[GuardSample]:
    """The newest samples (the list is newest first) whose trials add up to at most `max_trials`;
    the newest one always, so a window smaller than one bless still holds that bless."""
    kept: list[GuardSample] = []
    total = 0
    for sample in samples:
        if kept and total + sample.trials > max_trials:
            break
        kept.append(sample)
        total += sample.trials
    return kept


class BaselineScenario(StrictModel):
    k: int = Field(ge=0)
    max_points: int
    total_mean: float | None
    total_stdev: float | None = None
    criteria: dict[str, float | None]
    criteria_pass_rate: dict[str, float | None] = Field(default_factory=dict)
    categories: dict[str, float | None]
    categories_pass_rate: dict[str, float | None] = Field(default_factory=dict)
    parts: dict[str, float | None]
    trials: list[BaselineTrial]
    pass_at_1: float | None = None
    pass_at_k: float | None = None
    pass_pow_k: float | None = None
    usage: UsageStats | None = None
    guard_history: dict[str, list[GuardSample]] = Field(
        default_factory=dict,
        description="per guard part, newest first: this bless's full-marks count, then earlier blesses' "
        "while the part's definition was unchanged (absent in baselines blessed before it existed)",
    )

    @field_validator("guard_history")
    @classmethod
    def _each_run_once(cls, value: dict[str, list[GuardSample]]) -> dict[str, list[GuardSample]]:
        for part, samples in value.items():
            keys = [s.key for s in samples]
            twice = sorted({k for k in keys if keys.count(k) > 1})
            if twice:
                runs = ", ".join(f"{run} ({started})" for run, started in twice)
                raise ValueError(f"guard history of {part} counts a run more than once: {runs}")
        return value

    @field_validator("usage", mode="before")
    @classmethod
    def _no_usage(cls, value: object) -> object:
        return None if value == {} else value  # baselines blessed before usage was recorded


class Baseline(StrictModel):
    version: int
    created: str
    source: dict[str, str]
    agent: dict[str, str]
    fingerprint: dict[str, Any]
    scenarios: dict[str, BaselineScenario]


def _parse(path: Path, text: str) -> Baseline:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise BadInputError(f"{path}: corrupt baseline: {exc}") from exc
    try:
        baseline = Baseline.model_validate(data)
    except ValidationError as exc:
        raise BadInputError(describe_validation_error(path, exc)) from exc
    if baseline.version != BASELINE_VERSION:
        raise BadInputError(
            f"{path}: baseline version {baseline.version}, this tool reads {BASELINE_VERSION}"
        )
    return baseline


def load_baseline(path: Path) -> Baseline | None:
    if not path.exists():
        return None
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise BadInputError(f"{path}: corrupt baseline: {exc}") from exc
    return _parse(path, text)


def merge_scenarios(existing: Baseline | None, new: Baseline, only: list[str]) -> Baseline:
    """`new` restricted to the scenarios in `only`, laid over `existing`: a partial bless.

    Lets a team bless one scenario (a new one, or one whose definition changed) without re-running
    the others. Each scenario keeps its own fingerprint entry, so comparability is still judged per
    scenario; the judge model is global, so a partial bless under another judge model is refused.
    """
    missing = [name for name in only if name not in new.scenarios]
    if missing:
        raise BadInputError(
            f"--scenario {', '.join(missing)}: not in the run (it has {', '.join(new.scenarios)})"
        )
    picked = {name: new.scenarios[name] for name in only}
    picked_fp = {name: new.fingerprint.get("scenarios", {}).get(name) for name in only}
    if existing is None:
        return new.model_copy(
            update={
                "scenarios": picked,
                "fingerprint": {**new.fingerprint, "scenarios": picked_fp},
            }
        )
    if existing.fingerprint.get("judge_model") != new.fingerprint.get("judge_model"):
        raise BadInputError(
            f"the run's judge model {new.fingerprint.get('judge_model')} differs from the baseline's "
            f"{existing.fingerprint.get('judge_model')}: bless every scenario, not a part of the baseline"
        )
    return new.model_copy(
        update={
            "scenarios": {**existing.scenarios, **picked},
            "fingerprint": {
                **existing.fingerprint,
                "scenarios": {**existing.fingerprint.get("scenarios", {}), **picked_fp},
            },
        }
    )


def write_baseline(path: Path, baseline: Baseline) -> None:
    """Validate the exact bytes first, then swap them in atomically: a reader never sees half a file."""
    # exclude_unset: a scenario read from an older baseline is written back exactly as it was read
    text = dumps_pretty(baseline.model_dump(mode="json", exclude_unset=True))
    _parse(path, text)
    write_text_atomic(path, text)
