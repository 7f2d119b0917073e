"""The gate's statistics agree with textbook Welch intervals and treat scenarios as clusters."""

from __future__ import annotations

import math

import pytest
from scipy import stats as scipy_stats

from evals.gate.stats import Estimate, cluster

SEED_RUNS = [16.0, 19.0, 20.0]


def test_one_scenario_gives_the_welch_interval_scipy_gives() -> None:
    run, base = [15.0, 17.0, 14.0, 18.0], [16.0, 19.0, 20.0, 18.0, 17.0, 19.0]
    est = Estimate((cluster("nightshift", run, base, prior_sd=2.0),))
    expected = scipy_stats.ttest_ind(run, base, equal_var=False).confidence_interval(0.95)
    low, high = est.interval(0.95)
    assert low == pytest.approx(expected.low) and high == pytest.approx(expected.high)
    assert est.delta == pytest.approx(16.0 - 18.1666667)


def test_scenarios_are_clusters_whose_variances_add_not_one_pool() -> None:
    easy = cluster("trial-run", [7.0, 6.0, 7.0], [7.0, 7.0, 6.0], prior_sd=0.5)
    hard = cluster("nightshift", [15.0, 18.0, 17.0], SEED_RUNS, prior_sd=2.0)
    est = Estimate((easy, hard))
    assert est.delta == pytest.approx(easy.delta + hard.delta)
    assert est.se() == pytest.approx(math.sqrt(easy.se2() + hard.se2()))
    # Pooling all six trials per side would count the gap between a 7-point and a 25-point
    # scenario as noise: a spread of ~6 points instead of ~2.
    pooled = cluster("all", [7.0, 6.0, 7.0, 15.0, 18.0, 17.0], [7.0, 7.0, 6.0, *SEED_RUNS], prior_sd=2.0)
    assert pooled.se2() > 5 * est.se() ** 2


def test_one_trial_against_a_measured_baseline_borrows_its_spread() -> None:
    c = cluster("nightshift", [15.0], SEED_RUNS, prior_sd=2.0)
    assert c.borrowed and c.var_run == c.var_base == pytest.approx(4.3333333)
    assert c.df() == 2
    assert Estimate((c,)).interval(0.95)[1] > 0  # one trial cannot convict


def test_one_trial_each_side_falls_back_to_the_prior_noise() -> None:
    c = cluster("trial-run", [2.0], [7.0], prior_sd=0.56)
    est = Estimate((c,))
    assert c.var_run == pytest.approx(0.56**2) and math.isinf(est.df())
    _, high = est.interval(0.95)
    assert high == pytest.approx(-5 + 1.959964 * 0.56 * math.sqrt(2), rel=1e-5)


def test_a_deterministic_replay_has_no_noise_to_hide_behind() -> None:
    est = Estimate((cluster("trial-run", [2.0, 2.0], [7.0, 7.0, 7.0], prior_sd=0.56),))
    assert est.se() == 0 and est.interval(0.95) == (-5.0, -5.0)
    assert est.detectable_drop(0.95, 0.8, allowed_drop=1.5) == 1.5


def test_more_trials_shrink_the_detectable_drop() -> None:
    base = [16.0, 19.0, 20.0, 18.0, 17.0, 19.0, 21.0, 18.0, 17.0, 19.0]
    small = Estimate((cluster("n", [18.0, 16.0, 19.0], base, 2.0),))
    large = Estimate((cluster("n", [18.0, 16.0, 19.0, 17.0, 20.0, 18.0, 16.0, 19.0, 18.0], base, 2.0),))
    assert large.detectable_drop(0.95, 0.8, 1.5) < small.detectable_drop(0.95, 0.8, 1.5)
    # Projected to a larger k, the interval narrows as 1/sqrt(k) on the run's side.
    assert small.se(12) < small.se()
