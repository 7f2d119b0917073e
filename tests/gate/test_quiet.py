"""Quiet tasks tested on their own (`gate.quiet_alpha`, evals/gate/quiet.py, docs/gate.md#quiet-tasks): a
task that scored the same in every baseline trial and scores less in the run is a regression when the
one-sided Fisher test, at α over the compared scenarios, says so, even when the suite's total passes."""

from __future__ import annotations

from pathlib import Path

from evals.core.config import GateConfig, Threshold, load_config
from evals.gate.quiet import quiet_tests, quiet_value
from tests.support.paths import ROOT


def test_only_a_task_whose_baseline_never_varied_is_tested() -> None:
    assert quiet_value([3.0, 3.0, 3.0]) == 3.0
    assert quiet_value([3.0]) is None and quiet_value([3.0, 2.0, 3.0]) is None
    sides = {"quiet": ([3.0] * 3, [3.0]), "noisy": ([3.0, 2.0, 3.0], [1.0] * 15), "none": ([3.0] * 3, [])}
    assert [t.counts.name for t in quiet_tests(sides, 0.05)] == ["quiet (quiet at 3)"]


def test_three_baseline_trials_need_more_than_three_low_run_trials_and_alpha_is_shared_by_all() -> None:
    """3 clean baseline trials against 3 low run trials: p = 1/20, not below 0.05/10. Against 15 low
    run trials p = 1/816 is. The share is over the ten compared scenarios, not the one quiet task."""
    others = {f"t{i}": ([1.0, 2.0], [1.0]) for i in range(9)}
    three = quiet_tests({"q": ([3.0] * 3, [2.0] * 3), **others}, 0.05)[0]
    assert three.p == 1 / 20 and three.alpha == 0.005 and three.counts.worse and not three.regressed
    fifteen = quiet_tests({"q": ([3.0] * 3, [2.0] * 15), **others}, 0.05)[0]
    assert abs(fifteen.p - 1 / 816) < 1e-12 and fifteen.regressed
    better = quiet_tests({"q": ([3.0] * 3, [3.0] * 14 + [4.0]), **others}, 0.05)[0]
    assert not better.counts.worse and not better.regressed


def test_the_live_comparison_calls_a_quiet_tasks_lost_point_a_regression_the_total_passes() -> None:
    """Through `compare` and `verdict`: a task that scored full marks in 10 of 10 baseline trials loses
    one part in each of 15 run trials beside an unchanged noisy task. Within 6 % of the suite's points
    the total passes; with `gate.quiet_alpha` it is a regression, named first."""
    from evals.baseline.bless import baseline_from_run
    from evals.gate.aggregate import aggregate
    from evals.gate.baseline_file import Baseline
    from evals.gate.compare import Settings, compare
    from evals.gate.verdict import verdict
    from tests.support.synthetic import (
        BASE_WEAK,
        FINGERPRINT,
        make_baseline,
        noisy_trials,
        summarise,
        synthetic_rubric,
    )

    rubric = synthetic_rubric()
    noisy = make_baseline(rubric)
    clean = noisy_trials(rubric, 10, seed=1, weak={})
    quiet = baseline_from_run(summarise(clean, None, rubric=rubric, trials=10), clean, Path("runs/clean"))
    both = {"nightshift": noisy.scenarios["nightshift"], "quiet": quiet.scenarios["nightshift"]}
    baseline = Baseline.model_validate({**noisy.model_dump(), "scenarios": both})
    fingerprint = {
        **FINGERPRINT,
        "scenarios": {**FINGERPRINT["scenarios"], "quiet": FINGERPRINT["scenarios"]["nightshift"]},
    }
    aggregates = {
        "nightshift": aggregate(noisy_trials(rubric, 15, seed=21, weak=BASE_WEAK), rubric),
        "quiet": aggregate(noisy_trials(rubric, 15, seed=22, weak={"C1": 1.0}), rubric),
    }

    def decided(gate: GateConfig) -> tuple[str, list[str]]:
        result = compare(aggregates, fingerprint, baseline, Settings(Threshold(percent=6), gate))
        v = verdict(result, several_scenarios=True)
        return v.verdict, v.reasons

    assert decided(GateConfig())[0] == "pass"
    name, reasons = decided(GateConfig(quiet_alpha=0.05))
    assert name == "regression"
    assert reasons[0].startswith("scenario quiet (quiet at") and "0/15 now" in reasons[0]
    assert "the total alone is within the threshold" in reasons[-1]


def test_the_committed_suite_catches_a_quiet_tasks_lost_point_that_it_missed_without_the_test() -> None:
    """The smoke suite as committed (seeded, 60 PRs a case): its quiet L1 task losing one point in every
    trial is caught ≥ 90 % with `gate.quiet_alpha` (the committed 0.05) and ≤ 10 % without; the
    unchanged PR's false alarms and calls stay within their goals."""
    from evals.gate.simulate_suite import (
        CALLS_GOAL,
        FALSE_ALARM_GOAL,
        QUIET_DETECTION_GOAL,
        run_suite_bench,
        suite_shape,
    )

    config, _ = load_config(ROOT)
    assert config.gate.quiet_alpha == 0.05
    shape = suite_shape(ROOT, config, config.suites["smoke"])
    on = run_suite_bench(config.gate, config.threshold, shape, runs=60, seed=20261205)
    off_gate = config.gate.model_copy(update={"quiet_alpha": 0.0})
    off = run_suite_bench(off_gate, config.threshold, shape, runs=60, seed=20261205)
    case = next(c for c in on if c.endswith(" -1"))
    assert on[case].rate("regression") >= QUIET_DETECTION_GOAL
    assert off[case].rate("regression") <= 0.10
    assert on["no change"].rate("regression") <= FALSE_ALARM_GOAL
    assert on["no change"].mean_calls <= CALLS_GOAL["smoke"]


def test_identical_run_trials_stop_a_run_unless_a_quiet_tasks_test_needs_more() -> None:
    """Every run trial identical (the agent repeats itself) earns no trials, except when a quiet task
    lost a point in every one: 3 low trials against 3 clean ones cannot show it (p = 1/20), 15 can, so
    the run goes on to the next look."""
    from evals.gate.stats import Estimate, cluster
    from evals.gate.verdict import extra_trials

    sides = {"q": ([3.0] * 3, [2.0] * 3), "r": ([3.0] * 3, [3.0] * 3), "big": ([100.0] * 3, [100.0] * 3)}
    estimate = Estimate(tuple(cluster(n, run, base, prior_sd=0.24) for n, (base, run) in sides.items()))
    gate = GateConfig(quiet_alpha=0.05)
    allowed = Threshold(percent=6).allowed_drop(106)
    assert extra_trials(estimate, 3, allowed, gate) == 0
    tests = quiet_tests(sides, gate.quiet_alpha)
    assert extra_trials(estimate, 3, allowed, gate, guards=tests) == gate.min_trials - 3
    assert extra_trials(estimate, 3, allowed, gate, deterministic=True, guards=tests) == 0
