"""The canary: a planted regression kept in the repository, so the gate's detection is measured, not assumed.

`canary/canary.yaml` says what the degraded agent is. Offline (no ANTHROPIC_API_KEY, or `--offline`)
it plays, for each scenario it names, one of that scenario's wrong replays (each loses the parts its
`expect_lost` promises, held to that by `evals check-scenario`), and every other scenario's usual
offline replays; live it is the Claude agent with the config in `canary/agent/` (a model, prompt or
limit change that costs points). It runs like any PR's run, with the PR gate's allocation, looks and
verdict, against the current baseline; a `regression` verdict is a catch, any other decided verdict a
miss (recorded with the drop it measured), and `not-comparable` or `error` counts as neither.

Running and recording are apart, as the nightly needs them: the canary job (which holds the model key
in live mode, so it sets EVALS_DEFER_EXECUTION like a shard) runs it into a run directory; the fan-in
(no secrets) records that run, its layer 1 computed again from the stored outcomes in the confinement
and its verdict from the validated records, as the merge and the PR verdict believe only what they
can check. A run is a canary run only when run.json says so (`agent_spec: canary`): any other run
is refused.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from pydantic import Field

from evals.agents.resolve import AgentChoice, resolve_agent
from evals.core.config import Config
from evals.core.errors import BadInputError, ExitCode
from evals.core.loading import load_model
from evals.core.model import FrozenModel
from evals.core.stamps import now
from evals.definition import EvalDefinition
from evals.gate.fingerprint import agent_config_hash
from evals.gate.operating import CanaryRun
from evals.records.model import RunMeta
from evals.records.rundir import RunDir
from evals.run.finish import checked_records, finish
from evals.run.recheck import recheck
from evals.run.runner import Plan, allocate, plan, run_meta
from evals.run.session import cost_estimate, run_to_verdict

CANARY_DIR = "canary"
CANARY_FILE = "canary.yaml"
SPEC = "canary"  # run.json's agent_spec for a canary run: what `--run` checks before recording it


class CanaryConfig(FrozenModel):
    """canary/canary.yaml."""

    description: str = Field(description="what is degraded, and why it should cost points")
    trials: int = Field(default=3, ge=1, description="trials per scenario to start with (a few)")
    suite: str | None = Field(default=None, description="the suite it runs (default: evals.yaml's suite)")
    offline: dict[str, str] = Field(
        min_length=1,
        description="per scenario, the replay (or comma-separated replays) the canary plays offline "
        "instead of the scenario's offline_replays: wrong replays that lose points",
    )
    agent: str = Field(
        default="agent", description="the degraded Claude agent's folder inside canary/ (live runs)"
    )


def load_canary(root: Path) -> CanaryConfig:
    path = root / CANARY_DIR / CANARY_FILE
    if not path.is_file():
        raise BadInputError(f'{path}: no canary here (docs/gate.md, "Measured operating characteristics")')
    return load_model(CanaryConfig, path)


def canary_agents(
    definition: EvalDefinition, canary: CanaryConfig, root: Path, offline: bool
) -> tuple[dict[str, AgentChoice], Path | None]:
    """The degraded agent for each scenario, and the agent folder whose hash run.json keeps (live)."""
    scenarios = definition.scenarios
    if not offline:
        agent_dir = root / CANARY_DIR / canary.agent
        agents = {n: resolve_agent("claude", s.scenario, s.folder, agent_dir) for n, s in scenarios.items()}
        return agents, agent_dir
    planted = [n for n in scenarios if n in canary.offline]
    if not planted:
        raise BadInputError(
            f"{CANARY_DIR}/{CANARY_FILE}: offline: degrades none of the scenarios run "
            f"({', '.join(scenarios)}); a canary that plants nothing cannot be caught"
        )
    agents = {}
    for name, s in scenarios.items():
        replays = canary.offline.get(name) or ",".join(s.scenario.offline_replays)
        agents[name] = resolve_agent(f"replay:{replays}", s.scenario, s.folder, root / "agent")
    return agents, None


def is_offline(force: bool) -> bool:
    """Replays unless a model key is set (the `auto` agent's rule), or always with `--offline`."""
    return force or not os.environ.get("ANTHROPIC_API_KEY")


def plan_canary(
    root: Path,
    config: Config,
    *,
    scenarios: list[str] | None,
    trials: int | None,
    offline: bool,
    world: str = "sandbox",
    budget_usd: float | None = None,
) -> tuple[Plan, Path | None]:
    """The canary's run planned like `evals run`'s (definition, baseline, budget), its agents the
    degraded ones, its spec `canary` (what `--run` checks), and the live agent's folder if any."""
    canary = load_canary(root)
    names = scenarios or (config.suite_named(canary.suite) if canary.suite else None)
    p = plan(
        root,
        config,
        scenarios=names,
        agent=SPEC,  # the agents are the degraded ones, chosen below
        trials=trials or canary.trials,
        baseline=None,
        world=world,
        budget_usd=budget_usd,
        resolve=False,
    )
    p.agents, agent_dir = canary_agents(p.definition, canary, root, offline)
    p.agent_spec = SPEC
    return p, agent_dir


def run_canary(p: Plan, out: Path, agent_dir: Path | None) -> ExitCode:
    """A new run of the canary plan into `out`, to its verdict: `evals run`'s path (allocation, looks,
    budget), with run.json saying it is a canary and whose config it ran."""
    rd = RunDir(out)
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise BadInputError(f"--out {out}: already exists and is not empty; --out names a new run")
    allocate(p)
    meta = run_meta(p)
    if agent_dir is not None:
        meta.agent_config_hash = agent_config_hash(agent_dir)
    rd.write_meta(meta)
    print(f"Canary: {', '.join(p.scenarios)} × {p.trials} with {meta.agent} → {out}", file=sys.stderr)
    print(cost_estimate(p), file=sys.stderr)
    run_to_verdict(p, rd, meta, None)
    return finish(p.definition, rd, meta)


def canary_record(
    definition: EvalDefinition, rd: RunDir, meta: RunMeta, check_layer_one: bool = False
) -> CanaryRun:
    """The record of a finished canary run, its verdict recomputed from its validated records;
    `check_layer_one` (a run made elsewhere: the nightly's canary job, which defers the checks that
    execute the agent's code where the model key is) computes layer 1 again here from the stored
    outcomes, executing checks in the confinement, as the merge and the PR verdict do."""
    if meta.agent_spec != SPEC:
        raise BadInputError(
            f"{rd.path}: not a canary run (run.json's agent_spec is {meta.agent_spec!r}); run one with "
            "`evals baseline canary --out DIR`"
        )
    records = checked_records(definition, rd, meta)
    if check_layer_one:
        records = recheck(definition, rd, records)
    summary = definition.summarise(records, meta)
    gate = summary.gate
    return CanaryRun(
        run=rd.path.name,
        started=meta.started,
        recorded=now(),
        commit=meta.commit,
        scenarios=list(summary.scenarios),
        verdict=summary.verdict,
        delta=gate.delta if gate else None,
        ci=gate.ci if gate else None,
        allowed_drop=gate.allowed_drop if gate else None,
        reasons=summary.reasons,
        trials={name: agg.k for name, agg in summary.scenarios.items()},
        agent=meta.agent,
    )


def describe(record: CanaryRun) -> str:
    """The console's line for one canary run."""
    outcome = {"regression": "caught"}.get(record.verdict, "missed" if record.counted else "not counted")
    text = f"Canary {record.run}: {outcome} (verdict {record.verdict}"
    if record.delta is not None and record.allowed_drop is not None:
        text += f"; Δ {record.delta:+.2f} against an allowed drop of {record.allowed_drop:g}"
    return text + ")"
