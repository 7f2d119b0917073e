"""What deciding an undecided drop would take: the trials per scenario at which its interval would
exclude zero if the delta held. The report says it (about N trials, dollars, minutes); the gate's
decisions never read it."""

from __future__ import annotations

from evals.gate.stats import Estimate, cluster, trials_to_decide

RUN = [21.0, 24.0, 19.0, 23.0]
BASE = [23.0, 24.0, 22.0, 23.0, 24.0, 23.0, 22.0, 24.0, 23.0, 24.0]


def test_the_first_k_at_which_the_interval_excludes_zero_and_no_earlier() -> None:
    estimate = Estimate((cluster("nightshift", RUN, BASE, 1.0),))
    assert estimate.interval(0.88)[1] > 0  # undecided at k = 4
    n = trials_to_decide(estimate, 0.88, 500)
    assert n is not None and n > 4
    assert estimate.interval(0.88, n)[1] < 0 <= estimate.interval(0.88, n - 1)[1]


def test_a_drop_the_baselines_own_spread_hides_cannot_be_decided_by_run_trials() -> None:
    """With few, spread-out baseline trials the interval never clears zero, however many trials the
    run adds: the report then says to bless a baseline with more trials instead."""
    estimate = Estimate((cluster("nightshift", [22.0, 23.0, 22.5], [10.0, 25.0, 25.0], 1.0),))
    assert trials_to_decide(estimate, 0.88, 500) is None


def test_a_decided_drop_needs_no_more_trials_and_more_scenarios_need_each_as_many() -> None:
    clear = Estimate((cluster("a", [15.0, 16.0, 15.0], BASE, 1.0),))
    assert trials_to_decide(clear, 0.88, 500) == 3
    two = Estimate((cluster("a", RUN, BASE, 1.0), cluster("b", RUN, BASE, 1.0)))
    one = trials_to_decide(Estimate((cluster("a", RUN, BASE, 1.0),)), 0.88, 500)
    both = trials_to_decide(two, 0.88, 500)
    assert one is not None and both is not None and both <= one  # twice the drop, in half the noise ratio
