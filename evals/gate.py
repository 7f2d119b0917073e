"""`compare(run, baseline) -> verdict`: the gate.

Verdicts: pass, regression, not-comparable (the eval definition changed since the baseline), error
(too many trials failed for infrastructure reasons). A scenario regresses when its total mean drops
more than the configured threshold below the baseline.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from evals.baseline import Baseline
from evals.config import Threshold
from evals.errors import ExitCode
from evals.fingerprint import differences

VerdictName = Literal["pass", "regression", "inconclusive", "not-comparable", "error"]

EXIT_CODES: dict[str, ExitCode] = {
    "pass": ExitCode.PASS,
    "regression": ExitCode.REGRESSION,
    "inconclusive": ExitCode.PASS,
    "not-comparable": ExitCode.NOT_COMPARABLE,
    "error": ExitCode.INFRASTRUCTURE,
}


@dataclass
class GateResult:
    verdict: VerdictName
    reasons: list[str] = field(default_factory=list)
    notices: list[str] = field(default_factory=list)
    scenarios: dict[str, dict[str, Any]] = field(default_factory=dict)

    @property
    def exit_code(self) -> ExitCode:
        return EXIT_CODES[self.verdict]


def _delta(a: float | None, b: float | None) -> float | None:
    return round(a - b, 4) if a is not None and b is not None else None


def compare(
    aggregates: dict[str, dict[str, Any]],
    fingerprint: dict[str, Any],
    baseline: Baseline | None,
    threshold: Threshold,
    max_error_share: float = 0.5,
) -> GateResult:
    result = GateResult(verdict="pass")
    for name, agg in aggregates.items():
        trials = agg["k"] + agg["errored"]
        if trials and agg["errored"] / trials > max_error_share:
            result.verdict = "error"
            result.reasons.append(
                f"{name}: {agg['errored']} of {trials} trials failed for infrastructure reasons"
            )
    if result.verdict == "error":
        return result
    if baseline is None:
        result.notices.append(
            "no baseline: nothing to compare with (bless one with `python -m evals baseline bless`)"
        )
        return result
    changed = differences(baseline.fingerprint, fingerprint)
    if changed:
        result.verdict = "not-comparable"
        result.reasons.extend(f"eval definition changed since the baseline: {c}" for c in changed)
        return result
    for name, agg in aggregates.items():
        base = baseline.scenarios.get(name)
        if base is None:
            result.notices.append(f"{name}: not in the baseline")
            continue
        entry: dict[str, Any] = {
            "baseline": base.total_mean,
            "run": agg["total"]["mean"],
            "delta": _delta(agg["total"]["mean"], base.total_mean),
            "allowed_drop": threshold.allowed_drop(agg["max_points"]),
            "criteria": {
                c: {
                    "baseline": base.criteria.get(c),
                    "run": v["mean"],
                    "delta": _delta(v["mean"], base.criteria.get(c)),
                }
                for c, v in agg["criteria"].items()
            },
            "categories": {
                c: {
                    "baseline": base.categories.get(c),
                    "run": v["mean"],
                    "delta": _delta(v["mean"], base.categories.get(c)),
                }
                for c, v in agg["categories"].items()
            },
        }
        result.scenarios[name] = entry
        delta = entry["delta"]
        if delta is not None and -delta > entry["allowed_drop"]:
            result.verdict = "regression"
            dropped = [c for c, v in entry["criteria"].items() if v["delta"] is not None and v["delta"] < 0]
            result.reasons.append(
                f"{name}: total {agg['total']['mean']:g} vs baseline {base.total_mean:g} "
                f"(Δ {delta:+g}, allowed drop {entry['allowed_drop']:g}); dropped: {', '.join(dropped)}"
            )
    return result
