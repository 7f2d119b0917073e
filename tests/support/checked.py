"""check-scenario on the committed project, once per (task, instance) in a test process.

Several modules ask check-scenario the same question of the committed tree: the task suite grades
every task at instance 0, the instance sweep grades instance 0 and four drawn seeds, Nightshift's and
the serious-violation tests read instance 0's grades again. check-scenario only reads the committed
project, so the same (task, seed) always gives the same report: it is computed once per process and
shared (`CHECK_GROUP` puts every test asking about one task on the same xdist worker, so "once per
process" is "once"). A confined pytest run inside it is memoised by its complete input (the tree,
the targets, the trusted tree and the forced confinement mode): a repeat is the same subprocess on the
same bytes. Nothing is shortened: every replay of every instance is still graded.
"""

from __future__ import annotations

import contextlib
import functools
import os
from collections.abc import Iterator, Mapping, Sequence

from evals.authoring.check import CheckReport, check_scenario
from evals.core.config import load_config
from evals.grade.confine.testrun import PytestRun
from tests.support.paths import ROOT

PytestKey = tuple[
    tuple[tuple[str, str], ...], tuple[str, ...], tuple[tuple[str, str], ...], tuple[str | None, ...]
]
_PYTEST_RUNS: dict[PytestKey, PytestRun] = {}
CONFINE_VARS = ("EVALS_CONFINE", "EVALS_CONFINE_MINIMUM")


def check_group(task: str) -> str:
    """The xdist group of every test that reads `task`'s committed check (`--dist loadgroup`)."""
    return f"check-{task}"


@contextlib.contextmanager
def memoised_pytest() -> Iterator[None]:
    """`run_pytest`, as the python checks call it, answered from a memo of its complete input."""
    from evals.grade.checks import python

    original = python.run_pytest

    def run(
        files: Mapping[str, str], targets: Sequence[str], trusted: Mapping[str, str] | None = None
    ) -> PytestRun:
        key = (
            tuple(sorted(files.items())),
            tuple(targets),
            tuple(sorted((trusted or {}).items())),
            tuple(os.environ.get(name) for name in CONFINE_VARS),
        )
        if key not in _PYTEST_RUNS:
            _PYTEST_RUNS[key] = original(files, targets, trusted)
        return _PYTEST_RUNS[key]

    python.run_pytest = run  # type: ignore[assignment]
    try:
        yield
    finally:
        python.run_pytest = original


@functools.cache
def committed_check(task: str, seed: int | None = None) -> CheckReport:
    """check-scenario's report for `task` at instance `seed` (None: instance 0) of the committed
    project. Shared: callers read it and never change it."""
    config, project = load_config(ROOT)
    with memoised_pytest():
        return check_scenario(project, config, task, seed)
