"""The gate rule: a drop past the threshold that noise cannot explain is a regression; one it can
explains earns more trials; the simulation shows the configured rule meets its goals."""

from __future__ import annotations

from pathlib import Path

import pytest

from evals.cli import main
from evals.core.config import GateConfig, Threshold, load_config
from evals.gate.aggregate import aggregate
from evals.gate.baseline_file import Baseline, BaselineScenario, BaselineTrial
from evals.gate.compare import Settings, baseline_rates, compare
from evals.gate.guards import GuardCounts, judge_guards
from evals.gate.passrate import PassRates
from evals.gate.sequential import look, looks, own_spread
from evals.gate.simulate import (
    BEFORE_MEAN_TRIALS,
    FALSE_ALARM_GOAL,
    GUARD_GOAL,
    NO_HISTORY,
    SimulatedTask,
    SimulationResult,
    detection_goal,
    run_bench,
)
from evals.gate.stats import Estimate, cluster
from evals.gate.verdict import decide, decide_all, extra_trials, verdict
from tests.support.paths import ROOT
from tests.support.synthetic import FINGERPRINT, make_baseline, noisy_trials, synthetic_rubric

SEED_RUNS = [16.0, 19.0, 20.0, 18.0, 17.0, 19.0, 20.0, 18.0, 16.0, 19.0]


def estimate(run: list[float], base: list[float] = SEED_RUNS) -> Estimate:
    return Estimate((cluster("nightshift", run, base, prior_sd=2.0),))


def test_a_small_drop_within_the_threshold_passes_whatever_the_noise() -> None:
    assert decide(estimate([17.0, 18.0, 18.0]), allowed_drop=1.5, confidence=0.95) == "pass"


def test_a_large_consistent_drop_is_a_regression() -> None:
    assert decide(estimate([13.0, 14.0, 13.0, 14.0, 12.0]), allowed_drop=1.5, confidence=0.95) == "regression"


GATE = GateConfig(confidence=0.95, min_trials=4, max_trials=15, look_every=3)


def test_a_drop_the_noise_explains_is_inconclusive_and_earns_trials_up_to_the_next_look() -> None:
    est = estimate([19.0, 14.0, 15.0, 18.0])
    assert decide(est, 1.5, 0.95) == "inconclusive"
    assert look(est, 1.5, GATE) == "undecided"
    assert extra_trials(est, k=4, allowed_drop=1.5, gate=GATE) == 3  # looks at 4, 7, 10, 13, 15


def test_the_budget_is_never_exceeded_and_zero_disables_extra_trials() -> None:
    est = estimate([19.0, 14.0, 15.0, 18.0])
    assert extra_trials(est, k=15, allowed_drop=1.5, gate=GATE) == 0
    assert extra_trials(est, k=4, allowed_drop=1.5, gate=GATE.model_copy(update={"max_trials": 0})) == 0
    assert extra_trials(est, k=13, allowed_drop=1.5, gate=GATE) == 2
    assert looks(3, GATE) == [3, 6, 9, 12, 15]


def test_a_single_trial_that_looks_like_a_drop_is_topped_up_to_the_second_look() -> None:
    est = estimate([16.0])  # Δ −2.2 on one trial: noise could explain it, or hide a bigger drop
    assert extra_trials(est, k=1, allowed_drop=1.5, gate=GATE) == 3


def test_a_deterministic_replay_is_never_topped_up() -> None:
    same = Estimate((cluster("trial-run", [7.0], [7.0, 7.0, 7.0, 7.0], prior_sd=0.56),))
    assert extra_trials(same, k=1, allowed_drop=1.5, gate=GATE) == 0
    undecided = estimate([19.0, 14.0, 15.0, 18.0])
    assert extra_trials(undecided, k=4, allowed_drop=1.5, gate=GATE, deterministic=True) == 0


def test_a_ramp_looks_after_every_trial_up_to_the_runs_k_then_keeps_the_schedule() -> None:
    gate = GateConfig(min_trials=6, look_every=3, max_trials=15)
    assert looks(1, gate, ramp=3) == [1, 2, 3, 6, 9, 12, 15]
    assert looks(3, gate, ramp=3) == looks(3, gate) == [3, 6, 9, 12, 15]
    assert looks(1, gate) == [1, 6, 9, 12, 15]  # an explicit --trials 1 keeps its schedule


def test_the_equivalence_look_passes_a_drop_within_the_threshold_once_twice_it_is_ruled_out() -> None:
    """A suite-sized total: Δ −6 against a threshold of 8 with se ≈ 1.9 is not past the 60 % line
    (−8 + 0.84 se ≈ −6.4 is close) but a drop of 16 is ruled out at 1 %: pass. A Δ past −threshold,
    or one whose se leaves 16 possible, never passes this way."""
    from evals.gate.sequential import equivalent

    def total(delta: float, sd: float, n: int = 9) -> Estimate:
        run = [100 + delta + sd * (i % 3 - 1) for i in range(n)]
        return Estimate((cluster("suite", run, [100 - sd, 100.0, 100 + sd] * 3, prior_sd=5),))

    assert equivalent(total(-6.0, 4.0), 8.0)
    assert not equivalent(total(-8.5, 4.0), 8.0)  # past the threshold: the gate's lines decide
    assert not equivalent(total(-6.0, 12.0), 8.0)  # 16 not ruled out
    assert look(total(-6.0, 4.0), 8.0, GateConfig(pass_confidence=0.99)) == "pass"


def test_two_equal_trials_are_too_few_to_call_a_run_spread_free() -> None:
    """Two trials of a Nightshift-like task are equal one time in seven: a ramp's second look must
    not stop on that (three equal trials still do: below)."""
    two = estimate([16.5, 16.5])
    assert own_spread(two) is None
    assert extra_trials(two, k=2, allowed_drop=1.5, gate=GATE, ramp=3) == 1


def test_a_run_whose_own_trials_have_no_spread_is_never_topped_up() -> None:
    """`pre-automation`: six identical totals against a baseline that spreads."""
    flat = estimate([16.5, 16.5, 16.5])
    assert own_spread(flat) is False
    assert extra_trials(flat, k=3, allowed_drop=1.5, gate=GATE) == 0
    noisy = estimate([16.0, 17.0, 16.5])
    assert extra_trials(noisy, k=3, allowed_drop=1.5, gate=GATE) > 0  # the same Δ with spread: undecided


def test_a_clear_regression_stops_at_its_starting_k() -> None:
    est = estimate([6.0, 5.0, 7.0])  # Δ −12.2, interval far below −threshold
    assert look(est, 1.5, GATE) == "regression"
    assert extra_trials(est, k=3, allowed_drop=1.5, gate=GATE) == 0
    assert decide(est, 1.5, GATE.confidence) == "regression"


def test_a_clear_pass_stops_at_its_starting_k() -> None:
    est = estimate([20.0, 19.0, 21.0])
    assert look(est, 1.5, GATE) == "pass"
    assert extra_trials(est, k=3, allowed_drop=1.5, gate=GATE) == 0


def test_a_guard_that_may_be_falling_earns_trials_even_when_the_total_passes() -> None:
    est = estimate([20.0, 19.0, 21.0])
    falling = judge_guards([GuardCounts("C5a", base_pass=6, base_n=6, run_pass=1, run_n=3)])
    assert not falling[0].regressed
    assert extra_trials(est, k=3, allowed_drop=1.5, gate=GATE, guards=falling) == 3
    unlucky = judge_guards([GuardCounts("C5a", base_pass=6, base_n=6, run_pass=2, run_n=3)])
    assert extra_trials(est, k=3, allowed_drop=1.5, gate=GATE, guards=unlucky) == 0  # 10/15 vs 6/6: p 0.15
    fine = judge_guards([GuardCounts("C5a", base_pass=10, base_n=10, run_pass=3, run_n=3)])
    assert extra_trials(est, k=3, allowed_drop=1.5, gate=GATE, guards=fine) == 0


def test_a_guard_stops_a_run_early_only_past_the_interim_line() -> None:
    """Against a 30-trial history, like the total a guard stops a run at an interim look only past
    a stricter line (one-sided 0.1%): none of 3 passes does (p 0.0002); 1 of 3 (p 0.006) is
    significant at 5% but not past the line, so the run goes on and a later look decides it; at
    the last look, or in a run that cannot add trials, `guard_alpha` decides."""
    clear_pass = estimate([20.0, 19.0, 21.0])
    fell = judge_guards([GuardCounts("C7", base_pass=30, base_n=30, run_pass=0, run_n=3)])
    assert extra_trials(clear_pass, k=3, allowed_drop=1.5, gate=GATE, guards=fell) == 0
    between = judge_guards([GuardCounts("C7", base_pass=30, base_n=30, run_pass=1, run_n=3)])
    assert 0.001 < between[0].p_adjusted < 0.05 and between[0].regressed
    assert extra_trials(clear_pass, k=3, allowed_drop=1.5, gate=GATE, guards=between) == 3
    assert extra_trials(clear_pass, k=3, allowed_drop=1.5, gate=GATE, guards=between, deterministic=True) == 0
    assert decide_all(clear_pass, 1.5, GATE.confidence, between) == "regression"
    at_the_end = estimate([20.0, 19.0, 21.0] * 5)
    assert extra_trials(at_the_end, k=15, allowed_drop=1.5, gate=GATE, guards=between) == 0


def bench(baseline_trials: int, guards: int, *cases: str, runs: int = 500) -> SimulationResult:
    config, _ = load_config(ROOT)
    scenario = SimulatedTask(start_trials=config.trials, baseline_trials=baseline_trials, guards=guards)
    return run_bench(scenario, config.threshold, config.gate, runs=runs, seed=20261130, cases_run=cases)


def test_the_configured_gate_meets_its_goals_on_seed_shaped_scores() -> None:
    """False alarms and detection of a 3-point drop with 6-trial baselines, in fewer trials per verdict
    than the rule before gate v2 (measured at the same settings, like for like: no guards)."""
    result = bench(6, 0, "no change", "drop 3")
    assert result.false_alarm_rate <= FALSE_ALARM_GOAL, result.no_change
    assert result.detection_rate >= detection_goal(6), result.true_drop
    assert result.no_change.mean_trials < BEFORE_MEAN_TRIALS["no change"], result.no_change


def test_false_alarms_stay_within_the_goal_with_the_guards_tested_too() -> None:
    result = bench(6, 2, "no change")
    assert result.false_alarm_rate <= FALSE_ALARM_GOAL, result.no_change


def test_with_10_trial_baselines_false_alarms_hold_and_detection_improves() -> None:
    result = bench(10, 0, "no change", "drop 3")
    assert result.false_alarm_rate <= FALSE_ALARM_GOAL, result.no_change
    assert result.detection_rate >= 0.92, result.true_drop  # measured 93.6% on 2000 PRs (docs/gate.md)


@pytest.mark.xfail(strict=True, reason="goal not met: 93.6% with 10-trial baselines (docs/gate.md)")
def test_with_10_trial_baselines_a_3_point_drop_is_caught_95_times_in_100() -> None:
    result = bench(10, 0, "drop 3")
    assert result.detection_rate >= detection_goal(10), result.true_drop


def test_a_gate_without_extra_trials_misses_the_detection_goal() -> None:
    """The same rule with no budget: one trial per PR cannot see a 3-point drop under 2 points of noise."""
    config, _ = load_config(ROOT)
    strict = config.gate.model_copy(update={"max_trials": 0})
    result = run_bench(
        SimulatedTask(start_trials=1, guards=0),
        config.threshold,
        strict,
        runs=400,
        seed=7,
        cases_run=("no change", "drop 3"),
    )
    assert result.detection_rate < detection_goal(6)


def test_the_simulate_command_prints_every_case_with_trials_and_cost(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["simulate", "gate", "--runs", "200", "--seed", "3", "--guards", "0"])
    out = capsys.readouterr().out
    assert "false alarms (no true change):" in out and "detection (true 3-point drop):" in out
    assert "detection (true 1.5-point drop):" in out and "detection (true 5-point drop):" in out
    assert out.count("meets") + out.count("MISSES") == 2 and "mean cost $" in out
    assert code == (1 if "MISSES" in out else 0)


def test_guard_detection_is_reported_with_and_without_the_history_and_held_to_its_goal(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Even against the nightly's 30-trial guard history an exact test does not see a guard fall
    from 95% to 50% nine times in ten (docs/gate.md): the simulation says so and exits 1."""
    assert main(["simulate", "gate", "--runs", "200", "--seed", "3"]) == 1
    out = capsys.readouterr().out
    assert "guard detection (one guard 95% → 50%; 30-trial guard history):" in out
    assert "goal ≥ 90%: MISSES" in out
    assert "guard detection without history (one guard 95% → 50%; the last baseline's 6 trials):" in out
    main(["simulate", "gate", "--runs", "50", "--guard-history-trials", "60", "--baseline-trials", "10"])
    assert "60-trial guard history" in capsys.readouterr().out
    assert main(["simulate", "gate", "--guard-history-trials", "-1"]) == 2


def test_the_guard_history_catches_a_falling_guard_far_more_often_than_the_last_baseline() -> None:
    """One guard falls from 95% to 50%, the total unchanged: the history the nightly accumulates
    (30 trials) catches it about 4 times as often as the last baseline's 6 trials (measured 78.7%
    and 17.8% on 2000 PRs, seed 0, docs/gate.md), and false alarms stay within their goal (the test above)."""
    result = bench(6, 2, "guard falls", NO_HISTORY)
    assert result.guard_detection_rate >= 0.75, result.outcomes["guard falls"]
    assert result.outcomes[NO_HISTORY].rate("regression") <= 0.3, result.outcomes[NO_HISTORY]


@pytest.mark.xfail(strict=True, reason="goal not met: 78.7% with the 30-trial guard history (docs/gate.md)")
def test_a_guard_falling_from_95_to_50_percent_is_caught_9_times_in_10() -> None:
    result = bench(6, 2, "guard falls")
    assert result.guard_detection_rate >= GUARD_GOAL, result.outcomes["guard falls"]


def test_with_two_scenarios_the_total_is_gated_on_both_as_clusters() -> None:
    rubric = synthetic_rubric()
    one = make_baseline(rubric)
    baseline = Baseline.model_validate(
        {
            **one.model_dump(),
            "scenarios": {
                "nightshift": one.scenarios["nightshift"],
                "nightshift-b": one.scenarios["nightshift"],
            },
        }
    )
    fingerprint = {
        **FINGERPRINT,
        "scenarios": {**FINGERPRINT["scenarios"], "nightshift-b": FINGERPRINT["scenarios"]["nightshift"]},
    }
    weak = {"C3": 0.3, "C8": 0.3, "C12": 0.4, "C15": 0.3, "C18": 0.2, "C2b": 0.3}
    a = noisy_trials(rubric, 6, seed=11, weak=weak)
    b = noisy_trials(rubric, 6, seed=12, weak={**weak, "C1": 1.0, "C4a": 1.0, "C6": 1.0})
    aggregates = {"nightshift": aggregate(a, rubric), "nightshift-b": aggregate(b, rubric)}
    result = compare(aggregates, fingerprint, baseline, Settings(Threshold(percent=4), GateConfig()))
    assert result.estimate is not None and len(result.estimate.clusters) == 2
    assert result.total is not None
    assert result.total.allowed_drop == 2.0  # 4% of 50 points
    assert result.total.delta == pytest.approx(
        sum(c.mean_run - c.mean_base for c in result.estimate.clusters), abs=1e-3
    )
    decided = verdict(result, several_scenarios=True)
    assert decided.verdict == "regression"
    assert "nightshift-b/C1" in decided.reasons[0] and "nightshift/C1," not in decided.reasons[0]


def test_the_baselines_pass_at_k_is_estimated_at_this_runs_k_and_never_beyond_its_own() -> None:
    base = BaselineScenario(
        k=6,
        max_points=25,
        total_mean=17.5,
        criteria={},
        categories={},
        parts={},
        trials=[BaselineTrial(trial=i, total=t, parts={}) for i, t in enumerate([16, 19, 20, 18, 15, 17])],
        pass_at_1=0.5,
    )
    assert baseline_rates(base, 2, 18) == PassRates(pass_at_1=0.5, pass_at_k=0.8, pass_pow_k=0.2)
    assert baseline_rates(base, 4, 18).pass_pow_k == 0
    assert baseline_rates(base, 7, 18).pass_at_k is None


def test_the_old_bench_spelling_still_simulates_and_says_it_is_deprecated(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`bench/` is speed; the simulations moved to `evals simulate`. Scripts calling `evals bench gate`
    get the same result, and a note on stderr naming the new spelling."""
    args = ["gate", "--runs", "50", "--seed", "3", "--guards", "0"]
    assert main(["simulate", *args]) == 0
    new = capsys.readouterr()
    assert main(["bench", *args]) == 0
    old = capsys.readouterr()
    assert old.out == new.out and "false alarms" in old.out
    assert "`evals bench gate` is deprecated, use `evals simulate gate`" in old.err and not new.err
