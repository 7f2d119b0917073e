"""What the agent wrote that the grader cannot write, parse or walk fails the parts that read it (#38).

The issue's attack: one tool call creating a file with a very long name made writing the tree for
the confined checks fail outside the grader's error handling, so those parts became "grader error",
unscored, and dropped out of the comparison; a leaky fix that was a regression became a pass. A
100,000-deep expression or a deeply nested YAML file did the same through a RecursionError. Each
case below is the Nightshift reference run with one such file added to its pull request: the trial
is graded, nothing is unscored, and the parts that read the file fail with the reason. A bug in the
grader itself stays a grader error.
"""

from __future__ import annotations

import copy
from types import SimpleNamespace
from typing import Any

import pytest

from evals.grade.artefact import MAX_NESTING, AgentArtefactError, nesting
from evals.grade.checks.python_values import assigned_value
from evals.grade.grader import _run_check, grade
from evals.grade.judge import Judgement, JudgeRequest
from evals.grade.registry import CheckResult, GradeContext
from evals.grade.result import TrialGrade
from evals.grade.rubric import load_rubric
from evals.grade.task import Task
from evals.scenario.load import load_scenario
from evals.scenario.model import Scenario
from evals.world.outcome import Outcome
from evals.world.treediff import changed_paths, diff_trees
from tests.support.nightshift import play
from tests.support.paths import ROOT

FOLDER = ROOT / "scenario" / "nightshift"
PROC = "hydra/pipeline/stream_processor.py"
MANIFEST = "k8s/deployments/hydra-pipeline.yaml"
PROBED = {"C2a", "C2b", "C3", "C4a"}  # the parts whose checks run the PR's Python in the confinement


class FullMarks:
    """A judge that gives every judged part full marks: only layer 1 is under test here."""

    @property
    def model(self) -> str | None:
        return None

    def decide_all(self, requests: list[JudgeRequest]) -> list[Judgement]:
        return [Judgement(status="scored", source="label", score=r.points, critique="ok") for r in requests]


@pytest.fixture(scope="module")
def scenario() -> Scenario:
    return load_scenario(ROOT / "scenario", "nightshift")


@pytest.fixture(scope="module")
def reference(scenario: Scenario) -> Outcome:
    from evals.world.sandbox.snapshot import outcome

    return outcome(play(scenario, 0)[0])


def graded(reference: Outcome, scenario: Scenario, files: dict[str, str]) -> TrialGrade:
    """The reference with `files` added to (or replaced in) the OOM fix's pull request, graded."""
    out = copy.deepcopy(reference)
    repo = out.repos[0]
    (pr,) = [p for p in repo.pulls if "(#142)" in p.title]
    pr.files = {**pr.files, **files}
    pr.changed = [path for path, _ in changed_paths(repo.main_files, pr.files)]
    pr.diff = diff_trees(repo.main_files, pr.files)
    return grade(out, Task(scenario, load_rubric(FOLDER), FOLDER), FullMarks())


def failed_for(result: TrialGrade, phrase: str) -> set[str]:
    """The parts that failed with `phrase` in their reason; the trial must be fully graded."""
    assert result.unscored == [], [(p.id, p.reason) for p in result.parts if p.score is None]
    assert not any(c.grader_error for p in result.parts for c in p.checks)
    return {p.id for p in result.parts if p.status == "failed" and p.score == 0 and phrase in p.reason}


def test_the_reference_passes_every_part(reference: Outcome, scenario: Scenario) -> None:
    result = graded(reference, scenario, {})
    assert result.unscored == [] and all(p.status == "passed" for p in result.parts)


@pytest.mark.parametrize(
    "name",
    ["hydra/" + "n" * 300 + ".py", "/".join(["d" * 200] * 22) + "/x.py", "hydra/bad\udc80\ud800.py"],
    ids=["a-300-byte-name", "a-4400-byte-path", "odd-bytes"],
)
def test_a_file_the_grader_cannot_write_fails_the_parts_that_run_the_tree(
    reference: Outcome, scenario: Scenario, name: str
) -> None:
    result = graded(reference, scenario, {name: "X = 1\n"})
    phrase = "cannot be written" if "\udc80" not in name else "cannot be encoded"
    assert failed_for(result, phrase) >= PROBED


def test_a_deeply_nested_yaml_file_fails_the_parts_that_read_it(
    reference: Outcome, scenario: Scenario
) -> None:
    nested = {MANIFEST: "spec: " + "[" * 100_000 + "]" * 100_000 + "\n"}
    assert failed_for(graded(reference, scenario, nested), "nested too deeply") >= {"C8", "C9a"}
    block = "".join(f"{'  ' * i}k{i}:\n" for i in range(MAX_NESTING + 5)) + "  " * (MAX_NESTING + 5) + "v\n"
    assert failed_for(graded(reference, scenario, {MANIFEST: block}), "nests deeper than") >= {"C8", "C9a"}


def test_a_100k_deep_python_expression_fails_the_parts_that_read_the_file(
    reference: Outcome, scenario: Scenario
) -> None:
    source = reference.repos[0].pulls[0].files[PROC] + "\n_X = " + "1+" * 100_000 + "1\n"
    result = graded(reference, scenario, {PROC: source})
    assert failed_for(result, "nested too deeply") >= {"C1"}
    assert {p.id for p in result.parts if p.status == "failed"} >= {"C1", "C2a", "C2b", "C3"}  # import it


def test_what_parses_within_the_bound_the_grader_can_walk() -> None:
    """The bound is what makes a RecursionError after it a grader bug: a tree just inside it goes
    through the recursive readers (ast.unparse in the value resolver) without one."""
    src = "X = " + "1+" * (MAX_NESTING - 10) + "1"
    assert isinstance(assigned_value(src, "X"), int | str)
    with pytest.raises(AgentArtefactError, match="nests deeper"):
        assigned_value("X = " + "1+" * (MAX_NESTING + 10) + "1", "X")
    loop: list[Any] = []
    loop.append(loop)
    assert nesting(loop) > MAX_NESTING  # a YAML alias to itself nests without end


def test_only_the_agent_s_bytes_are_its_failure_a_grader_bug_stays_a_grader_error(
    reference: Outcome, scenario: Scenario
) -> None:
    def unreadable(ctx: GradeContext) -> CheckResult:
        raise AgentArtefactError("the file 'x' cannot be written: File name too long")

    def buggy(ctx: GradeContext) -> CheckResult:
        def forever(n: int) -> int:
            return forever(n + 1)

        return CheckResult(forever(0) > 0, "")

    registry = SimpleNamespace(checks={"t.unreadable": unreadable, "t.buggy": buggy})
    ctx = GradeContext(outcome=reference, scenario=scenario)
    agent = _run_check(registry, ctx, "t.unreadable", {})  # type: ignore[arg-type]
    bug = _run_check(registry, ctx, "t.buggy", {})  # type: ignore[arg-type]
    assert not agent.passed and not agent.grader_error and "File name too long" in agent.detail
    assert bug.grader_error and "RecursionError" in bug.detail
