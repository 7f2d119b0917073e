"""The statistics behind the gate: how far the total moved from the baseline, and how sure we are.

Trials are independent draws of one agent's score, so a scenario's change is a two-sample
comparison of its trial totals against the baseline's (Welch: the two sides may differ in spread as
well as in mean). With several scenarios, each one is a cluster with its own difficulty and noise:
variances are estimated inside each scenario and summed (a stratified estimate), never pooled over
all trials, where the gap between an easy and a hard scenario would pose as noise. Degrees of
freedom for the sum come from the Welch–Satterthwaite formula.

Small-k fallbacks, because a PR run may have a single trial: a side with one trial borrows the other
side's variance (equal-spread assumption, with that side's degrees of freedom); with one trial on
both sides there is no variance to estimate, so a configured prior σ stands in (normal quantiles).
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

from evals.gate.tdist import t_quantile

INF = math.inf


def quantile(p: float, df: float) -> float:
    """The p-quantile of Student's t with df degrees of freedom (the normal when df is infinite).

    Computed in the standard library (evals/gate/tdist.py, held to scipy's `stdtrit` in the tests):
    importing scipy for two numbers cost every command that computes an interval a fifth to most of
    a second, several times the comparison itself.
    """
    return t_quantile(p, df)


@dataclass(frozen=True)
class Cluster:
    """One scenario: its run and baseline trial totals reduced to what the estimate needs."""

    name: str
    mean_run: float
    mean_base: float
    n_run: int
    n_base: int
    var_run: float
    var_base: float
    df_run: float
    df_base: float
    borrowed: bool  # one side's variance stands in for both (shares its degrees of freedom)

    @property
    def delta(self) -> float:
        return self.mean_run - self.mean_base

    def se2(self, n_run: int | None = None) -> float:
        """Squared standard error of the delta, at this run's k or at a hypothetical one."""
        n = n_run or self.n_run
        return self.var_run / n + self.var_base / self.n_base

    def df(self, n_run: int | None = None) -> float:
        if self.borrowed:
            return self.df_run  # same estimate on both sides: one term, its own degrees of freedom
        n = n_run or self.n_run
        a, b = self.var_run / n, self.var_base / self.n_base
        df_run = self.df_run if n_run is None or math.isinf(self.df_run) else n - 1.0
        return _satterthwaite([(a, df_run), (b, self.df_base)])


def _satterthwaite(terms: list[tuple[float, float]]) -> float:
    """Welch–Satterthwaite degrees of freedom for a sum of independent variance terms."""
    total = sum(v for v, _ in terms)
    if total == 0:
        return INF
    denom = sum(v * v / df for v, df in terms if v > 0 and not math.isinf(df))
    return INF if denom == 0 else total * total / denom


def cluster(
    name: str,
    run: Sequence[float],
    base: Sequence[float],
    prior_sd: float,
    mean_run: float | None = None,
    mean_base: float | None = None,
) -> Cluster:
    """Reduce one scenario's trial totals; `mean_*` override the means (e.g. part-wise means that skip
    unscored parts) while the spread still comes from the trial totals."""
    if not run or not base:
        raise ValueError(f"{name}: need at least one trial on each side")
    var_r = statistics.variance(run) if len(run) > 1 else None
    var_b = statistics.variance(base) if len(base) > 1 else None
    borrowed = False
    if var_r is not None and var_b is not None:
        vr, vb, dr, db = var_r, var_b, len(run) - 1.0, len(base) - 1.0
    elif var_b is not None:
        vr = vb = var_b
        dr = db = len(base) - 1.0
        borrowed = True
    elif var_r is not None:
        vr = vb = var_r
        dr = db = len(run) - 1.0
        borrowed = True
    else:
        vr = vb = prior_sd * prior_sd
        dr = db = INF
    return Cluster(
        name=name,
        mean_run=statistics.fmean(run) if mean_run is None else mean_run,
        mean_base=statistics.fmean(base) if mean_base is None else mean_base,
        n_run=len(run),
        n_base=len(base),
        var_run=vr,
        var_base=vb,
        df_run=dr,
        df_base=db,
        borrowed=borrowed,
    )


@dataclass(frozen=True)
class Estimate:
    """The change of the total (sum over scenarios) with its uncertainty."""

    clusters: tuple[Cluster, ...]

    @property
    def delta(self) -> float:
        return sum(c.delta for c in self.clusters)

    def se(self, n_run: int | None = None) -> float:
        return math.sqrt(sum(c.se2(n_run) for c in self.clusters))

    def df(self, n_run: int | None = None) -> float:
        return _satterthwaite([(c.se2(n_run), c.df(n_run)) for c in self.clusters])

    def interval(self, confidence: float, n_run: int | None = None) -> tuple[float, float]:
        """Two-sided confidence interval of the delta (degenerate when there is no spread at all)."""
        se = self.se(n_run)
        if se == 0:
            return self.delta, self.delta
        half = quantile(0.5 + confidence / 2, self.df(n_run)) * se
        return self.delta - half, self.delta + half

    def detectable_drop(self, confidence: float, power: float, allowed_drop: float) -> float:
        """The smallest true drop the gate flags with probability `power` at this k.

        The gate needs the observed drop past `allowed_drop` and the interval's upper end below 0, so
        the observed mean must clear whichever is further; a true drop that far beyond it by
        z_power standard errors is caught with the stated power.
        """
        se, df = self.se(), self.df()
        if se == 0:
            return allowed_drop
        bar = max(allowed_drop, quantile(0.5 + confidence / 2, df) * se)
        return bar + quantile(power, df) * se


def trials_to_decide(estimate: Estimate, confidence: float, limit: int) -> int | None:
    """The run's trials per scenario at which the interval of this delta, were it to hold, would
    exclude no change: what an undecided drop would take to decide (the report says so). None when
    more run trials cannot do it by `limit`: the baseline's own spread then keeps the interval
    across zero however many trials the run adds. Pure: the gate's decisions never read it."""
    k = min(c.n_run for c in estimate.clusters)

    def decided(n: int) -> bool:
        low, high = estimate.interval(confidence, n)
        return high < 0 or low > 0

    if decided(k):
        return k
    if not decided(limit):
        return None
    lo, hi = k, limit  # not decided at lo, decided at hi: the interval narrows as n grows
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (lo, mid) if decided(mid) else (mid, hi)
    return hi
