"""The files a run leaves behind, as types: `run.json` (what was asked) and each `results.jsonl` line
(what one trial did and how it was graded). `evals.records.rundir.RunDir` reads and writes them.

Everything after the trials (aggregate, compare, verdict, summary, report, baseline, merge) reads
these types, never loose dictionaries, so a renamed or missing field fails where the file is read,
naming it, instead of surfacing as a `KeyError` three stages later.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field

from evals.core.model import StrictModel
from evals.core.untrusted import COMMIT, SCENARIO_NAME
from evals.grade.result import TrialGrade

# A scenario name as a run's files may carry it: no link, markup or line break reaches the report
# or the log through one (evals/core/untrusted.py).
ScenarioName = Annotated[str, Field(pattern=SCENARIO_NAME)]

TrialStatus = Literal["ok", "error"]


class TrialMetrics(StrictModel):
    """How a trial got where it did (evals/agents/trajectory.py) and what it cost, agent and judge apart.

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
    refusal_category: str | None = Field(
        default=None,
        exclude_if=lambda category: category is None,
        description="the API's category of the refusal that ended the trial (termination `refusal`)",
    )
    latency_s: float = 0.0
    cost_usd: float | None = None
    input_tokens: int = 0
    output_tokens: int = 0
    cache_read_input_tokens: int = 0
    cache_creation_input_tokens: int = 0
    judge_input_tokens: int = 0
    judge_output_tokens: int = 0
    judge_cost_usd: float = 0.0

    @property
    def total_cost_usd(self) -> float:
        """What the trial cost in all, the agent's model calls and the judge's (replays cost nothing)."""
        return float(self.cost_usd or 0.0) + float(self.judge_cost_usd or 0.0)


class TrialRecord(StrictModel):
    """One line of results.jsonl: a finished trial. `status: error` is an infrastructure failure,
    counted but never scored; `ok` carries the grade."""

    scenario: ScenarioName
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


class RunMeta(StrictModel):
    """run.json: what a run was asked to do, written before the first trial and updated as it grows
    (adaptive trials, resumes). Post-run commands rebuild the eval definition from it, never the agent."""

    agent: str = ""
    agent_spec: str = ""
    trials: int = Field(ge=1)
    scenarios: list[ScenarioName] = Field(min_length=1)
    commit: str = Field(default="", pattern=COMMIT)
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
    # Trials a scenario plans when allocation by measured noise (evals/gate/allocate.py) gave it fewer
    # than `trials`: a quiet task starts at one and earns more only when a trial differs.
    scenario_trials: dict[ScenarioName, int] | None = None
    # The run's k when allocation started its noisy tasks below it: it looks after every trial up to
    # it (evals/gate/sequential.py `next_look`), resumed and continued alike
    ramp: int | None = None
    trials_budget: int | None = None
    budget_usd: float | None = None
    spent_usd: float | None = None
    stopped_by_budget: bool | None = None
    # Planned trials the budget kept from starting ("scenario#trial"): the only planned trials that
    # may lack a record (evals/records/validate.py); written only when the budget stopped the run.
    skipped: list[str] | None = None
    resumed: list[str] = Field(default_factory=list)
    # When the run was continued after an inconclusive verdict (`run --continue`, `/evals continue`):
    # each continuation extends the same sequential test (evals/gate/sequential.py: `continued`).
    continued: list[str] | None = None
    merged_from: list[str] = Field(default_factory=list)
    # On a PR: eval-definition files the PR edits, listed in the report but not used for its verdict.
    definition_changes: list[str] | None = None

    def dump(self) -> dict[str, Any]:
        """The JSON written to run.json: unset optional fields are left out, as a person would."""
        return self.model_dump(mode="json", exclude_none=True)
