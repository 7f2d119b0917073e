"""The one config file at the repository root (`evals.yaml`): defaults every command starts from.

Validated strictly (unknown keys are errors) because a misspelt `threshhold` silently ignored would
make the gate lie about what it checks.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from evals.loading import load_model

CONFIG_FILE = "evals.yaml"


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Threshold(Strict):
    """How far the total may drop below the baseline before the gate fails: points or percent of max."""

    points: float | None = Field(default=None, ge=0)
    percent: float | None = Field(default=None, ge=0, le=100)

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


class JudgeConfig(Strict):
    model: str = Field(min_length=1)
    max_tokens: int = Field(default=1024, gt=0)
    cache_dir: str = ".evals-cache/judge"
    concurrency: int = Field(default=4, ge=1, le=32, description="judge calls in flight at once")
    max_retries: int = Field(default=2, ge=0, le=10, description="SDK retries on 429/5xx per call")
    timeout_s: float = Field(default=60.0, gt=0, description="per-request timeout in seconds")


class Config(Strict):
    suite: list[str] = Field(min_length=1, description="scenarios `run` uses when --scenario is not given")
    trials: int = Field(gt=0, le=1000)
    agent: str = Field(
        default="auto",
        description="auto = claude when ANTHROPIC_API_KEY is set, else the scenario's offline replays",
    )
    threshold: Threshold
    judge: JudgeConfig
    pricing: str = "pricing.yaml"
    baseline: str = "baseline/baseline.json"
    missing_baseline: Literal["notice", "error"] = "notice"
    runs_dir: str = "runs"
    scenarios_dir: str = "scenario"


def load_config(root: Path, path: Path | None = None) -> tuple[Config, Path]:
    """Load the config; relative paths in it are resolved against the folder that holds it."""
    config_path = path or (root / CONFIG_FILE)
    return load_model(Config, config_path), config_path.parent
