"""Trials by measured noise (evals/gate/allocate.py) and the suite simulation that holds the gate's
error rates with it (evals/gate/simulate_suite.py, `evals simulate suite`)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from evals.cli import main
from evals.core.config import GateConfig, load_config
from evals.gate.allocate import (
    active,
    catch_up,
    differs,
    first_look,
    history_scores,
    measure,
    start_trials,
    top_up,
)
from tests.support.paths import ROOT


def test_a_task_is_quiet_only_when_two_or_more_measured_trials_all_scored_the_same() -> None:
    assert measure("a", [3, 3, 3]).quiet
    assert not measure("a", [3]).quiet  # one trial shows no spread either way
    assert measure("a", [3], [[3]]).quiet  # the history counts
    assert not measure("a", [3, 3, 3], [[3, 2]]).quiet  # one night that varied makes it noisy
    assert not measure("a", [16, 19, 20]).quiet


def test_quiet_tasks_start_at_one_trial_and_the_rest_at_the_runs_k() -> None:
    noise = {"quiet": measure("quiet", [2, 2, 2]), "noisy": measure("noisy", [16, 19, 20])}
    assert start_trials(noise, ["quiet", "noisy", "new"], 3) == {"quiet": 1, "noisy": 3, "new": 3}


def test_a_quiet_task_earns_trials_only_when_a_trial_differs() -> None:
    noise = {"quiet": measure("quiet", [2, 2, 2]), "noisy": measure("noisy", [16, 19, 20])}
    same = {"quiet": [2.0], "noisy": [18.0, 17.0, 20.0]}
    assert active(noise, same) == {"noisy"}
    assert catch_up(noise, same, 3) == {}
    assert top_up(noise, same, 3) == {"noisy": 3}
    odd = {"quiet": [1.0], "noisy": [18.0, 17.0, 20.0]}
    assert differs(noise["quiet"], [1.0]) and not differs(noise["noisy"], [1.0])
    assert catch_up(noise, odd, 3) == {"quiet": 2}  # joins the schedule before the look
    assert top_up(noise, odd, 3) == {"noisy": 3, "quiet": 3}
    # one quiet task differing brings every quiet task along (a lucky sibling would hide its drop)
    noise["other"] = measure("other", [3, 3])
    assert catch_up(noise, {**odd, "other": [3.0]}, 3) == {"other": 2, "quiet": 2}
    assert active(noise, {**same, "other": [3.0]}) == {"noisy"}
    assert top_up(noise, same, 0) == {}


def test_history_lines_give_each_nights_trial_totals_and_skip_lines_without_them() -> None:
    lines = [
        {"scenarios": {"a": {"per_trial": [1, 2]}}},
        {"scenarios": {"b": {"per_trial": [5]}}},
        {"scenarios": {"a": {"mean": 2}}},  # an older line: no per-trial totals
        {"other": 1},
    ]
    assert history_scores(lines, "a") == [[1.0, 2.0]]
    assert history_scores(lines, "a", nights=1) == []


def test_the_committed_suites_shape_comes_from_the_rubrics_and_the_committed_baseline() -> None:
    """Points from each rubric, Nightshift's spread as blessed (16, 19, 20), the replay-blessed tasks quiet
    (the committed baseline measures every task of the full suite)."""
    from evals.gate.simulate_suite import suite_shape

    config, _ = load_config(ROOT)
    smoke = {t.name: t for t in suite_shape(ROOT, config, config.suites["smoke"])}
    assert set(smoke) == set(config.suites["smoke"])
    night = smoke["nightshift"]
    assert night.points == 25 and night.sd > 1.5 and abs(night.mean - 55 / 3) < 0.01
    assert smoke["board-move"].quiet and smoke["board-move"].measured
    full = suite_shape(ROOT, config, config.suites["full"])
    assert len(full) == len(config.suites["full"]) and all(t.measured for t in full)


def test_allocation_by_noise_keeps_the_error_rates_and_costs_far_fewer_calls() -> None:
    """The smoke suite as committed: false alarms ≤ 5 %, a 12 % drop caught ≥ 90 %, and fewer model
    calls per unchanged verdict than every task at k (and within the goal of 400)."""
    from evals.gate.simulate_suite import (
        CALLS_GOAL,
        FALSE_ALARM_GOAL,
        SUITE_DETECTION_GOAL,
        run_suite_bench,
        suite_shape,
    )

    config, _ = load_config(ROOT)
    shape = suite_shape(ROOT, config, config.suites["smoke"])
    by_noise = run_suite_bench(
        config.gate, config.threshold, shape, runs=150, seed=20261201, start_trials=config.trials
    )
    assert by_noise["no change"].rate("regression") <= FALSE_ALARM_GOAL
    assert by_noise["drop 12%"].rate("regression") >= SUITE_DETECTION_GOAL
    assert by_noise["no change"].mean_calls <= CALLS_GOAL["smoke"]
    every = run_suite_bench(
        config.gate,
        config.threshold,
        shape,
        runs=60,
        seed=20261201,
        start_trials=config.trials,
        allocate=False,
    )
    assert by_noise["no change"].mean_calls < every["no change"].mean_calls


def test_bench_suite_exits_one_when_a_goal_is_missed(capsys: pytest.CaptureFixture[str]) -> None:
    """Every task noisy and every task at k (the rule before #39): at least three passes of the suite
    per verdict, past the goal of 2: `simulate suite` says MISSES and exits 1, as `simulate gate` does."""
    code = main(["simulate", "suite", "--runs", "20", "--suite", "every-task-noisy", "--no-allocate"])
    out = capsys.readouterr().out
    assert code == 1 and "(goal ≤ 2: MISSES)" in out


def test_bench_suite_on_the_committed_suites_meets_its_goals(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "suite", "--runs", "60", "--suite", "smoke", "--suite", "full"]) == 0
    out = capsys.readouterr().out
    assert "smoke (" in out and "full (" in out and "MISSES" not in out and "passes" in out


@pytest.mark.parametrize("shape", ["every-task-noisy", "realistic"])
def test_on_noisy_suites_a_verdict_costs_fewer_passes_at_the_same_error_rates(shape: str) -> None:
    """Noisy tasks start where the baseline's spread lets a first look decide (one trial on these
    suites): fewer passes of the suite than every task at k, false alarms ≤ 5 %, a 12 % drop caught
    ≥ 90 %. Few PRs here (the bench measures the goals of 2 and 3 passes with its Monte-Carlo error)."""
    from evals.gate.simulate_suite import (
        FALSE_ALARM_GOAL,
        SUITE_DETECTION_GOAL,
        realistic_suite,
        run_suite_bench,
        suite_shape,
        tiered_suite,
    )

    config, _ = load_config(ROOT)
    suite = (
        tiered_suite()
        if shape == "every-task-noisy"
        else realistic_suite(suite_shape(ROOT, config, config.suites["full"]))
    )
    now = run_suite_bench(config.gate, config.threshold, suite, runs=120, seed=39, start_trials=3)
    before = run_suite_bench(
        config.gate, config.threshold, suite, runs=40, seed=39, start_trials=3, allocate=False
    )
    assert now["no change"].rate("regression") <= FALSE_ALARM_GOAL
    assert now["drop 12%"].rate("regression") >= SUITE_DETECTION_GOAL
    assert now["no change"].passes < 2.5 < 3.0 <= before["no change"].passes
    assert now["drop 12%"].passes < before["drop 12%"].passes


def test_the_realistic_shape_is_half_noisy_at_a_live_spread_and_the_same_every_time() -> None:
    from evals.gate.simulate_suite import LIVE_RATES, realistic_suite, suite_shape

    config, _ = load_config(ROOT)
    full = suite_shape(ROOT, config, config.suites["full"])
    shape = realistic_suite(full)
    noisy = [t for t in shape if not t.quiet]
    assert len(noisy) == len(full) // 2 and shape == realistic_suite(full)
    assert all(LIVE_RATES[0] <= t.mean / t.points <= LIVE_RATES[1] for t in noisy)
    assert all(t.mean == t.points for t in shape if t.quiet)
    assert [t.calls_per_trial for t in shape] == [t.calls_per_trial for t in full]


GATE = GateConfig()


def test_noisy_tasks_start_below_k_only_where_the_baselines_spread_lets_a_first_look_decide() -> None:
    """24 tasks of 2 to 25 points, threshold 8 of their 134: one trial each can pass an unchanged PR;
    Nightshift alone (16, 19, 20 against 1.5) cannot, and keeps k."""
    import random

    draw = random.Random(1)
    twos = [1.0, 2.0, 2.0, 2.0]
    suite = {f"t{i}": measure(f"t{i}", [draw.choice(twos) for _ in range(6)]) for i in range(11)}
    suite |= {f"m{i}": measure(f"m{i}", [float(draw.randint(3, 6)) for _ in range(6)]) for i in range(12)}
    assert first_look(suite, suite, allowed_drop=8.0, k=3, gate=GATE) == 1
    assert first_look(suite, suite, allowed_drop=1.5, k=3, gate=GATE) == 3  # a tight threshold: k
    night = {"nightshift": measure("nightshift", [16, 19, 20])}
    assert first_look(night, night, allowed_drop=1.5, k=3, gate=GATE) == 3
    # a task the baseline never measured, or one trial of it, gives no prediction: k
    assert first_look(suite, [*suite, "new"], allowed_drop=8.0, k=3, gate=GATE) == 3
    assert first_look({**suite, "one": measure("one", [3])}, [*suite, "one"], 8.0, 3, GATE) == 3
    # quiet tasks add no spread; all of them quiet: k (none starts below one trial anyway)
    quiet = {"q": measure("q", [2, 2, 2])}
    assert first_look(quiet, quiet, allowed_drop=0.1, k=3, gate=GATE) == 3


def test_a_quiet_task_that_differs_during_a_ramp_catches_up_to_the_runs_k() -> None:
    """Noisy tasks ramp from one trial; a quiet task's odd trial still earns it the run's k (3), not the
    ramp's 1: one odd trial against a spread-free baseline would read as a certain drop."""
    noise = {"quiet": measure("quiet", [2, 2, 2]), "noisy": measure("noisy", [16, 19, 20])}
    odd = {"quiet": [1.0], "noisy": [18.0]}
    assert catch_up(noise, odd, 1, ramp=3) == {"quiet": 2}
    assert catch_up(noise, {"quiet": [2.0], "noisy": [18.0]}, 1, ramp=3) == {}


def test_bench_suite_refuses_a_start_of_no_trials() -> None:
    assert main(["simulate", "suite", "--runs", "1", "--start-trials", "0"]) == 2


def test_a_task_the_baseline_never_measured_takes_its_tiers_measured_model(tmp_path: Path) -> None:
    """Without a baseline entry an L1 task is quiet at full marks like the L1 tasks that were measured
    (the committed baseline measures every task, so this path is held here on a trimmed copy)."""
    from evals.gate.simulate_suite import suite_shape

    config, _ = load_config(ROOT)
    data = json.loads((ROOT / config.baseline).read_text(encoding="utf-8"))
    del data["scenarios"]["board-move"]
    trimmed = tmp_path / "baseline.json"
    trimmed.write_text(json.dumps(data), encoding="utf-8")
    shape = {
        t.name: t
        for t in suite_shape(
            ROOT, config.model_copy(update={"baseline": trimmed}), ["reply-facts", "board-move"]
        )
    }
    assert not shape["board-move"].measured and shape["board-move"].quiet
    assert shape["board-move"].mean == shape["board-move"].points


def test_a_quiet_tasks_errored_trial_brings_the_quiet_tasks_up_to_k() -> None:
    """An infrastructure error shows no score, so it cannot show the task still scores its value: left
    at its one errored trial the whole verdict would be `error` (one of one failed)."""
    noise = {"a": measure("a", [3, 3]), "b": measure("b", [2, 2]), "n": measure("n", [1, 2])}
    run: dict[str, list[float]] = {"a": [], "b": [2.0], "n": [1.0, 2.0, 2.0]}
    assert catch_up(noise, run, 3) == {}
    assert catch_up(noise, run, 3, {"a": 1}) == {"a": 2, "b": 2}  # the errored trial counts as run
    assert top_up(noise, run, 3, {"a"}) == {"a": 3, "b": 3, "n": 3}
