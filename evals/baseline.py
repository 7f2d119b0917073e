"""The blessed baseline (`baseline/baseline.json`) and the nightly history (`baseline/history.jsonl`).

The baseline keeps per-trial, per-part points, not only means: the gate's confidence interval needs
the raw draws. It also keeps the eval-definition fingerprint (a baseline graded by another rubric
is not comparable), the agent config hash, and the commit and date it came from. Written atomically
and read back before it replaces the old one; a corrupt file is bad input (exit 2), a missing one
is a notice unless config says otherwise.

History is one JSON line per nightly run (totals and spread per scenario), so a slow drift shows up
even when no single night crossed the threshold. Appending the same run twice is a no-op.
"""

from __future__ import annotations

import json
import subprocess
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from evals.errors import BadInputError
from evals.jsonio import append_jsonl, digest, dumps_pretty, read_jsonl, write_text_atomic
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
    usage: dict[str, Any] = Field(default_factory=dict)


class Baseline(BaseModel):
    model_config = ConfigDict(extra="forbid")

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


def git_commit(root: Path) -> str:
    try:
        out = subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=root, capture_output=True, text=True, check=False
        )
    except OSError:
        return ""
    return out.stdout.strip() if out.returncode == 0 else ""


def _now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def check_blessable(summary: dict[str, Any], results: list[dict[str, Any]], run_dir: Path) -> None:
    """Refuse runs that would make a misleading baseline: errored, empty, or missing a scenario."""
    if summary.get("verdict") == "error":
        raise BadInputError(f"{run_dir}: the run's verdict is error; not blessing it")
    for name, agg in summary.get("scenarios", {}).items():
        if not any(r["scenario"] == name and r["status"] == "ok" and r.get("grade") for r in results):
            raise BadInputError(f"{run_dir}: scenario {name} has no graded trial; not blessing it")
        if agg.get("total", {}).get("mean") is None:
            raise BadInputError(f"{run_dir}: scenario {name} has no scored part; not blessing it")


def baseline_from_run(summary: dict[str, Any], results: list[dict[str, Any]], run_dir: Path) -> Baseline:
    check_blessable(summary, results, run_dir)
    scenarios = {}
    for name, agg in summary["scenarios"].items():
        trials = [
            BaselineTrial(
                trial=r["trial"],
                total=r["grade"]["total"],
                parts={p["id"]: p["score"] for p in r["grade"]["parts"]},
            )
            for r in results
            if r["scenario"] == name and r["status"] == "ok" and r.get("grade")
        ]
        scenarios[name] = BaselineScenario(
            k=agg["k"],
            max_points=agg["max_points"],
            total_mean=agg["total"]["mean"],
            total_stdev=agg["total"].get("stdev"),
            criteria={c: v["mean"] for c, v in agg["criteria"].items()},
            criteria_pass_rate={c: v.get("pass_rate") for c, v in agg["criteria"].items()},
            categories={c: v["mean"] for c, v in agg["categories"].items()},
            categories_pass_rate={c: v.get("pass_rate") for c, v in agg["categories"].items()},
            parts={p: v["mean"] for p, v in agg["parts"].items()},
            trials=trials,
            pass_at_1=agg["pass_at_1"],
            pass_at_k=agg.get("pass_at_k"),
            pass_pow_k=agg.get("pass_pow_k"),
            usage=agg["usage"],
        )
    run = summary["run"]
    return Baseline(
        version=BASELINE_VERSION,
        created=_now(),
        source={
            "commit": run.get("commit", ""),
            "date": run.get("started", ""),
            "run": run_dir.name,
            "run_started": run.get("started", ""),
        },
        agent={"spec": run.get("agent", ""), "config_hash": run.get("agent_config_hash", "")},
        fingerprint=summary["fingerprint"],
        scenarios=scenarios,
    )


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
    text = dumps_pretty(baseline.model_dump(mode="json"))
    _parse(path, text)
    write_text_atomic(path, text)


def history_entry(summary: dict[str, Any], run_dir: Path) -> dict[str, Any]:
    """One line of history.jsonl: enough to plot totals and spread per night without the run dir."""
    run = summary["run"]
    return {
        "run": run_dir.name,
        "started": run.get("started", ""),
        "recorded": _now(),
        "commit": run.get("commit", ""),
        "agent_config_hash": run.get("agent_config_hash", ""),
        "fingerprint": digest(summary.get("fingerprint", {})),
        "verdict": summary.get("verdict"),
        "total": {
            **{k: summary["total"].get(k) for k in ("mean", "max", "baseline", "delta")},
            "ci": (summary.get("gate") or {}).get("ci"),
        },
        "scenarios": {
            name: {
                "k": agg["k"],
                "errored": agg["errored"],
                "mean": agg["total"]["mean"],
                "stdev": agg["total"].get("stdev"),
                "per_trial": agg["total"].get("per_trial", []),
                "pass_at_1": agg.get("pass_at_1"),
                "pass_at_k": agg.get("pass_at_k"),
                "pass_pow_k": agg.get("pass_pow_k"),
                "cost_usd": agg.get("usage", {}).get("cost_usd"),
            }
            for name, agg in summary["scenarios"].items()
        },
    }


def append_history(path: Path, entry: dict[str, Any]) -> bool:
    """Append one night's line; False when that run is already recorded (reruns of a job are safe)."""
    for line in read_jsonl(path):
        if line.get("run") == entry["run"] and line.get("started") == entry["started"]:
            return False
    append_jsonl(path, entry)
    return True
