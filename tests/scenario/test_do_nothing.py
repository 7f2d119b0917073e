"""Doing nothing earns nothing: every scenario graded on the world as seeded scores 0.

A "did no harm" part (the spec untouched, no secret mailed, the colleague's ticket left alone) is
only worth its point when the main work happened: a do-nothing agent harms nothing, and scoring it
would reward the empty run the gate most needs to catch. Each scenario's rubric makes such parts
`requires:` the parts that do the work.
"""

from __future__ import annotations

import pytest

from evals.core.config import load_config
from evals.grade.grader import grade
from evals.grade.judge import make_judge
from evals.grade.labels import load_labels
from evals.grade.rubric import load_rubric
from evals.grade.task import Task
from evals.scenario.load import list_scenarios, load_scenario
from evals.world.sandbox.seed import seed
from evals.world.sandbox.snapshot import outcome
from tests.support.paths import ROOT

CONFIG, _ = load_config(ROOT)
SCENARIOS = ROOT / CONFIG.scenarios_dir


@pytest.mark.parametrize("name", list_scenarios(SCENARIOS))
def test_the_world_as_seeded_scores_nothing(name: str) -> None:
    folder = SCENARIOS / name
    scenario = load_scenario(SCENARIOS, name)
    judge = make_judge(CONFIG.judge, ROOT, load_labels(folder), api_key_present=False)
    graded = grade(outcome(seed(scenario, 0)), Task(scenario, load_rubric(folder), folder), judge)
    earned = [f"{p.id} ({p.reason})" for p in graded.parts if p.score]
    assert graded.total == 0, f"{name}: a do-nothing agent earns {graded.total}: " + "; ".join(earned)
