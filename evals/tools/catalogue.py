"""Importing this module registers every sandbox tool in `evals.tools.base.CATALOGUE`."""

from evals.tools import github, gmail, notion

__all__ = ["github", "gmail", "notion"]
