"""Student's t quantile in the standard library agrees with scipy's, where the gate reads it."""

from __future__ import annotations

import itertools
import math

import pytest
from scipy.special import stdtr, stdtrit

from evals.gate.tdist import t_cdf, t_quantile

PS = [0.51, 0.6, 0.8, 0.9, 0.94, 0.95, 0.96, 0.975, 0.99, 0.999, 0.9999, 0.3, 0.01, 1e-4]
DFS = [0.7, 1, 1.3, 2, 2.5, 3, 4, 5, 6.7, 9, 12.3, 20, 30, 50, 100, 1000, 1e5]


@pytest.mark.parametrize(("p", "df"), list(itertools.product(PS, DFS)))
def test_the_quantile_is_scipys_to_ten_digits(p: float, df: float) -> None:
    assert t_quantile(p, df) == pytest.approx(float(stdtrit(df, p)), rel=1e-9)


def test_the_cdf_is_scipys_near_zero_and_in_the_tails() -> None:
    for t, df in itertools.product([-40.0, -2.0, 1e-7, 0.01, 0.3, 1.5, 3.0, 10.0], DFS):
        assert t_cdf(t, df) == pytest.approx(float(stdtr(df, t)), abs=1e-10)
    for t in (1e-7, 0.3, 7.0):  # one degree of freedom is the Cauchy distribution, in closed form
        assert t_cdf(t, 1) == pytest.approx(0.5 + math.atan(t) / math.pi, abs=1e-15)


def test_infinite_degrees_of_freedom_give_the_normal_and_bad_p_is_refused() -> None:
    assert t_quantile(0.975, math.inf) == pytest.approx(1.959963984540054, abs=1e-12)
    assert t_quantile(0.5, 3) == 0.0
    with pytest.raises(ValueError):
        t_quantile(1.0, 3)
