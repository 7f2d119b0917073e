"""Student's t quantile for real (Welch–Satterthwaite) degrees of freedom, in the standard library.

The gate needs two quantiles per decision. `scipy.special.stdtrit` gives them, but importing
scipy costs a fifth to most of a second on every command that computes an interval (compare,
merge, run), several times the work itself. So the quantile is computed here: the t CDF through the
regularised incomplete beta function (Lentz's continued fraction, to machine precision), inverted
by Newton steps inside a bisection bracket, so it cannot diverge for small degrees of freedom.
`tests/test_tdist.py` holds it to scipy's `stdtrit` (and `t.cdf`) over a grid of p and df.
"""

from __future__ import annotations

import math
import statistics

_EPS = 1e-15
_TINY = 1e-300
_NORMAL = statistics.NormalDist()


def _beta_fraction(a: float, b: float, x: float) -> float:
    """The continued fraction of the incomplete beta function (modified Lentz)."""
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1.0)
    d = 1.0 / (d if abs(d) > _TINY else _TINY)
    result = d
    for m in range(1, 500):
        for numerator in (
            m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
            -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1)),
        ):
            d = 1.0 + numerator * d
            d = 1.0 / (d if abs(d) > _TINY else _TINY)
            c = 1.0 + numerator / c
            c = c if abs(c) > _TINY else _TINY
            result *= d * c
        if abs(d * c - 1.0) < _EPS:
            break
    return result


def incomplete_beta(a: float, b: float, x: float) -> float:
    """The regularised incomplete beta function I_x(a, b) for a, b > 0 and 0 <= x <= 1."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    log_front = math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    if x < (a + 1.0) / (a + b + 2.0):
        return math.exp(log_front) * _beta_fraction(a, b, x) / a
    return 1.0 - math.exp(log_front) * _beta_fraction(b, a, 1.0 - x) / b


def t_cdf(t: float, df: float) -> float:
    """P(T <= t) for Student's t with `df` degrees of freedom.

    Near 0 from the central probability P(|T| < t) = I_y(1/2, df/2), y = t²/(df + t²); in the
    tails from I_x(df/2, 1/2), x = df/(df + t²): each form keeps its small argument exact."""
    t2 = t * t
    if t2 < df:
        central = incomplete_beta(0.5, df / 2.0, t2 / (df + t2))
        return 0.5 + 0.5 * central if t > 0 else 0.5 - 0.5 * central
    tail = 0.5 * incomplete_beta(df / 2.0, 0.5, df / (df + t2))
    return 1.0 - tail if t > 0 else tail


def t_pdf(t: float, df: float) -> float:
    log_norm = math.lgamma((df + 1) / 2) - math.lgamma(df / 2) - 0.5 * math.log(df * math.pi)
    return math.exp(log_norm - (df + 1) / 2 * math.log1p(t * t / df))


def t_quantile(p: float, df: float) -> float:
    """The p-quantile of Student's t (the normal's when df is infinite)."""
    if not 0.0 < p < 1.0:
        raise ValueError(f"quantile of p={p}: need 0 < p < 1")
    if math.isinf(df):
        return _NORMAL.inv_cdf(p)
    if p == 0.5:
        return 0.0
    if p < 0.5:
        return -t_quantile(1.0 - p, df)
    low, high = 0.0, max(1.0, _NORMAL.inv_cdf(p))
    while t_cdf(high, df) < p:  # the t's tails are heavier than the normal's: widen the bracket
        low, high = high, high * 2.0
    t = _NORMAL.inv_cdf(p) if low == 0.0 else (low + high) / 2.0
    for _ in range(200):
        error = t_cdf(t, df) - p
        if error == 0.0:
            return t
        if error > 0:
            high = t
        else:
            low = t
        step = error / t_pdf(t, df)
        if abs(step) <= 1e-14 * max(1.0, abs(t)):
            return t - step
        candidate = t - step
        t = candidate if low < candidate < high else (low + high) / 2.0  # Newton, or bisect
        if high - low <= 1e-14 * max(1.0, abs(t)):
            return t
    return t
