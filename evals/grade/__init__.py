"""Two-layer grading: deterministic checks on the outcome, then an LLM judge per part where they passed."""

from evals.grade.grader import PartGrade, TrialGrade, grade
from evals.grade.judge import Judge, Verdict, make_judge
from evals.grade.labels import load_labels
from evals.grade.rubric import Rubric, load_rubric

__all__ = [
    "Judge",
    "PartGrade",
    "Rubric",
    "TrialGrade",
    "Verdict",
    "grade",
    "load_labels",
    "load_rubric",
    "make_judge",
]
