"""The blessed baseline (`baseline/baseline.json`): what a run is compared with.

It keeps per-trial, per-part points (so later statistics can use the raw draws, not only means),
the eval-definition fingerprint, the agent config hash, and where it came from. Written atomically;
a corrupt file is bad input (exit 2), a missing one is a notice unless config says otherwise.
"""

from __future__ import annotations

import json
import subprocess
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from evals.errors import BadInputError
from evals.jsonio import write_json
from evals.loading import describe_validation_error

BASELINE_VERSION = 1


class BaselineTrial(BaseModel):
    model_config = ConfigDict(extra="forbid")

    trial: int
    total: float
    parts: dict[str, float | None]


class BaselineScenario(BaseModel):
    model_config = ConfigDict(extra="forbid")

    k: int = Field(ge=0)
    max_points: int
    total_mean: float | None
    criteria: dict[str, float | None]
    categories: dict[str, float | None]
    parts: dict[str, float | None]
    trials: list[BaselineTrial]
    pass_at_1: float | None = None
    usage: dict[str, Any] = Field(default_factory=dict)


class Baseline(BaseModel):
    model_config = ConfigDict(extra="forbid")

    version: int
    created: str
    source: dict[str, str]
    agent: dict[str, str]
    fingerprint: dict[str, Any]
    scenarios: dict[str, BaselineScenario]


def load_baseline(path: Path) -> Baseline | None:
    if not path.exists():
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
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


def git_commit(root: Path) -> str:
    try:
        out = subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=root, capture_output=True, text=True, check=False
        )
    except OSError:
        return ""
    return out.stdout.strip() if out.returncode == 0 else ""


def baseline_from_run(summary: dict[str, Any], results: list[dict[str, Any]], run_dir: Path) -> Baseline:
    scenarios = {}
    for name, agg in summary["scenarios"].items():
        trials = [
            BaselineTrial(
                trial=r["trial"],
                total=r["grade"]["total"],
                parts={p["id"]: p["score"] for p in r["grade"]["parts"]},
            )
            for r in results
            if r["scenario"] == name and r["status"] == "ok"
        ]
        scenarios[name] = BaselineScenario(
            k=agg["k"],
            max_points=agg["max_points"],
            total_mean=agg["total"]["mean"],
            criteria={c: v["mean"] for c, v in agg["criteria"].items()},
            categories={c: v["mean"] for c, v in agg["categories"].items()},
            parts={p: v["mean"] for p, v in agg["parts"].items()},
            trials=trials,
            pass_at_1=agg["pass_at_1"],
            usage=agg["usage"],
        )
    run = summary["run"]
    return Baseline(
        version=BASELINE_VERSION,
        created=datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        source={"commit": run.get("commit", ""), "run": run_dir.name, "run_started": run.get("started", "")},
        agent={"spec": run.get("agent", ""), "config_hash": run.get("agent_config_hash", "")},
        fingerprint=summary["fingerprint"],
        scenarios=scenarios,
    )


def write_baseline(path: Path, baseline: Baseline) -> None:
    write_json(path, baseline.model_dump(mode="json"))
