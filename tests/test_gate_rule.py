"""The gate rule: a drop past the threshold that noise cannot explain is a regression; one it can
explains earns more trials; the simulation shows the configured rule meets its goals."""

from __future__ import annotations

from pathlib import Path

import pytest

from evals.aggregate import aggregate
from evals.baseline import Baseline, BaselineScenario, BaselineTrial
from evals.bench import DETECTION_GOAL, FALSE_ALARM_GOAL, Scenario, run_bench
from evals.cli import main
from evals.compare import Settings, baseline_rates, compare
from evals.config import GateConfig, Threshold, load_config
from evals.gate import decide, extra_trials, verdict
from evals.passrate import PassRates
from evals.stats import Estimate, cluster
from tests.test_report_snapshots import FINGERPRINT, make_baseline, noisy_trials, synthetic_rubric

ROOT = Path(__file__).resolve().parent.parent
SEED_RUNS = [16.0, 19.0, 20.0, 18.0, 17.0, 19.0, 20.0, 18.0, 16.0, 19.0]


def estimate(run: list[float], base: list[float] = SEED_RUNS) -> Estimate:
    return Estimate((cluster("nightshift", run, base, prior_sd=2.0),))


def test_a_small_drop_within_the_threshold_passes_whatever_the_noise() -> None:
    assert decide(estimate([17.0, 18.0, 18.0]), allowed_drop=1.5, confidence=0.95) == "pass"


def test_a_large_consistent_drop_is_a_regression() -> None:
    assert decide(estimate([13.0, 14.0, 13.0, 14.0, 12.0]), allowed_drop=1.5, confidence=0.95) == "regression"


def test_a_drop_the_noise_explains_is_inconclusive_and_earns_trials() -> None:
    est = estimate([19.0, 14.0, 15.0, 18.0])
    assert decide(est, 1.5, 0.95) == "inconclusive"
    extra = extra_trials(est, k=4, budget=15, allowed_drop=1.5, confidence=0.95, min_trials=4)
    assert 4 <= extra <= 11  # at least doubles k, never past the budget


def test_the_budget_is_never_exceeded_and_zero_disables_extra_trials() -> None:
    est = estimate([19.0, 14.0, 15.0, 18.0])
    assert extra_trials(est, k=15, budget=15, allowed_drop=1.5, confidence=0.95) == 0
    assert extra_trials(est, k=4, budget=0, allowed_drop=1.5, confidence=0.95, min_trials=4) == 0
    assert extra_trials(est, k=12, budget=15, allowed_drop=1.5, confidence=0.95) == 3


def test_a_single_noisy_trial_is_topped_up_before_any_verdict() -> None:
    est = estimate([19.0])  # would pass on its own, one time in six even after a real 3-point drop
    assert extra_trials(est, k=1, budget=15, allowed_drop=1.5, confidence=0.95, min_trials=4) == 3


def test_a_deterministic_replay_is_never_topped_up() -> None:
    est = Estimate((cluster("trial-run", [7.0], [7.0, 7.0, 7.0, 7.0], prior_sd=0.56),))
    assert extra_trials(est, k=1, budget=15, allowed_drop=1.5, confidence=0.95, min_trials=4) == 0


def test_the_configured_gate_meets_its_goals_on_seed_shaped_scores() -> None:
    config, _ = load_config(ROOT)
    result = run_bench(
        Scenario(start_trials=config.trials), config.threshold, config.gate, runs=600, seed=20261130
    )
    assert result.false_alarm_rate <= FALSE_ALARM_GOAL, result.no_change
    assert result.detection_rate >= DETECTION_GOAL, result.true_drop


def test_a_gate_without_extra_trials_misses_the_detection_goal() -> None:
    """The same rule with no budget: one trial per PR cannot see a 3-point drop under 2 points of noise."""
    config, _ = load_config(ROOT)
    strict = config.gate.model_copy(update={"max_trials": 0})
    result = run_bench(Scenario(start_trials=1), config.threshold, strict, runs=400, seed=7)
    assert result.detection_rate < DETECTION_GOAL


def test_the_bench_command_prints_both_rates(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "gate", "--runs", "300", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "false alarms (no true change):" in out and "detection (true 3-point drop):" in out
    assert out.count("meets") == 2


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
