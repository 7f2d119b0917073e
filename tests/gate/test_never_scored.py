"""A part at 0 in every trial of both the baseline and the run: the eval-suite seed's "suspect the
task" (0 % pass@k almost always means a task or grader bug). A task whose reference replay scores
every part (held to it by `evals check-scenario`) is solvable as graded, and the notice says so."""

from __future__ import annotations

from pathlib import Path

from evals.baseline.bless import baseline_from_run
from evals.core.config import GateConfig, Threshold
from evals.gate.aggregate import aggregate
from evals.gate.compare import Comparison, Settings, compare
from tests.support.synthetic import FINGERPRINT, summarise, synthetic_rubric, trial_record

MISSED = {"C11a", "C14", "C20"}


def compared(solved: frozenset[str]) -> Comparison:
    rubric = synthetic_rubric()
    base_records = [trial_record(rubric, t, MISSED) for t in range(6)]
    baseline = baseline_from_run(summarise(base_records, None, rubric=rubric), base_records, Path("runs/b"))
    run = {"nightshift": aggregate([trial_record(rubric, t, MISSED | {"C3"}) for t in range(3)], rubric)}
    return compare(run, FINGERPRINT, baseline, Settings(Threshold(points=1.5), GateConfig(), solved=solved))


def test_parts_no_trial_ever_scored_make_the_task_suspect() -> None:
    notices = [n for n in compared(frozenset()).notices if "every trial" in n]
    assert notices == [
        "nightshift: suspect the scenario: C11a, C14, C20 scored 0 in every trial of both the baseline and "
        "this run (0 % pass@k almost always means a scenario or grader bug, not a hopeless agent)"
    ]


def test_with_a_reference_replay_the_notice_says_the_task_is_solvable_as_graded() -> None:
    notices = [n for n in compared(frozenset({"nightshift"})).notices if "every trial" in n]
    assert len(notices) == 1 and "suspect the scenario" not in notices[0]
    assert notices[0].startswith("nightshift: never scored: C11a, C14, C20 scored 0 in every trial")
    assert "`evals check-scenario nightshift`" in notices[0]
    one_line = len(notices[0]) <= 180 and "\n" not in notices[0]
    assert one_line and notices[0].endswith("docs/gate.md#never-scored")


def test_the_committed_tasks_ship_a_reference_replay(full_project: Path) -> None:
    """Every committed task is `solved` (tests/scenario/test_task_suite.py runs check-scenario on each)."""
    from evals.core.project import load_project
    from evals.definition import load_definition

    config, root = load_project(None)
    definition = load_definition(root, config, None, with_judge=False)
    assert definition.settings.solved == frozenset(definition.scenarios)
