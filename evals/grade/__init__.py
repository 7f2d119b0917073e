"""Two-layer grading: deterministic checks on the outcome, then an LLM judge per part where they passed.

Import from the submodule that defines a name (`evals.grade.grader.grade`, `evals.grade.result.
TrialGrade`, `evals.grade.rubric.load_rubric`, ...): this package re-exports nothing, so reading a
stored grade or validating a rubric never imports the grader and everything it needs (`compare`
and the other post-run commands never grade).
"""
