"""`run`: seed a fresh world per trial, run the agent, grade, append the result, then gate and report.

Everything the user supplied (config, scenarios, rubrics, replays, baseline) is loaded and
validated in `plan()` before the run directory exists, so bad input exits 2 and writes nothing.
Each finished trial is appended to results.jsonl at once, so an interrupted run keeps its work.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from pathlib import Path

from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from evals.agents.base import AgentPrompts, AgentResult, RecordingToolset, Transcript, prompts_shown
from evals.agents.resolve import AgentChoice, resolve_agent
from evals.agents.trajectory import metrics
from evals.core.config import Config
from evals.core.errors import BadInputError, InfrastructureError
from evals.core.redact import redact_text
from evals.core.stamps import dir_stamp, git_commit, now
from evals.core.untrusted import console_line
from evals.definition import EvalDefinition, LoadedScenario, load_definition
from evals.gate.allocate import (
    Noise,
    active,
    catch_up,
    first_look,
    history_scores,
    measure,
    start_trials,
    top_up,
)
from evals.gate.fingerprint import agent_config_hash
from evals.gate.verdict import extra_trials
from evals.grade.grader import grade
from evals.grade.judge.cost import judge_cost
from evals.grade.result import TrialGrade
from evals.records.model import RunMeta, TrialMetrics, TrialRecord, TrialStatus
from evals.records.rundir import RunDir
from evals.run.budget import Spend
from evals.world.backend import Backend, Environment, make_backend


@dataclass
class Plan:
    """A run about to happen: the eval definition plus the agent under test and how to run it."""

    definition: EvalDefinition
    agents: dict[str, AgentChoice]
    agent_spec: str
    trials: int
    concurrency: int = 4
    backend: Backend = field(default_factory=lambda: make_backend("sandbox"))
    budget_usd: float | None = None
    # Per scenario, when allocation by measured noise plans it fewer than `trials` (evals/gate/allocate.py)
    scenario_trials: dict[str, int] = field(default_factory=dict)
    # `--trials` (or EVALS_TRIALS) was given: that k is what runs; allocation is for the default only
    explicit_trials: bool = False
    # The run's k when allocation started its noisy tasks below it (evals/gate/allocate.py `first_look`):
    # the run looks after every trial up to it (evals/gate/sequential.py `next_look`); 0: no ramp
    ramp: int = 0

    def planned(self, name: str) -> int:
        """Trials scenario `name` plans: its allocation, else the run's k."""
        return self.scenario_trials.get(name, self.trials)

    @property
    def scenarios(self) -> dict[str, LoadedScenario]:
        return self.definition.scenarios

    @property
    def deterministic(self) -> bool:
        """Every scenario's agent repeats itself exactly (replays): the gate never adds trials."""
        return all(choice.deterministic for choice in self.agents.values())

    @property
    def instance_seed(self) -> int | None:
        """The tasks' instance (None: instance 0); every scenario was loaded with the same seed."""
        return next((loaded.scenario.instance.seed for loaded in self.scenarios.values()), None)


def plan(
    root: Path,
    config: Config,
    *,
    scenarios: list[str] | None,
    agent: str | None,
    trials: int | None,
    baseline: Path | None,
    concurrency: int | None = None,
    world: str = "sandbox",
    budget_usd: float | None = None,
    instance_seed: int | None = None,
    resolve: bool = True,
) -> Plan:
    """The run about to happen; `resolve=False` leaves the agents for the caller to choose (the
    canary's degraded ones), so `agent` is not resolved (in Actions, `auto` with no key is refused)."""
    if trials is not None and trials < 1:
        raise BadInputError("--trials must be at least 1")
    if budget_usd is not None and budget_usd <= 0:
        raise BadInputError("--budget-usd must be more than 0")
    definition = load_definition(root, config, scenarios, baseline, instance_seed)
    spec = agent or config.agent
    agents = {
        n: resolve_agent(spec, s.scenario, s.folder, root / "agent", config.agent_limits)
        for n, s in definition.scenarios.items()
        if resolve
    }
    return Plan(
        definition,
        agents,
        spec,
        trials or config.trials,
        concurrency or config.concurrency,
        make_backend(world),
        budget_usd if budget_usd is not None else config.budget.usd,
        explicit_trials=trials is not None,
    )


def run_label(config: Config, names: list[str]) -> str:
    """A short name for what runs: the suite's name when the scenarios are a suite, the scenario
    when there is one, else the first and how many more (`nightshift+7`): the full suite's 24 names
    joined made a directory name longer than the filesystem allows."""
    for suite, members in config.suites.items():
        if list(members) == names:
            return suite
    return names[0] if len(names) == 1 else f"{names[0]}+{len(names) - 1}"


def new_run_dir(root: Path, config: Config, names: list[str]) -> Path:
    """A new, empty run directory under runs_dir: `<UTC time>-<label>`, `-2`, `-3`... when two runs
    start in the same second. Created here (exclusively), so two processes never share one."""
    stamp = dir_stamp()
    base = root / config.runs_dir / f"{stamp}-{run_label(config, names)}"
    base.parent.mkdir(parents=True, exist_ok=True)
    path, n = base, 1
    while True:
        try:
            path.mkdir()
            return path
        except FileExistsError:
            n += 1
            path = base.with_name(f"{base.name}-{n}")


def partial_result(exc: BaseException) -> AgentResult | None:
    """What an agent got done before it failed: agents may attach it to the exception as `partial`,
    so a trial that dies on turn 30 still has 29 turns of transcript, usage and cost."""
    partial = getattr(exc, "partial", None)
    return partial if isinstance(partial, AgentResult) else None


async def run_trial(
    p: Plan, loaded: LoadedScenario, choice: AgentChoice, trial: int, rd: RunDir
) -> TrialRecord:
    """One trial in a fresh world: run the agent, snapshot and grade what it left, append the record."""
    env = await p.backend.create(loaded.scenario, trial, rd.path.name)
    try:
        transcript, status = await _run_agent(env, loaded, choice, trial)
        rd.write_trial(loaded.scenario.name, trial, "transcript", transcript.model_dump(mode="json"))
        cost = p.definition.pricing.cost(transcript.model, transcript.usage)
        record = TrialRecord(
            scenario=loaded.scenario.name,
            trial=trial,
            status=status,
            agent=choice.label,
            error=transcript.error,
            metrics=TrialMetrics.model_validate(metrics(transcript, loaded.scenario.expected_tools, cost)),
            backend=p.backend.name,
        )
        if status == "ok":
            record = await _grade(env, p, loaded, record, rd)
    finally:
        await env.close()
    rd.append_record(record)
    return record


async def _run_agent(
    env: Environment, loaded: LoadedScenario, choice: AgentChoice, trial: int
) -> tuple[Transcript, TrialStatus]:
    """The agent's turn. An infrastructure failure makes the trial `error` (counted, never scored);
    an agent that crashes is graded on what it did before it crashed."""
    scenario = loaded.scenario
    toolset = RecordingToolset(env.toolset)
    prompts = AgentPrompts(
        system=scenario.render(scenario.prompts.system, trial),
        task=scenario.render(scenario.prompts.task, trial),
    )
    agent = choice.make(trial)
    started = time.perf_counter()
    error: str | None = None
    status: TrialStatus = "ok"
    result: AgentResult | str | None = None
    try:
        result = await agent(prompts, toolset)
    except (BadInputError, KeyboardInterrupt, asyncio.CancelledError):
        raise
    except InfrastructureError as exc:
        status, error, result = "error", str(exc), partial_result(exc)
    except Exception as exc:  # the agent itself crashed: it is graded on what it did
        error, result = f"agent raised {type(exc).__name__}: {exc}", partial_result(exc)
    base = result if isinstance(result, AgentResult) else AgentResult(final_text=result or "")
    transcript = Transcript(
        **base.model_dump(),
        agent=choice.label,
        tool_calls=toolset.calls,
        latency_s=time.perf_counter() - started,
        error=error,
        prompts=prompts_shown(prompts, choice.addendum, scenario.personas),
    )
    if error and status == "ok":
        transcript.termination = "error"
    return transcript, status


async def _grade(
    env: Environment, p: Plan, loaded: LoadedScenario, record: TrialRecord, rd: RunDir
) -> TrialRecord:
    where = (record.scenario, record.trial)
    snap = await env.snapshot()
    state = env.state()
    if state is not None:
        rd.write_trial(*where, "world", state)
    rd.write_trial(*where, "outcome", snap.model_dump(mode="json"))
    graded: TrialGrade = await asyncio.to_thread(grade, snap, loaded, loaded.judge)
    rd.write_trial(*where, "grade", graded.model_dump(mode="json"))
    judged = judge_cost(graded, p.definition.pricing).model_dump()
    return record.model_copy(update={"grade": graded, "metrics": record.metrics.model_copy(update=judged)})


async def run_trials(
    p: Plan,
    rd: RunDir,
    progress: Progress | None = None,
    indices: list[int] | None = None,
    spend: Spend | None = None,
    running: set[tuple[str, int]] | None = None,
) -> None:
    """Run every scenario's trials, or only trial `indices` (one shard's slice, see evals/run/merge.py).

    With a `spend`, no trial starts once it has reached its limit: those are skipped (counted),
    trials already running finish. `running` holds the (scenario, trial) in progress, for Ctrl-C
    (evals/run/interrupt.py) to record as interrupted."""
    running = set() if running is None else running
    jobs = [
        (loaded, p.agents[name], trial)
        for name, loaded in p.scenarios.items()
        for trial in (range(p.planned(name)) if indices is None else indices)
    ]
    done = {(r.scenario, r.trial) for r in rd.read_records() if r.status == "ok"}
    todo = [(loaded, choice, t) for loaded, choice, t in jobs if (loaded.scenario.name, t) not in done]
    limit = asyncio.Semaphore(
        max(1, min(p.concurrency, getattr(p.backend, "max_concurrency", p.concurrency)))
    )
    bar = TrialProgress(progress, total=len(jobs), done=len(jobs) - len(todo))

    async def one(loaded: LoadedScenario, choice: AgentChoice, trial: int) -> None:
        async with limit:
            if spend is not None and spend.reached:
                spend.skipped.append(f"{loaded.scenario.name}#{trial}")
                return
            bar.started()
            started = time.perf_counter()
            running.add((loaded.scenario.name, trial))
            try:
                record = await run_trial(p, loaded, choice, trial, rd)
            finally:
                running.discard((loaded.scenario.name, trial))
                bar.stopped()
        if spend is not None:
            spend.add(record)
        bar.finished(record, f"{loaded.scenario.name}#{trial}", time.perf_counter() - started)

    await asyncio.gather(*(one(*job) for job in todo))


def noise_of(p: Plan) -> dict[str, Noise]:
    """Each scenario's measured noise: its baseline trial totals and the nightly history's beside the
    baseline (baseline/history.jsonl). Empty, so every scenario runs the run's k, for a deterministic
    agent (replays cost nothing and repeat themselves) and with `gate.allocate` off."""
    d = p.definition
    if p.deterministic or not d.config.gate.allocate or d.baseline is None:
        return {}
    from evals.core.jsonio import read_jsonl

    history_file = d.baseline_path.parent / "history.jsonl"
    history = list(read_jsonl(history_file)) if history_file.is_file() else []
    return {
        name: measure(name, [t.total for t in entry.trials], history_scores(history, name))
        for name, entry in d.baseline.scenarios.items()
        if name in p.scenarios and entry.trials
    }


def allocate(p: Plan) -> None:
    """Before the first trial: a quiet scenario starts at one trial, the others at the run's k, or
    below it when the baseline's spread predicts a first look can decide sooner (`first_look`: then
    the run looks after every trial up to k)."""
    noise = noise_of(p)
    if noise:
        d = p.definition
        points = sum(loaded.rubric.max_points for loaded in p.scenarios.values())
        allowed = d.config.threshold.allowed_drop(points)
        start = first_look(noise, p.scenarios, allowed, p.trials, d.config.gate)
        if start < p.trials:
            p.ramp, p.trials = p.trials, start
    p.scenario_trials = {n: k for n, k in start_trials(noise, p.scenarios, p.trials).items() if k < p.trials}


def trials_to_add(p: Plan, rd: RunDir) -> dict[str, int]:
    """The adaptive step: how many trials each scenario gets before deciding (empty: decide now).

    A quiet scenario whose trial differed catches up with the run's k first, before any look
    (evals/gate/allocate.py says why); then the look (`extra_trials`) asks for more or decides, and
    its extra trials go to every scenario on the schedule, never to a quiet one that never differed."""
    d = p.definition
    records = rd.read_records()
    aggregates = d.aggregates(records)
    noise = noise_of(p) if p.scenario_trials or p.ramp else {}
    run = {name: agg.total.per_trial for name, agg in aggregates.items()}
    errored = {name: agg.errored for name, agg in aggregates.items() if agg.errored}
    if noise and (up := catch_up(noise, run, p.trials, errored, ramp=p.ramp)):
        return up
    comparison = d.compare(aggregates, d.fingerprint())
    if comparison.estimate is None or comparison.total is None:
        return {}
    if noise and not active(noise, run, set(errored)):
        return {}
    extra = extra_trials(
        comparison.estimate,
        p.trials,
        comparison.total.allowed_drop,
        d.config.gate,
        deterministic=p.deterministic,
        guards=[*comparison.guard_tests, *comparison.quiet_tests],
        ramp=p.ramp,
        scenarios=comparison.scenario_allowed,
    )
    if not noise:
        return dict.fromkeys(p.scenarios, extra) if extra else {}
    return top_up(noise, run, extra, set(errored))


class TrialProgress:
    """Trials done, running and failed on one rich progress bar (a no-op without one). Where the
    console is not a terminal (a CI log), the bar cannot redraw, so each finished trial is one line
    instead: task, trial, status, score and seconds."""

    def __init__(self, progress: Progress | None, total: int, done: int) -> None:
        self.progress = progress
        self.running = 0
        self.failed = 0
        self.task = (
            progress.add_task("trials", total=total, completed=done, running=0, failed=0)
            if progress
            else None
        )

    def _update(self, advance: int = 0) -> None:
        if self.progress is not None and self.task is not None:
            self.progress.update(self.task, advance=advance, running=self.running, failed=self.failed)

    def started(self) -> None:
        self.running += 1
        self._update()

    def stopped(self) -> None:
        self.running -= 1
        self._update()

    def finished(self, record: TrialRecord, name: str, seconds: float | None = None) -> None:
        if record.status != "ok":
            self.failed += 1
            if self.progress is not None:
                # agent/service text: one line, no rich markup, no workflow command (evals/core/untrusted.py)
                error = escape(console_line(redact_text(str(record.error))))
                self.progress.console.print(f"[red]trial {name} errored:[/] {error}", soft_wrap=True)
        elif self.progress is not None and not self.progress.console.is_terminal:
            self.progress.console.print(log_line(record, name, seconds), markup=False, highlight=False)
        self._update(advance=1)


def log_line(record: TrialRecord, name: str, seconds: float | None) -> str:
    """One finished trial for a log that cannot show a progress bar."""
    grade = record.grade
    if grade is None:
        score = "not graded"
    else:
        outcome = {True: "passed", False: "failed"}.get(grade.passed, "undecided")  # type: ignore[arg-type]
        score = f"{outcome} · {grade.total:g}/{grade.max_scored}"
    took = f" · {seconds:.1f} s" if seconds is not None else ""
    return f"trial {name} · {score}{took}"


def run_meta(p: Plan) -> RunMeta:
    d = p.definition
    return RunMeta(
        agent=", ".join(sorted({c.label for c in p.agents.values()})),
        agent_spec=p.agent_spec,
        trials=p.trials,
        scenario_trials=dict(p.scenario_trials) or None,
        ramp=p.ramp or None,
        scenarios=list(p.scenarios),
        commit=git_commit(d.root),
        started=now(),
        agent_config_hash=agent_config_hash(d.root / "agent"),
        judge_model=d.config.judge.model,
        world=p.backend.name,
        instance_seed=p.instance_seed,
        threshold=d.config.threshold.model_dump(),
        budget_usd=p.budget_usd,
    )


def progress_bar(console: Console | None = None) -> Progress:
    return Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("done · {task.fields[running]} running · [red]{task.fields[failed]} failed"),
        TimeElapsedColumn(),
        transient=False,
        console=console,
    )
