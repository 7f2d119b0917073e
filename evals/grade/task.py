"""A loaded task: the scenario, its rubric and the folder both came from, as one object.

The grader needs all three together (the rubric's judge prompts are files beside it, a task's own
checks read its folder), so they travel as one value instead of three arguments that a caller
could mismatch (one scenario's rubric graded with another's folder). It lives here, in the grading
layer, because the rubric does; `evals.definition.LoadedScenario` is this plus who judges.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from evals.grade.rubric import Rubric
from evals.scenario.model import Scenario


@dataclass(frozen=True)
class Task:
    """One task, loaded and validated: what the agent is asked (`scenario`), how it is graded
    (`rubric`), and the folder both were read from (judge prompts, labels, replays live there)."""

    scenario: Scenario
    rubric: Rubric
    folder: Path

    @property
    def name(self) -> str:
        return self.scenario.name
