"""Named layer-1 checks and evidence extractors that rubric data refers to.

A rubric says `check: python.constant_equals` with parameters; the function registered under that
name decides it from the outcome alone. Keeping checks as named, parameterised functions means the
rubric stays data and each failure in a report says exactly which assertion failed and why.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from evals.outcome import Outcome
from evals.scenario.model import Scenario


@dataclass(frozen=True)
class CheckResult:
    passed: bool
    detail: str
    evidence: str = ""


@dataclass
class GradeContext:
    """What a check may read: the outcome, the scenario, and the untouched seeded state for contrast."""

    outcome: Outcome
    scenario: Scenario
    cache: dict[str, Any] = field(default_factory=dict)

    @cached_property
    def seeded(self) -> Outcome:
        """The world as seeded, as the backend recorded it on the outcome (`Outcome.as_seeded`).

        Compatibility path: an outcome.json written before backends recorded it (`grade --run` on
        an old run) has no record, and the sandbox world is seeded again to stand in for it, as
        was always done (for a live run that is the scenario's data, not the real services)."""
        recorded = self.outcome.as_seeded()
        if recorded is not None:
            return recorded
        from evals.world import outcome, seed

        return outcome(seed(self.scenario, self.outcome.trial))


CheckFn = Callable[..., CheckResult]
EvidenceFn = Callable[..., str]

CHECKS: dict[str, CheckFn] = {}
EVIDENCE: dict[str, EvidenceFn] = {}


def check(name: str) -> Callable[[CheckFn], CheckFn]:
    def register(fn: CheckFn) -> CheckFn:
        CHECKS[name] = fn
        return fn

    return register


def evidence(name: str) -> Callable[[EvidenceFn], EvidenceFn]:
    def register(fn: EvidenceFn) -> EvidenceFn:
        EVIDENCE[name] = fn
        return fn

    return register


def bad_params(fn: Callable[..., Any], params: dict[str, Any]) -> str | None:
    """Why `params` do not fit fn(ctx, **params), or None when they do (checked at rubric load)."""
    try:
        inspect.signature(fn).bind(None, **params)
    except TypeError as exc:
        return str(exc)
    return None
