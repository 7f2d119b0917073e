"""A run from start to verdict: plan it, run its trials (and the adaptive extras the gate asks
for, within the cost budget), resume it after an interruption, then finish it (evals/run/finish.py).

`evals run` is argument parsing over `start` and `resume`; everything a run decides is here.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

from evals.core.config import Config
from evals.core.errors import BadInputError, ExitCode
from evals.records.model import RunMeta
from evals.records.rundir import RunDir
from evals.records.trials import slice_trials
from evals.run.budget import AgentPricing, JudgePricing, Spend, estimate_lines, shape
from evals.run.finish import finish
from evals.run.interrupt import interrupts
from evals.run.runner import Plan, allocate, plan, progress_bar, run_meta, run_trials, trials_to_add


def start(p: Plan, out: Path, trial_slice: str | None = None) -> ExitCode:
    """A new run of plan `p` into `out` (refused when `out` already holds one), to its verdict."""
    rd = RunDir(out)
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        finish_it = f", or finish that run with `evals run --resume {out}`" if rd.is_run() else ""
        raise BadInputError(f"--out {out}: already exists and is not empty; --out names a new run{finish_it}")
    if not trial_slice and not p.explicit_trials:
        allocate(p)  # a quiet scenario starts at one trial (evals/gate/allocate.py); never for a shard
    meta = run_meta(p)
    indices = slice_trials(trial_slice, p.trials) if trial_slice else None
    meta.trial_slice = trial_slice
    rd.write_meta(meta)
    print(
        f"Running {', '.join(p.scenarios)} × {p.trials}{_quiet(p)} with {meta.agent} → {out}", file=sys.stderr
    )
    print(cost_estimate(p), file=sys.stderr)
    run_to_verdict(p, rd, meta, indices)
    return finish(p.definition, rd, meta)


def _quiet(p: Plan) -> str:
    """The scenarios allocation starts below k, said beside k: the console says what runs."""
    ramp = f" (a look after each trial up to {p.ramp}: the baseline's spread allows it)" if p.ramp else ""
    if not p.scenario_trials:
        return ramp
    fewer = ", ".join(f"{n} × {k}" for n, k in sorted(p.scenario_trials.items()))
    return f"{ramp} ({fewer}: quiet in the baseline)"


def cost_estimate(p: Plan) -> str:
    """The lines `run` prints before its first trial: the likely cost and how it was worked out."""
    d = p.definition
    shapes = [
        shape(
            loaded.scenario,
            judged_parts=sum(1 for _, part in loaded.rubric.parts() if part.judge is not None),
            judge_prompt_chars=sum(
                len((loaded.folder / part.judge.prompt).read_text(encoding="utf-8"))
                for _, part in loaded.rubric.parts()
                if part.judge is not None
            ),
        )
        for loaded in p.scenarios.values()
    ]
    judge = JudgePricing(d.config.judge.model if os.environ.get("ANTHROPIC_API_KEY") else None)
    lines = estimate_lines(
        d.baseline,
        shapes,
        agent_pricing(p),
        judge,
        d.pricing,
        p.trials,
        d.config.gate.max_trials,
        p.budget_usd,
    )
    return "\n".join(lines)


def agent_pricing(p: Plan) -> AgentPricing:
    """Which kind of agent runs, and for Claude its model, turn limit and what every turn re-sends
    besides the scenario's prompts (the system addendum and the tool definitions)."""
    choices = list(p.agents.values())
    if all(choice.deterministic for choice in choices):
        return AgentPricing("replay")
    if p.agent_spec not in ("claude", "auto"):
        return AgentPricing("module")
    from evals.agents.config import load_agent_config
    from evals.world.backend import tool_catalogue

    config, addendum = load_agent_config(p.definition.root / "agent", p.definition.config.agent_limits)
    tools = [t.schema() for slug, t in tool_catalogue().items() if not config.tools or slug in config.tools]
    fixed = len(addendum) + sum(len(json.dumps(t)) for t in tools)
    return AgentPricing("claude", config.model, config.max_turns, fixed, len(tools))


def run_to_verdict(p: Plan, rd: RunDir, meta: RunMeta, indices: list[int] | None) -> None:
    """Run the trials still missing, then any adaptive extra trials the gate asks for, within the
    cost budget: once the spend reaches it no trial starts, and run.json says the budget ended the run."""
    spend = Spend(p.budget_usd, sum(r.metrics.total_cost_usd for r in rd.read_records()))
    with interrupts(rd, meta.agent) as ctrl_c, progress_bar() as progress:
        ctrl_c.run(run_trials(p, rd, progress, indices, spend, ctrl_c.running))
        # Adaptive trials: while the verdict is undecided, up to the next look (evals/gate/sequential.py),
        # at most gate.max_trials, never past the cost budget. Not for shards.
        # A quiet scenario (evals/gate/allocate.py) gets trials only once one of its trials differed.
        while indices is None and not spend.reached and (extra := trials_to_add(p, rd)):
            meta.trials_started = meta.trials_started or p.trials
            grown = {name: p.planned(name) + more for name, more in extra.items()}
            p.trials = max(p.trials, *grown.values())
            p.scenario_trials = {
                name: k for name in p.scenarios if (k := grown.get(name, p.planned(name))) < p.trials
            }
            meta.trials = p.trials
            meta.scenario_trials = dict(p.scenario_trials) or None
            meta.trials_budget = p.definition.config.gate.max_trials
            rd.write_meta(meta)
            ctrl_c.run(run_trials(p, rd, progress, spend=spend, running=ctrl_c.running))
    meta.spent_usd = round(spend.spent, 6)
    if p.budget_usd is not None:
        meta.budget_usd = p.budget_usd
        wanted_more = indices is None and spend.reached and bool(trials_to_add(p, rd))
        meta.stopped_by_budget = True if (spend.skipped or wanted_more) else None
        # the planned trials that never started: the only ones the run may lack (records/validate.py)
        recorded = {f"{r.scenario}#{r.trial}" for r in rd.read_records()}
        meta.skipped = sorted(set(spend.skipped) - recorded) or None
    rd.write_meta(meta)


def _reopen_plan(
    rd: RunDir, project: Path, config: Config, baseline: Path | None, concurrency: int | None
) -> tuple[Plan, RunMeta]:
    """A stored run's plan, from its own run.json, refused when its agent changed since: mixing two
    agents' trials would score neither."""
    meta = rd.read_meta()
    rd.repair_results()
    p = plan(
        project,
        config,
        scenarios=meta.scenarios,
        agent=meta.agent_spec,
        trials=meta.trials,
        baseline=baseline,
        concurrency=concurrency,
        world=meta.world,
        budget_usd=meta.budget_usd,
        instance_seed=meta.instance_seed,
    )
    p.scenario_trials = dict(meta.scenario_trials or {})
    p.ramp = meta.ramp or 0
    now = run_meta(p)
    for key in ("agent", "agent_config_hash"):
        if getattr(meta, key) != getattr(now, key):
            raise BadInputError(
                f"{rd.path}: the agent changed since this run started "
                f"({key}: {getattr(meta, key)} -> {getattr(now, key)}); start a new run instead"
            )
    return p, meta


def resume(
    rd: RunDir, project: Path, config: Config, baseline: Path | None, concurrency: int | None
) -> ExitCode:
    """Rerun only what an interrupted run is missing, with the settings stored in its run.json.

    Trials already in results.jsonl with status ok are kept; missing and infrastructure-errored ones
    run again (a later line for the same trial wins). Refuses a directory that is not a run, and a run
    whose agent has changed since, because mixing two agents' trials would score neither.
    """
    p, meta = _reopen_plan(rd, project, config, baseline, concurrency)
    p.definition = p.definition.continued(len(meta.continued or []))
    indices = slice_trials(meta.trial_slice, p.trials) if meta.trial_slice else None
    meta.resumed = [*meta.resumed, run_meta(p).started]
    rd.write_meta(meta)
    print(f"Resuming {', '.join(p.scenarios)} × {p.trials} with {meta.agent} → {rd.path}", file=sys.stderr)
    run_to_verdict(p, rd, meta, indices)
    return finish(p.definition, rd, meta)


def continue_run(
    rd: RunDir,
    project: Path,
    config: Config,
    baseline: Path | None,
    concurrency: int | None,
    budget_usd: float | None = None,
) -> ExitCode:
    """More trials for an *inconclusive* run, in the same run and the same sequential test
    (evals/gate/sequential.py: `continued`): its trials and looks stay counted, its schedule grows by
    `gate.max_trials` per scenario, and every new look calls a regression only past the interim line,
    so the continuation spends almost none of the false-alarm rate. Never a fresh start.

    Refused for a run whose verdict (recomputed from its records) is anything but inconclusive, whose
    agent changed since, which is a shard, or while trials of it are missing (resume it first). The
    continuation has a cost budget of its own: `budget_usd` (else budget.usd) on top of what the run
    has spent."""
    from evals.run.finish import summarise

    p, meta = _reopen_plan(rd, project, config, baseline, concurrency)
    if meta.trial_slice or meta.merged_from:
        raise BadInputError(f"{rd.path}: a shard or merged nightly run is not continued; start a new run")
    if p.definition.config.gate.max_trials == 0:
        raise BadInputError("gate.max_trials is 0: the gate adds no trials, so there is nothing to continue")
    base = p.definition
    decided = summarise(base.continued(len(meta.continued or [])), rd, meta).verdict
    if decided != "inconclusive":
        raise BadInputError(
            f"{rd.path}: its verdict is {decided}; only an inconclusive run is continued "
            "(a decided one is final, and a fresh run is `evals run`)"
        )
    spent = sum(r.metrics.total_cost_usd for r in rd.read_records())
    allowance = budget_usd if budget_usd is not None else config.budget.usd
    p.budget_usd = None if allowance is None else spent + allowance
    meta.budget_usd = p.budget_usd
    meta.stopped_by_budget = meta.skipped = None
    meta.trials_started = meta.trials_started or meta.trials
    meta.continued = [*(meta.continued or []), run_meta(p).started]
    p.definition = base.continued(len(meta.continued or []))
    meta.trials_budget = p.definition.config.gate.max_trials
    rd.write_meta(meta)
    print(
        f"Continuing {', '.join(p.scenarios)} with {meta.agent} → {rd.path} (continuation "
        f"{len(meta.continued)}: up to {meta.trials_budget} trials per scenario, a regression only "
        f"past the {p.definition.config.gate.confidence:.1%} interval)",
        file=sys.stderr,
    )
    run_to_verdict(p, rd, meta, None)
    return finish(p.definition, rd, meta)
