"""`run`: seed a fresh world per trial, run the agent, grade, append the result, then gate and report.

Everything the user supplied (config, scenarios, rubrics, replays, baseline) is loaded and
validated in `plan()` before the run directory exists, so bad input exits 2 and writes nothing.
Each finished trial is appended to results.jsonl at once, so an interrupted run keeps its work.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from evals.agents.base import AgentPrompts, AgentResult, RecordingToolset, Transcript, Usage
from evals.agents.resolve import AgentChoice, resolve_agent
from evals.backend import Backend, Environment, make_backend
from evals.baseline import Baseline, git_commit, load_baseline
from evals.config import Config
from evals.errors import BadInputError, InfrastructureError
from evals.fingerprint import agent_config_hash
from evals.grade import Judge, Rubric, TrialGrade, grade, load_labels, load_rubric
from evals.grade.judge import load_prompt
from evals.pricing import Pricing, load_pricing
from evals.redact import redact_text
from evals.rundir import RunDir
from evals.scenario import Scenario, load_scenario
from evals.trajectory import metrics
from evals.world.environment import SandboxBackend


@dataclass
class LoadedScenario:
    scenario: Scenario
    folder: Path
    rubric: Rubric
    judge: Judge

    @property
    def judge_prompts(self) -> list[str]:
        return sorted({p.judge.prompt for _, p in self.rubric.parts() if p.judge is not None})


@dataclass
class Plan:
    root: Path
    config: Config
    scenarios: dict[str, LoadedScenario]
    agents: dict[str, AgentChoice]
    agent_spec: str
    trials: int
    baseline: Baseline | None
    baseline_path: Path
    pricing: Pricing
    concurrency: int = 4
    backend: Backend = SandboxBackend()  # noqa: RUF009  (stateless)


def load_scenarios(root: Path, config: Config, names: list[str]) -> dict[str, LoadedScenario]:
    out = {}
    for name in names:
        folder = root / config.scenarios_dir / name
        scenario = load_scenario(root / config.scenarios_dir, name)
        rubric = load_rubric(folder)
        for _, part in rubric.parts():
            if part.judge is not None:  # a bad prompt file is bad input before the run starts
                load_prompt(folder / part.judge.prompt)
        judge = Judge.from_config(config.judge, root, load_labels(folder))
        out[name] = LoadedScenario(scenario, folder, rubric, judge)
    return out


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
) -> Plan:
    if trials is not None and trials < 1:
        raise BadInputError("--trials must be at least 1")
    loaded = load_scenarios(root, config, scenarios or config.suite)
    spec = agent or config.agent
    agents = {n: resolve_agent(spec, s.scenario, s.folder, root / "agent") for n, s in loaded.items()}
    baseline_path = baseline or root / config.baseline
    found = load_baseline(baseline_path)
    if found is None and config.missing_baseline == "error":
        raise BadInputError(f"{baseline_path}: no baseline (config missing_baseline: error)")
    pricing = load_pricing(root / config.pricing)
    return Plan(
        root,
        config,
        loaded,
        agents,
        spec,
        trials or config.trials,
        found,
        baseline_path,
        pricing,
        concurrency or config.concurrency,
        make_backend(world),
    )


def new_run_dir(root: Path, config: Config, names: list[str]) -> Path:
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
    base = root / config.runs_dir / f"{stamp}-{'+'.join(names)}"
    path, n = base, 1
    while path.exists():
        n += 1
        path = base.with_name(f"{base.name}-{n}")
    return path


def partial_result(exc: BaseException) -> AgentResult | None:
    """What an agent got done before it failed: agents may attach it to the exception as `partial`,
    so a trial that dies on turn 30 still has 29 turns of transcript, usage and cost."""
    partial = getattr(exc, "partial", None)
    return partial if isinstance(partial, AgentResult) else None


async def run_trial(
    p: Plan, ls: LoadedScenario, choice: AgentChoice, trial: int, rd: RunDir
) -> dict[str, Any]:
    scenario = ls.scenario
    env = await p.backend.create(scenario, trial, rd.path.name)
    try:
        return await _run_in(env, p, ls, choice, trial, rd)
    finally:
        await env.close()


async def _run_in(
    env: Environment, p: Plan, ls: LoadedScenario, choice: AgentChoice, trial: int, rd: RunDir
) -> dict[str, Any]:
    scenario = ls.scenario
    toolset = RecordingToolset(env.toolset)
    prompts = AgentPrompts(
        system=scenario.render(scenario.prompts.system, trial),
        task=scenario.render(scenario.prompts.task, trial),
    )
    agent = choice.make(trial)
    started = time.perf_counter()
    error: str | None = None
    status = "ok"
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
    )
    if error and status == "ok":
        transcript.termination = "error"
    tdir = rd.trial_dir(scenario.name, trial).relative_to(rd.path)
    rd.write_json(tdir / "transcript.json", transcript.model_dump(mode="json"))
    record: dict[str, Any] = {
        "scenario": scenario.name,
        "trial": trial,
        "status": status,
        "agent": choice.label,
        "error": error,
        "grade": None,
    }
    cost = p.pricing.cost(transcript.model, transcript.usage)
    record["metrics"] = metrics(transcript, scenario.expected_tools, cost)
    record["backend"] = p.backend.name
    if status == "ok":
        snap = await env.snapshot()
        state = env.state()
        if state is not None:
            rd.write_json(tdir / "world.json", state)
        rd.write_json(tdir / "outcome.json", snap.model_dump(mode="json"))
        graded: TrialGrade = await asyncio.to_thread(grade, snap, scenario, ls.rubric, ls.judge, ls.folder)
        rd.write_json(tdir / "grade.json", graded.model_dump(mode="json"))
        record["grade"] = graded.model_dump(mode="json")
        record["metrics"].update(judge_metrics(graded, ls.judge.model, p.pricing))
    rd.append_result(record)
    return record


def judge_metrics(graded: TrialGrade, model: str, pricing: Pricing) -> dict[str, Any]:
    """What grading this trial cost in judge calls (cache hits and human labels cost nothing)."""
    usages = [part.judge.get("usage") or {} for part in graded.parts if part.judge]
    used = Usage(
        input_tokens=sum(int(u.get("input_tokens", 0)) for u in usages),
        output_tokens=sum(int(u.get("output_tokens", 0)) for u in usages),
    )
    return {
        "judge_input_tokens": used.input_tokens,
        "judge_output_tokens": used.output_tokens,
        "judge_cost_usd": pricing.cost(model, used) if used != Usage() else 0.0,
    }


async def run_trials(
    p: Plan, rd: RunDir, progress: Progress | None = None, indices: list[int] | None = None
) -> None:
    """Run every scenario's trials, or only trial `indices` (one shard's slice, see evals/merge.py)."""
    picked = range(p.trials) if indices is None else indices
    jobs = [(ls, p.agents[name], trial) for name, ls in p.scenarios.items() for trial in picked]
    done = {(r["scenario"], r["trial"]) for r in rd.results() if r["status"] == "ok"}
    todo = [(ls, choice, t) for ls, choice, t in jobs if (ls.scenario.name, t) not in done]
    limit = asyncio.Semaphore(
        max(1, min(p.concurrency, getattr(p.backend, "max_concurrency", p.concurrency)))
    )
    bar = TrialProgress(progress, total=len(jobs), done=len(jobs) - len(todo))

    async def one(ls: LoadedScenario, choice: AgentChoice, trial: int) -> None:
        async with limit:
            bar.started()
            try:
                record = await run_trial(p, ls, choice, trial, rd)
            finally:
                bar.stopped()
        bar.finished(record, f"{ls.scenario.name}#{trial}")

    await asyncio.gather(*(one(*job) for job in todo))


class TrialProgress:
    """Trials done, running and failed on one rich progress bar (a no-op without one)."""

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

    def finished(self, record: dict[str, Any], name: str) -> None:
        if record["status"] != "ok":
            self.failed += 1
            if self.progress is not None:
                self.progress.console.print(
                    f"[red]trial {name} errored:[/] {redact_text(str(record['error']))}"
                )
        self._update(advance=1)


def run_meta(p: Plan) -> dict[str, Any]:
    return {
        "agent": ", ".join(sorted({c.label for c in p.agents.values()})),
        "agent_spec": p.agent_spec,
        "trials": p.trials,
        "scenarios": list(p.scenarios),
        "commit": git_commit(p.root),
        "started": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "agent_config_hash": agent_config_hash(p.root / "agent"),
        "judge_model": p.config.judge.model,
        "world": p.backend.name,
        "threshold": p.config.threshold.model_dump(),
    }


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
