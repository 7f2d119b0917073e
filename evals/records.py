"""The files a run leaves behind, as types: `run.json` (what was asked) and each `results.jsonl` line
(what one trial did and how it was graded).

Everything after the trials (aggregate, compare, verdict, summary, report, baseline, merge) reads
these types, never loose dictionaries, so a renamed or missing field fails where the file is read,
naming it, instead of surfacing as a `KeyError` three stages later.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from evals.errors import BadInputError
from evals.grade.result import TrialGrade
from evals.jsonio import read_lines
from evals.loading import describe_validation_error, read_json_object

TrialStatus = Literal["ok", "error"]


class Record(BaseModel):
    model_config = ConfigDict(extra="forbid")


class TrialMetrics(Record):
    """How a trial got where it did (evals/trajectory.py) and what it cost, agent and judge apart.

    Every field has a default: a trial no shard delivered has no metrics at all, and an errored
    trial has only what the agent did before it failed.
    """

    turns: int = 0
    tool_calls: int = 0
    tool_errors: int = 0
    tool_error_rate: float = 0.0
    stuck: bool = False
    missing_tools: list[str] = Field(default_factory=list)
    termination: str | None = None
    latency_s: float = 0.0
    cost_usd: float | None = None
    input_tokens: int = 0
    output_tokens: int = 0
    cache_read_input_tokens: int = 0
    cache_creation_input_tokens: int = 0
    judge_input_tokens: int = 0
    judge_output_tokens: int = 0
    judge_cost_usd: float = 0.0


class TrialRecord(Record):
    """One line of results.jsonl: a finished trial. `status: error` is an infrastructure failure,
    counted but never scored; `ok` carries the grade."""

    scenario: str
    trial: int = Field(ge=0)
    status: TrialStatus
    agent: str = ""
    error: str | None = None
    grade: TrialGrade | None = None
    metrics: TrialMetrics = Field(default_factory=TrialMetrics)
    backend: str | None = None

    @property
    def graded(self) -> bool:
        return self.status == "ok" and self.grade is not None


class RunMeta(Record):
    """run.json: what a run was asked to do, written before the first trial and updated as it grows
    (adaptive trials, resumes). Post-run commands rebuild the eval definition from it, never the agent."""

    agent: str = ""
    agent_spec: str = ""
    trials: int = Field(ge=1)
    scenarios: list[str] = Field(min_length=1)
    commit: str = ""
    started: str = ""
    agent_config_hash: str = ""
    judge_model: str = ""
    world: str = "sandbox"
    # Which instance of each parameterised task ran (evals/scenario/params.py): None is instance 0,
    # the fixed one PRs and the committed baseline use; the nightly draws a fresh seed.
    instance_seed: int | None = None
    threshold: dict[str, float | None] = Field(default_factory=dict)
    trial_slice: str | None = None
    trials_started: int | None = None
    trials_budget: int | None = None
    budget_usd: float | None = None
    spent_usd: float | None = None
    stopped_by_budget: bool | None = None
    resumed: list[str] = Field(default_factory=list)
    merged_from: list[str] = Field(default_factory=list)
    # On a PR: eval-definition files the PR edits, listed in the report but not used for its verdict.
    definition_changes: list[str] | None = None

    def dump(self) -> dict[str, Any]:
        """The JSON written to run.json: unset optional fields are left out, as a person would."""
        return self.model_dump(mode="json", exclude_none=True)


RUN_FILE = "run.json"


def read_meta(run_dir: Path) -> RunMeta:
    """A run directory's run.json; a folder without one is not a run (say where runs usually are)."""
    path = run_dir / RUN_FILE
    data = read_json_object(
        path, "not a run directory (no run.json); runs are written under runs/ by `evals run`"
    )
    try:
        return RunMeta.model_validate(data)
    except ValidationError as exc:
        raise BadInputError(describe_validation_error(path, exc)) from exc


def _torn(exc: ValidationError) -> bool:
    """The line is not JSON at all: a write the process died in the middle of (jsonio.read_jsonl)."""
    return all(error["type"] == "json_invalid" for error in exc.errors())


def read_records(results: Path) -> list[TrialRecord]:
    """Finished trials, one per (scenario, trial), in that order: a later line for a trial wins
    (a resumed or re-graded trial is appended again rather than rewritten in place). A line that
    is not JSON (a torn last write) is skipped, as `read_jsonl` does; a JSON line that is not a
    trial record is bad input, named by its line."""
    latest: dict[tuple[str, int], TrialRecord] = {}
    for n, line in enumerate(read_lines(results), start=1):
        try:
            record = TrialRecord.model_validate_json(line)
        except ValidationError as exc:
            if _torn(exc):
                continue
            raise BadInputError(describe_validation_error(Path(f"{results}: line {n}"), exc)) from exc
        latest[(record.scenario, record.trial)] = record
    return [latest[key] for key in sorted(latest)]
