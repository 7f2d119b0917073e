"""`verdict(comparison) -> Verdict`: the gate.

Verdicts and exit codes:
- `pass` (0): the total did not drop more than the threshold, or there is no baseline (a notice).
- `regression` (1): the total dropped more than the threshold *and* the confidence interval of the
  change lies wholly below zero, so noise cannot explain it.
- `inconclusive` (0, with a warning): the drop is past the threshold but the interval still holds
  zero, even after `run` spent the trial budget. Seed runs of one agent scored 16, 19 and 20, so a
  gate that failed on such a drop would flip on noise and be ignored; the report says how large a
  drop this k can detect, and the reviewer decides.
- `not-comparable` (4): the eval definition changed since the baseline (names what changed).
- `error` (3): more than `max_error_share` of a scenario's trials failed for infrastructure reasons.

The rule itself (`decide`) and the adaptive step (`extra_trials`) are small pure functions over a
`stats.Estimate`, so the simulation benchmark (evals/bench.py) exercises exactly the live rule.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from evals.compare import Comparison, TotalComparison
from evals.errors import ExitCode
from evals.stats import Estimate

VerdictName = Literal["pass", "regression", "inconclusive", "not-comparable", "error"]
Decision = Literal["pass", "regression", "inconclusive"]

EXIT_CODES: dict[str, ExitCode] = {
    "pass": ExitCode.PASS,
    "regression": ExitCode.REGRESSION,
    "inconclusive": ExitCode.PASS,
    "not-comparable": ExitCode.NOT_COMPARABLE,
    "error": ExitCode.INFRASTRUCTURE,
}
NO_BASELINE = "no baseline: nothing to compare with (bless one with `python -m evals baseline bless`)"
BLESS_AGAIN = (
    "totals graded by different definitions are not compared; bless a baseline from a run of "
    "this definition (`python -m evals baseline bless --run DIR`, or the next nightly run)"
)


class Verdict(BaseModel):
    """What the gate decided, why (reasons), and what a reviewer should know besides (notices)."""

    model_config = ConfigDict(extra="forbid")

    verdict: VerdictName
    reasons: list[str] = Field(default_factory=list)
    notices: list[str] = Field(default_factory=list)

    @property
    def exit_code(self) -> ExitCode:
        return EXIT_CODES[self.verdict]


def decide(estimate: Estimate, allowed_drop: float, confidence: float) -> Decision:
    """A drop past the threshold is a regression when the interval excludes no change."""
    if estimate.delta >= -allowed_drop:
        return "pass"
    _, high = estimate.interval(confidence)
    return "regression" if high < 0 else "inconclusive"


def extra_trials(
    estimate: Estimate, k: int, budget: int, allowed_drop: float, confidence: float, min_trials: int = 1
) -> int:
    """How many trials per scenario to add before deciding (0: decide now). Budget 0 disables it.

    A noisy run with fewer than `min_trials` trials is topped up first: one trial of an agent whose
    score spreads by 2 points on 25 says `pass` to a 3-point drop one time in six. A run with no
    spread at all (a deterministic replay) is never topped up: more trials would tell nothing new.
    After that, only an inconclusive verdict earns trials: jump to the smallest k at which the
    observed drop would be significant if it held, but at least double k, because every extra look
    is another chance for noise to cross the line; few, large steps keep false alarms near the
    nominal rate (evals/bench.py measures it).
    """
    if k >= budget:
        return 0
    if k < min_trials and estimate.se() > 0:
        return min(min_trials, budget) - k
    if decide(estimate, allowed_drop, confidence) != "inconclusive":
        return 0
    floor = min(budget, 2 * k)
    for target in range(floor, budget + 1):
        if estimate.interval(confidence, target)[1] < 0:
            return target - k
    return budget - k


def dropped_criteria(comparison: Comparison, several: bool) -> list[str]:
    """Criteria whose mean fell, in rubric order, prefixed by scenario when the run has several."""
    return [
        f"{name}/{c}" if several else c
        for name, entry in comparison.scenarios.items()
        for c, v in entry.criteria.items()
        if v.delta is not None and v.delta < 0
    ]


def _statement(total: TotalComparison) -> str:
    low, high = total.ci
    return (
        f"total {total.run:.2f} vs baseline {total.baseline:.2f} "
        f"(Δ {total.delta:+.2f}, {total.confidence:.0%} CI {low:+.2f} to {high:+.2f}; "
        f"allowed drop {total.allowed_drop:g})"
    )


def verdict(comparison: Comparison, several_scenarios: bool) -> Verdict:
    """Turn what compare found into the verdict, its reasons and notices."""
    if comparison.errored:
        return Verdict(verdict="error", reasons=list(comparison.errored))
    if comparison.no_baseline:
        return Verdict(verdict="pass", notices=[NO_BASELINE])
    if comparison.changed:
        return Verdict(
            verdict="not-comparable",
            reasons=[f"eval definition changed since the baseline: {c}" for c in comparison.changed],
            notices=[BLESS_AGAIN],
        )
    total, estimate = comparison.total, comparison.estimate
    if total is None or estimate is None:
        return Verdict(verdict="pass", notices=list(comparison.notices))
    decision = decide(estimate, total.allowed_drop, total.confidence)
    reasons = []
    if decision == "regression":
        dropped = ", ".join(dropped_criteria(comparison, several_scenarios)) or "spread over criteria"
        reasons.append(f"{_statement(total)}; dropped: {dropped}")
    elif decision == "inconclusive":
        reasons.append(
            f"{_statement(total)}: the drop is past the threshold but noise could explain it "
            f"(k={total.k}; this k detects drops of {total.detectable_drop:.1f} or more)"
        )
    return Verdict(verdict=decision, reasons=reasons, notices=list(comparison.notices))
