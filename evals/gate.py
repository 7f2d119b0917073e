"""`compare(run, baseline) -> verdict`: the gate.

Verdicts and exit codes:
- `pass` (0): the total did not drop more than the threshold, or there is no baseline (a notice).
- `regression` (1): the total dropped more than the threshold *and* the confidence interval of the
  change lies wholly below zero, so noise cannot explain it.
- `inconclusive` (0, with a warning): the drop is past the threshold but the interval still holds
  zero, even after `run` spent the trial budget. Seed runs of one agent scored 16, 19 and 20, so a
  gate that failed on such a drop would flip on noise and be ignored; the report says how large a
  drop this k can detect, and the reviewer decides.
- `not-comparable` (4): the eval definition changed since the baseline (names what changed).
- `error` (3): too many trials failed for infrastructure reasons.

The rule itself (`decide`) and the adaptive step (`extra_trials`) are small pure functions over a
`stats.Estimate`, so the simulation benchmark (evals/bench.py) exercises exactly the live rule.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from math import comb
from typing import Any, Literal

from evals.baseline import Baseline, BaselineScenario
from evals.config import GateConfig, Threshold
from evals.errors import ExitCode
from evals.fingerprint import differences
from evals.stats import Estimate, cluster

VerdictName = Literal["pass", "regression", "inconclusive", "not-comparable", "error"]
Decision = Literal["pass", "regression", "inconclusive"]

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
    total: dict[str, Any] | None = None
    estimate: Estimate | None = None

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


def _delta(a: float | None, b: float | None) -> float | None:
    return round(a - b, 4) if a is not None and b is not None else None


def _items(
    run: dict[str, dict[str, Any]], means: dict[str, float | None], rates: dict[str, float | None]
) -> dict[str, dict[str, Any]]:
    return {
        item: {
            "baseline": means.get(item),
            "run": v["mean"],
            "delta": _delta(v["mean"], means.get(item)),
            "baseline_pass_rate": rates.get(item),
            "pass_rate": v.get("pass_rate"),
            "pass_rate_delta": _delta(v.get("pass_rate"), rates.get(item)),
        }
        for item, v in run.items()
    }


def _baseline_pass_rates(base: BaselineScenario, k: int, pass_threshold: float) -> dict[str, float | None]:
    """The baseline's pass@k and pass^k at *this run's* k, so the rows compare like with like.

    Unbiased estimates from the baseline's n trials with c passes: pass@k = 1 - C(n-c, k)/C(n, k),
    pass^k = C(c, k)/C(n, k). Undefined (None) when k exceeds n: n draws say nothing about k > n.
    """
    n = len(base.trials)
    c = sum(t.total >= pass_threshold for t in base.trials)
    if k < 1 or k > n:
        return {"pass_at_1": base.pass_at_1, "pass_at_k": None, "pass_pow_k": None}
    return {
        "pass_at_1": base.pass_at_1,
        "pass_at_k": round(1 - comb(n - c, k) / comb(n, k), 4),
        "pass_pow_k": round(comb(c, k) / comb(n, k), 4),
    }


@dataclass(frozen=True)
class Comparable:
    """One scenario's totals restricted to the parts scored on both sides.

    A part the judge could not decide is missing data, not a zero: comparing a run whose judge was
    down (its total lacks those parts) with a fully scored baseline would report a regression that is
    really an outage. So both totals sum only the parts scored at least once on each side, and a
    trial's missing part is filled with its side's mean for that part (the trial total's spread then
    comes from the parts that were decided).
    """

    parts: list[str]
    excluded: list[str]
    mean_run: float
    mean_base: float
    run_totals: list[float]
    base_totals: list[float]


def _fill(scores: dict[str, float | None], parts: list[str], means: dict[str, float]) -> float:
    return sum(v if (v := scores.get(p)) is not None else means[p] for p in parts)


def comparable(agg: dict[str, Any], base: BaselineScenario) -> Comparable:
    run_means = {p: v["mean"] for p, v in agg["parts"].items() if v["mean"] is not None}
    base_means = {p: v for p, v in base.parts.items() if v is not None}
    parts = [p for p in agg["parts"] if p in run_means and p in base_means]
    excluded = [p for p in agg["parts"] if p not in parts]
    run_trials = agg["total"].get("per_trial_parts")
    run_totals = (
        [_fill(t, parts, run_means) for t in run_trials]
        if run_trials is not None
        else agg["total"]["per_trial"]
    )
    return Comparable(
        parts=parts,
        excluded=excluded,
        mean_run=round(sum(run_means[p] for p in parts), 4),
        mean_base=round(sum(base_means[p] for p in parts), 4),
        run_totals=run_totals,
        base_totals=[_fill(t.parts, parts, base_means) for t in base.trials],
    )


def _scenario_entry(agg: dict[str, Any], base: BaselineScenario, cmp: Comparable) -> dict[str, Any]:
    return {
        "baseline": cmp.mean_base,
        "run": cmp.mean_run,
        "delta": _delta(cmp.mean_run, cmp.mean_base),
        "excluded_parts": cmp.excluded,
        "k": agg["k"],
        "baseline_k": len(base.trials),
        "baseline_pass": _baseline_pass_rates(base, agg["k"], agg["pass_threshold"]),
        "baseline_usage": base.usage,
        "criteria": _items(agg["criteria"], base.criteria, base.criteria_pass_rate),
        "categories": _items(agg["categories"], base.categories, base.categories_pass_rate),
    }


def compare(
    aggregates: dict[str, dict[str, Any]],
    fingerprint: dict[str, Any],
    baseline: Baseline | None,
    threshold: Threshold,
    gate: GateConfig | None = None,
    max_error_share: float = 0.5,
) -> GateResult:
    settings = gate or GateConfig()
    result = GateResult(verdict="pass")
    for name, agg in aggregates.items():
        trials = agg["k"] + agg["errored"]
        if trials and agg["errored"] / trials > max_error_share:
            result.verdict = "error"
            result.reasons.append(
                f"{name}: {agg['errored']} of {trials} trials failed for infrastructure reasons"
            )
        elif trials and agg["k"] == 0:
            result.verdict = "error"
            result.reasons.append(f"{name}: no trial finished")
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
        result.notices.append(
            "totals graded by different definitions are not compared; bless a baseline from a run of "
            "this definition (`python -m evals baseline bless --run DIR`, or the next nightly run)"
        )
        return result
    clusters = []
    max_points = 0
    for name, agg in aggregates.items():
        base = baseline.scenarios.get(name)
        if base is None or not base.trials or agg["total"]["mean"] is None or base.total_mean is None:
            result.notices.append(f"{name}: not in the baseline; shown, not gated")
            continue
        cmp = comparable(agg, base)
        if not cmp.parts:
            result.notices.append(f"{name}: no part is scored on both sides; shown, not gated")
            continue
        if cmp.excluded:
            result.notices.append(
                f"{name}: compared on the parts scored on both sides; left out (unscored on one side): "
                f"{', '.join(cmp.excluded)}"
            )
        result.scenarios[name] = _scenario_entry(agg, base, cmp)
        prior_sd = settings.prior_sd_percent / 100 * agg["max_points"]
        clusters.append(
            cluster(
                name,
                cmp.run_totals,
                cmp.base_totals,
                prior_sd,
                mean_run=cmp.mean_run,
                mean_base=cmp.mean_base,
            )
        )
        max_points += agg["max_points"]
    if not clusters:
        return result
    estimate = Estimate(tuple(clusters))
    allowed = threshold.allowed_drop(max_points)
    low, high = estimate.interval(settings.confidence)
    result.estimate = estimate
    result.total = {
        "baseline": round(sum(c.mean_base for c in clusters), 4),
        "run": round(sum(c.mean_run for c in clusters), 4),
        "delta": round(estimate.delta, 4),
        "ci": [round(low, 4), round(high, 4)],
        "confidence": settings.confidence,
        "se": round(estimate.se(), 4),
        "allowed_drop": round(allowed, 4),
        "detectable_drop": round(estimate.detectable_drop(settings.confidence, settings.power, allowed), 4),
        "power": settings.power,
        "k": min(c.n_run for c in clusters),
        "baseline_k": min(c.n_base for c in clusters),
        "budget": settings.max_trials,
    }
    decision = decide(estimate, allowed, settings.confidence)
    result.verdict = decision
    ci = f"{settings.confidence:.0%} CI {low:+.2f} to {high:+.2f}"
    summary = (
        f"total {result.total['run']:.2f} vs baseline {result.total['baseline']:.2f} "
        f"(Δ {estimate.delta:+.2f}, {ci}; allowed drop {allowed:g})"
    )
    dropped = list(  # rubric order: C2 before C13
        f"{name}/{c}" if len(aggregates) > 1 else c
        for name, entry in result.scenarios.items()
        for c, v in entry["criteria"].items()
        if v["delta"] is not None and v["delta"] < 0
    )
    if decision == "regression":
        result.reasons.append(f"{summary}; dropped: {', '.join(dropped) or 'spread over criteria'}")
    elif decision == "inconclusive":
        result.reasons.append(
            f"{summary}: the drop is past the threshold but noise could explain it "
            f"(k={result.total['k']}; this k detects drops of {result.total['detectable_drop']:.1f} or more)"
        )
    return result
