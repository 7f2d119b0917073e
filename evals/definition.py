"""The eval definition: what measures, as opposed to the agent being measured.

Config, scenarios, rubrics, judge, baseline, pricing and the fingerprint of all that. Everything
after the trials (`compare`, `grade`, `merge`, `baseline`, `comment`) needs only this and the run
directory, never the agent: the nightly fan-in and the PR's compare step have no model key, and a
run made with `--agent claude` must still be comparable there.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from evals.core.config import Config
from evals.core.errors import BadInputError
from evals.core.pricing import Pricing, load_pricing
from evals.gate.aggregate import ScenarioAggregate, aggregate
from evals.gate.baseline_file import Baseline, load_baseline
from evals.gate.compare import Comparison, Settings, compare
from evals.gate.fingerprint import fingerprint
from evals.gate.judge_record import JUDGE_FILE, JudgeCheck, load_judge_checks
from evals.gate.operating import OPERATING_FILE, AACheck, CanaryRun, load_operating, tally
from evals.gate.part_fingerprint import part_fingerprints
from evals.gate.sequential import continued
from evals.gate.summary import Summary, build_summary
from evals.gate.verdict import budget_notice, verdict
from evals.grade.confine.policy import deferring
from evals.grade.judge import load_prompt
from evals.grade.rubric import load_rubric
from evals.grade.task import Task
from evals.records.model import RunMeta, TrialRecord
from evals.scenario.folder import REFERENCE, ScenarioFolder
from evals.scenario.load import load_scenario

if TYPE_CHECKING:
    from evals.grade.judge import Judge


@dataclass(frozen=True)
class LoadedScenario(Task):
    """A task as a run uses it: the graded task (evals/grade/task.py) and, when loaded to grade,
    who judges it (decided once per run, so every trial of the task meets the same judge)."""

    planned_judge: Judge | None = None

    @property
    def judge(self) -> Judge:
        """Who judges this scenario's parts; only a definition loaded to grade has one."""
        if self.planned_judge is None:
            raise RuntimeError(f"{self.scenario.name}: loaded without a judge (with_judge=False)")
        return self.planned_judge

    @property
    def judge_prompts(self) -> list[str]:
        return sorted({p.judge.prompt for _, p in self.rubric.parts() if p.judge is not None})


def load_scenarios(
    root: Path,
    config: Config,
    names: list[str],
    instance_seed: int | None = None,
    *,
    with_judge: bool = True,
) -> dict[str, LoadedScenario]:
    """Each scenario with its rubric and judge, validated up front: a bad file is exit 2 before any trial.

    Who judges (the model, through the cache, or the human labels) is decided here, once per run.
    Commands that only read stored grades (`compare`, `merge`, `baseline`) pass `with_judge=False`:
    they neither read the labels nor import the model client. Judge prompts are checked either way.
    `instance_seed` picks each parameterised task's instance (None: instance 0, evals/scenario/params.py).
    """
    out = {}
    api_key_present = bool(os.environ.get("ANTHROPIC_API_KEY"))
    for name in names:
        folder = root / config.scenarios_dir / name
        scenario = load_scenario(root / config.scenarios_dir, name, instance_seed)
        render = scenario.instance.render
        rubric = load_rubric(folder, render=render)
        for _, part in rubric.parts():
            if part.judge is not None:
                load_prompt(folder / part.judge.prompt, render=render)
        judge = _plan_judge(config, root, folder, api_key_present) if with_judge else None
        out[name] = LoadedScenario(scenario=scenario, rubric=rubric, folder=folder, planned_judge=judge)
    return out


def _plan_judge(config: Config, root: Path, folder: Path, api_key_present: bool) -> Judge:
    from evals.grade.judge import make_judge
    from evals.grade.labels import load_labels

    return make_judge(config.judge, root, load_labels(folder), api_key_present=api_key_present)


@dataclass
class EvalDefinition:
    root: Path
    config: Config
    scenarios: dict[str, LoadedScenario]
    baseline: Baseline | None
    baseline_path: Path
    pricing: Pricing
    # the gate's own measured record beside the baseline (evals/gate/operating.py): every report says it
    operating: list[AACheck | CanaryRun] = field(default_factory=list)
    # the judge's measured agreement with people (evals/gate/judge_record.py): every report says it
    judge_checks: list[JudgeCheck] = field(default_factory=list)

    def continued(self, continuations: int) -> EvalDefinition:
        """This definition for a run continued `continuations` times after an inconclusive verdict:
        the same rubrics and baseline, the gate's schedule extended and its lines held to the interim
        line (evals/gate/sequential.py: `continued`)."""
        if continuations <= 0:
            return self
        gate = continued(self.config.gate, continuations)
        return replace(self, config=self.config.model_copy(update={"gate": gate}))

    @property
    def settings(self) -> Settings:
        c = self.config
        guards = {
            n: [p.id for _, p in loaded.rubric.parts() if p.guard] for n, loaded in self.scenarios.items()
        }
        solved = frozenset(
            n
            for n, loaded in self.scenarios.items()
            if ScenarioFolder(loaded.folder).replay(REFERENCE).is_file()
        )
        return Settings(c.threshold, c.gate, c.max_error_share, guards=guards, solved=solved)

    def about_views(self) -> dict[str, dict[str, Any]]:
        """Each scenario's about.yaml as the viewer shows it (graded by nothing; see about.py)."""
        from evals.scenario.about import about_views

        return about_views({n: loaded.folder for n, loaded in self.scenarios.items()})

    def fingerprint(self) -> dict[str, Any]:
        fp = fingerprint(
            {
                n: (loaded.scenario, loaded.folder, loaded.judge_prompts, loaded.rubric)
                for n, loaded in self.scenarios.items()
            },
            self.config.judge.model,
        )
        for name, loaded in self.scenarios.items():  # per part, so one changed part leaves the others gated
            # the template's parts (read as instance 0), never a drawn instance's: any instance of a
            # parameterised task compares with the baseline (evals/scenario/params.py)
            rubric = loaded.rubric if loaded.scenario.instance.seed is None else load_rubric(loaded.folder)
            fp["scenarios"][name].update(part_fingerprints(rubric, loaded.folder))
        return fp

    def aggregates(self, records: list[TrialRecord]) -> dict[str, ScenarioAggregate]:
        return {
            name: aggregate([r for r in records if r.scenario == name], loaded.rubric)
            for name, loaded in self.scenarios.items()
        }

    def compare(self, aggregates: dict[str, ScenarioAggregate], fp: dict[str, Any]) -> Comparison:
        return compare(aggregates, fp, self.baseline, self.settings)

    def summarise(self, records: list[TrialRecord], meta: RunMeta) -> Summary:
        """records → aggregates → comparison → verdict → summary: the whole back half, once."""
        aggregates = self.aggregates(records)
        fp = self.fingerprint()
        comparison = self.compare(aggregates, fp)
        decided = verdict(comparison, several_scenarios=len(aggregates) > 1, provisional=deferring())
        if meta.stopped_by_budget and meta.budget_usd is not None:
            decided.notices.insert(0, budget_notice(meta.spent_usd or 0.0, meta.budget_usd))
        tiers: dict[str, str] = {name: loaded.scenario.task_tier() for name, loaded in self.scenarios.items()}
        newest = self.judge_checks[-1] if self.judge_checks else None
        return build_summary(
            meta, aggregates, comparison, decided, fp, records, tiers, tally(self.operating), newest
        )


def load_definition(
    root: Path,
    config: Config,
    names: list[str] | None,
    baseline: Path | None = None,
    instance_seed: int | None = None,
    *,
    with_judge: bool = True,
) -> EvalDefinition:
    """The definition for `names` (default: the config's suite), validated before anything runs;
    `instance_seed` picks the tasks' instances (a stored run's comes from its run.json)."""
    scenarios = load_scenarios(root, config, names or config.suite, instance_seed, with_judge=with_judge)
    if baseline is not None and not baseline.is_file():  # a typo is not "no baseline yet"
        raise BadInputError(f"--baseline {baseline}: no such file (leave it out to use evals.yaml's)")
    baseline_path = baseline or root / config.baseline
    found = load_baseline(baseline_path)
    if found is None and config.missing_baseline == "error":
        raise BadInputError(f"{baseline_path}: no baseline (config missing_baseline: error)")
    return EvalDefinition(
        root=root,
        config=config,
        scenarios=scenarios,
        baseline=found,
        baseline_path=baseline_path,
        pricing=load_pricing(root / config.pricing),
        operating=load_operating(baseline_path.parent / OPERATING_FILE),
        judge_checks=load_judge_checks(baseline_path.parent / JUDGE_FILE),
    )
