"""Layer-1 checks and evidence extractors, registered by name for rubric data to use."""

from evals.grade.checks import mail, notion, python, repo

__all__ = ["mail", "notion", "python", "repo"]
