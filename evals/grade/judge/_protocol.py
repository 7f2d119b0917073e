"""The judge contract: `decide_all(requests) -> verdicts`, one verdict per request, in order.

The grader puts a trial's judged parts to the judge together and never asks who answers: a model, a
cache of the model's answers, or the human labels. Which one is decided once, when the run is
planned (see `make_judge`), so every trial of a run is judged the same way.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from evals.grade.judge._judgement import Judgement
from evals.grade.judge._prompt import JudgePrompt


@dataclass(frozen=True)
class JudgeRequest:
    """One part's question to the judge: the rendered prompt and what identifies its evidence."""

    part: str
    points: int
    prompt: JudgePrompt
    text: str
    evidence_sha: str


@runtime_checkable
class Judge(Protocol):
    """Decides judged parts from their evidence. `model` is the model asked, None for human labels."""

    @property
    def model(self) -> str | None: ...

    def decide_all(self, requests: list[JudgeRequest]) -> list[Judgement]:
        """One verdict per request, in the same order; a failure is a verdict, never an exception."""
        ...
