"""Is this scenario folder a working task? Validate every file, then grade its replays.

A scenario is trustworthy only when its own reference solution scores full marks (else the rubric or
the data is wrong, not the agent) and each wrong replay loses exactly the parts it says it loses
(else a check passes work it should fail, or fails work it should pass). Everything runs offline: a
fresh sandbox world per replay, and the human labels as the judge whatever keys the environment
holds, so the answer never depends on a model. Bad data raises BadInputError naming the file and
field; a replay that does not grade as declared is a problem in the report, with what to fix (a
missing label comes with its stub). `evals check-scenario NAME` prints the report.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from evals.scenario.folder import REFERENCE, ScenarioFolder

if TYPE_CHECKING:
    from evals.agents.replay import ReplayFixture
    from evals.core.config import Config
    from evals.definition import LoadedScenario
    from evals.grade.labels import Label
    from evals.grade.result import TrialGrade


@dataclass
class CheckReport:
    """What check-scenario found: lines to print, and the problems that make it exit 1."""

    name: str
    lines: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    grades: dict[str, TrialGrade] = field(default_factory=dict)


def check_scenario(project: Path, config: Config, name: str, instance_seed: int | None = None) -> CheckReport:
    """Validate the folder (BadInputError on bad data), then grade every replay against its promise,
    for one instance of the task (`instance_seed`; None: instance 0)."""
    import asyncio

    from evals.authoring.sweep import lint
    from evals.scenario.params import check_parameters_used

    loaded, fixtures = load_checked(project, config, name, instance_seed)
    check_parameters_used(loaded.folder)  # once every file has parsed (params.py says why)
    report = CheckReport(name)
    rubric = loaded.rubric
    scenario = loaded.scenario
    report.lines.append(
        f"{name}: {scenario.task_tier()}, {','.join(scenario.used_services()) or 'no services'}, "
        f"{rubric.max_points} points, {len(rubric.parts())} parts, replays: {', '.join(fixtures)}"
    )
    if scenario.instance.values:
        drawn = ", ".join(f"{k}={v}" for k, v in sorted(scenario.instance.values.items()))
        seed = "instance 0" if instance_seed is None else f"instance seed {instance_seed}"
        report.lines.append(f"  {seed}: {drawn}")
    wrong = [r for r in fixtures if r != REFERENCE]
    if not wrong:
        report.problems.append(
            "no wrong replay: add replays/<name>.yaml that does part of the task badly, with "
            "`expect_lost: [part ids]` naming the parts it must lose"
        )
    report.problems += lint(loaded.folder, scenario, rubric)  # what a sweep would find, without grading
    grades = asyncio.run(_grade_all(loaded, list(fixtures), project / "agent"))
    report.grades = grades
    for replay, fixture in fixtures.items():
        _judge_replay(report, loaded, replay, fixture, grades[replay])
    return report


def load_checked(
    project: Path, config: Config, name: str, instance_seed: int | None
) -> tuple[LoadedScenario, dict[str, ReplayFixture]]:
    """One instance of the task with the human labels as its judge, and its replays, validated (bad
    data raises BadInputError): what check-scenario and its sweep both grade."""
    from evals.definition import load_scenarios
    from evals.grade.judge import make_judge
    from evals.grade.labels import load_labels

    loaded = load_scenarios(project, config, [name], instance_seed, with_judge=False)[name]
    labels = load_labels(loaded.folder)
    loaded = replace(loaded, planned_judge=make_judge(config.judge, project, labels, api_key_present=False))
    _validate_labels(loaded, labels)
    return loaded, _load_replays(loaded)


def sweep(
    project: Path, config: Config, name: str, seeds: Sequence[int | None], trials: Sequence[int]
) -> list[str]:
    """Grade the reference and each valid replay at every (instance seed, trial); one problem per
    part that falls short, naming where (a missing label is a problem too: that world is unjudged)."""
    import asyncio

    problems = []
    for seed in seeds:
        loaded, fixtures = load_checked(project, config, name, seed)
        valid = [r for r, f in fixtures.items() if r == REFERENCE or f.expect_lost == []]
        for trial in trials:
            for replay in valid:
                graded = asyncio.run(grade_replay(loaded, replay, project / "agent", trial))
                where = f"{'instance 0' if seed is None else f'instance seed {seed}'}, trial {trial}"
                for part in graded.parts:
                    if part.score is None:
                        problems.append(f"{where}: {replay}: {part.id} unscored: {part.reason}")
                    elif part.score < part.max_points:
                        score = f"{part.score:g}/{part.max_points}"
                        problems.append(f"{where}: {replay}: {part.id} scored {score}: {part.reason}")
    return problems


def _validate_labels(loaded: LoadedScenario, labels: dict[tuple[str, str], Label]) -> None:
    """Every label names a judged part and a score within its points."""
    from evals.core.errors import BadInputError

    judged = {p.id: p.points for _, p in loaded.rubric.parts() if p.judge is not None}
    path = ScenarioFolder(loaded.folder).labels
    for (part, _sha), label in labels.items():
        if part not in judged:
            raise BadInputError(f"{path}: labels: part {part!r} is not a judged part of rubric.yaml")
        if label.score > judged[part]:
            raise BadInputError(
                f"{path}: labels: {part}: score {label.score} is above the part's {judged[part]} points"
            )


def _load_replays(loaded: LoadedScenario) -> dict[str, ReplayFixture]:
    """Every replay fixture, reference first; a missing reference or an unknown part is bad data."""
    from evals.agents.replay import fixture_path, load_fixture
    from evals.core.errors import BadInputError

    folder = ScenarioFolder(loaded.folder)
    if not fixture_path(loaded.folder, REFERENCE).is_file():
        raise BadInputError(
            f"{fixture_path(loaded.folder, REFERENCE)}: missing: every task needs its reference solution"
        )
    names = folder.replays()
    parts = {p.id for _, p in loaded.rubric.parts()}
    fixtures = {}
    for replay in names:
        fixture = load_fixture(loaded.folder, replay, loaded.scenario.instance.render)
        path = fixture_path(loaded.folder, replay)
        if replay == REFERENCE and fixture.expect_lost:
            raise BadInputError(f"{path}: expect_lost: the reference must lose nothing")
        unknown = sorted(set(fixture.expect_lost or []) - parts)
        if unknown:
            raise BadInputError(f"{path}: expect_lost: not parts of rubric.yaml: {', '.join(unknown)}")
        fixtures[replay] = fixture
    return fixtures


async def _grade_all(loaded: LoadedScenario, replays: list[str], agent_dir: Path) -> dict[str, TrialGrade]:
    return {replay: await grade_replay(loaded, replay, agent_dir) for replay in replays}


async def grade_replay(loaded: LoadedScenario, replay: str, agent_dir: Path, trial: int = 0) -> TrialGrade:
    """One replay in a fresh sandbox world for trial `trial`, graded like that trial of a run."""
    import asyncio

    from evals.authoring.replay_sandbox import replay_outcome
    from evals.grade.grader import grade

    outcome = await replay_outcome(loaded, replay, agent_dir, f"check-scenario-{replay}-{trial}", trial)
    return await asyncio.to_thread(grade, outcome, loaded, loaded.judge)


def _judge_replay(
    report: CheckReport, loaded: LoadedScenario, replay: str, fixture: ReplayFixture, graded: TrialGrade
) -> None:
    """Compare one replay's grade with its promise; explain every difference."""
    max_points = loaded.rubric.max_points
    lost = [p for p in graded.parts if p.score is not None and p.score < p.max_points]
    unscored = [p for p in graded.parts if p.score is None]
    lost_points = sum(p.max_points - (p.score or 0) for p in lost)
    head = f"  {replay}: {graded.total:g}/{max_points}"
    head += f", lost {', '.join(p.id for p in lost)} ({lost_points:g} points)" if lost else ""
    report.lines.append(head)
    for part in unscored:
        report.problems.append(f"{replay}: {part.id} unscored: {part.reason}")
        if part.evidence_sha256:
            stub = _label_stub(part.id, part.evidence_sha256, part.max_points, part.evidence_excerpt)
            report.lines.append(stub)
    expected = [] if replay == REFERENCE else fixture.expect_lost
    for change in graded.collateral:
        report.lines.append(f"    collateral: {change}")
        if expected == []:  # a reference or a declared valid replay changes only what the task writes
            report.problems.append(
                f"{replay}: changed beyond the task's write set (widen `writes:` in scenario.yaml if the "
                f"task needs it): {change}"
            )
    if expected is None:
        suggestion = f"expect_lost: [{', '.join(p.id for p in lost)}]"
        report.lines.append(f"    (not declared; this replay loses what `{suggestion}` would say)")
        return
    for part in lost:
        if part.id not in expected:
            why = "the reference must score full marks" if replay == REFERENCE else "not in expect_lost"
            score = f"{part.score:g}/{part.max_points}"
            report.problems.append(f"{replay}: {part.id} scored {score} ({why}): {part.reason}")
    scored_full = {p.id for p in graded.parts if p.score is not None and p.score == p.max_points}
    for part_id in expected:
        if part_id in scored_full:
            report.problems.append(f"{replay}: {part_id} scored full marks, but expect_lost says it is lost")


def _label_stub(part: str, sha: str, points: int, excerpt: str) -> str:
    """The labels.yaml entry a person completes, with the start of the evidence to read first."""
    shown = "\n".join(f"    # {line}" for line in excerpt.splitlines()[:12])
    return (
        f"    no label for this evidence; add to labels.yaml after reading it:\n{shown}\n"
        f"  - part: {part}\n    evidence_sha256: {sha}\n    score: 0  # 0..{points}\n"
        f"    by: YOUR NAME\n    why: ..."
    )
