"""The guard history: each bless pools a guard part's full-marks counts with the earlier blesses'
while the part's definition is unchanged, within a window, each run counted once; the guard test
compares the run with that history rather than with the last baseline's few trials."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from evals.baseline.bless import baseline_from_run, with_guard_history
from evals.cli import main
from evals.core.config import GateConfig, Threshold
from evals.core.errors import BadInputError
from evals.gate.aggregate import aggregate
from evals.gate.baseline_file import Baseline, GuardSample, load_baseline, recent
from evals.gate.compare import GuardComparison, Settings, compare
from evals.gate.part_fingerprint import part_fingerprints
from evals.gate.verdict import Verdict, verdict
from evals.grade.rubric import Rubric
from evals.records.model import TrialRecord
from tests.support.project import guard_project
from tests.support.synthetic import summarise, synthetic_rubric, trial_record

GUARDS = {"nightshift": ["C5a", "C7"]}
WINDOW = GateConfig().guard_history_trials  # 30: five nightly blesses of 6 trials


@pytest.fixture
def rubric() -> Rubric:
    return synthetic_rubric()


@pytest.fixture
def fingerprint(rubric: Rubric, tmp_path: Path) -> dict[str, Any]:
    """A fingerprint with per-part hashes, as every baseline blessed since gate v2 has."""
    return {
        "judge_model": "claude-haiku-4-5",
        "scenarios": {"nightshift": {"data": "d" * 8, **part_fingerprints(rubric, tmp_path)}},
    }


def records(rubric: Rubric, k: int, c7_fails: int = 0, c5a_fails: int = 0) -> list[TrialRecord]:
    """k trials with full marks but for C7 failing in the first `c7_fails` and C5a in `c5a_fails`."""
    return [
        trial_record(rubric, t, {p for p, n in (("C7", c7_fails), ("C5a", c5a_fails)) if t < n})
        for t in range(k)
    ]


def bless(
    rubric: Rubric,
    fingerprint: dict[str, Any],
    run: str,
    trials: list[TrialRecord],
    previous: Baseline | None,
    window: int = WINDOW,
) -> Baseline:
    """What `evals baseline bless --run runs/<run>` makes, given the baseline it replaces."""
    summary = summarise(trials, None, fingerprint=fingerprint, rubric=rubric, trials=len(trials))
    new = baseline_from_run(summary, trials, Path("runs") / run)
    return with_guard_history(new, previous, summary, GUARDS, window)


def history(baseline: Baseline, part: str = "C7") -> list[tuple[str, int, int]]:
    return [(s.run, s.passed, s.trials) for s in baseline.scenarios["nightshift"].guard_history[part]]


def test_two_blesses_pool_their_guard_counts_newest_first(
    rubric: Rubric, fingerprint: dict[str, Any]
) -> None:
    first = bless(rubric, fingerprint, "night-1", records(rubric, 6, c7_fails=1), None)
    assert history(first) == [("night-1", 5, 6)]
    second = bless(rubric, fingerprint, "night-2", records(rubric, 6), first)
    assert history(second) == [("night-2", 6, 6), ("night-1", 5, 6)]
    assert history(second, "C5a") == [("night-2", 6, 6), ("night-1", 6, 6)]
    assert "C3" not in second.scenarios["nightshift"].guard_history  # only guard parts keep one


def test_blessing_the_same_run_again_counts_it_once(rubric: Rubric, fingerprint: dict[str, Any]) -> None:
    first = bless(rubric, fingerprint, "night-1", records(rubric, 6, c7_fails=1), None)
    again = bless(rubric, fingerprint, "night-1", records(rubric, 6, c7_fails=1), first)
    assert history(again) == [("night-1", 5, 6)]
    second = bless(rubric, fingerprint, "night-2", records(rubric, 4), first)
    back = bless(rubric, fingerprint, "night-1", records(rubric, 6, c7_fails=1), second)
    assert history(back) == [("night-1", 5, 6), ("night-2", 4, 4)]


def test_a_changed_part_starts_its_history_afresh_and_the_others_keep_theirs(
    rubric: Rubric, fingerprint: dict[str, Any]
) -> None:
    first = bless(rubric, fingerprint, "night-1", records(rubric, 6), None)
    edited = json.loads(json.dumps(fingerprint))
    edited["scenarios"]["nightshift"]["parts"]["C7"]["hash"] = "a new check for C7"
    second = bless(rubric, edited, "night-2", records(rubric, 6, c7_fails=3), first)
    assert history(second) == [("night-2", 3, 6)]
    assert history(second, "C5a") == [("night-2", 6, 6), ("night-1", 6, 6)]


def test_a_scenario_wide_change_starts_every_guard_afresh(
    rubric: Rubric, fingerprint: dict[str, Any]
) -> None:
    first = bless(rubric, fingerprint, "night-1", records(rubric, 6), None)
    for key, value in (("data", "new scenario data"), ("rubric_rest", "new thresholds")):
        edited = json.loads(json.dumps(fingerprint))
        edited["scenarios"]["nightshift"][key] = value
        second = bless(rubric, edited, "night-2", records(rubric, 6), first)
        assert history(second) == [("night-2", 6, 6)] and history(second, "C5a") == [("night-2", 6, 6)]
    other_judge = {**fingerprint, "judge_model": "claude-sonnet-4-5"}
    assert history(bless(rubric, other_judge, "night-2", records(rubric, 6), first)) == [("night-2", 6, 6)]


def test_the_history_keeps_the_newest_blesses_within_the_window(
    rubric: Rubric, fingerprint: dict[str, Any]
) -> None:
    baseline = None
    for night in range(1, 6):
        baseline = bless(rubric, fingerprint, f"night-{night}", records(rubric, 6), baseline, window=20)
    assert baseline is not None
    assert [run for run, _, _ in history(baseline)] == ["night-5", "night-4", "night-3"]  # 18 of 20
    only_own = bless(rubric, fingerprint, "night-6", records(rubric, 6), baseline, window=0)
    assert history(only_own) == [("night-6", 6, 6)]  # the newest bless always, even past the window
    samples = [GuardSample(run=f"r{i}", started="", passed=4, trials=4) for i in range(5)]
    assert [s.run for s in recent(samples, 12)] == ["r0", "r1", "r2"]
    assert [s.run for s in recent(samples, 11)] == ["r0", "r1"]


def test_a_baseline_without_a_history_counts_as_its_own_trials(
    rubric: Rubric, fingerprint: dict[str, Any]
) -> None:
    """A baseline blessed before guard histories: the next bless pools its trials as one sample,
    keyed by its source run, and the gate compares with its trials as before."""
    first = bless(rubric, fingerprint, "night-1", records(rubric, 6, c7_fails=2), None)
    scenario = first.scenarios["nightshift"].model_dump(exclude={"guard_history"})
    old = Baseline.model_validate({**first.model_dump(), "scenarios": {"nightshift": scenario}})
    assert old.scenarios["nightshift"].guard_history == {}
    second = bless(rubric, fingerprint, "night-2", records(rubric, 6), old)
    assert history(second) == [("night-2", 6, 6), ("night-1", 4, 6)]
    guard, _ = compare_with(old, rubric, fingerprint, records(rubric, 3))
    assert (guard.baseline_passed, guard.baseline_trials, guard.baseline_runs) == (4, 6, 1)


def compare_with(
    baseline: Baseline,
    rubric: Rubric,
    fingerprint: dict[str, Any],
    trials: list[TrialRecord],
    window: int = 45,
) -> tuple[GuardComparison, Verdict]:
    """The C7 guard's comparison, and the verdict on the whole, of a run against `baseline`."""
    settings = Settings(Threshold(points=1.5), GateConfig(guard_history_trials=window), 0.5, GUARDS)
    result = compare({"nightshift": aggregate(trials, rubric)}, fingerprint, baseline, settings)
    guard = next(g for g in result.guards if g.part == "C7")
    return guard, verdict(result, several_scenarios=False)


def test_the_history_not_the_last_six_trials_makes_a_guard_fall_detectable(
    rubric: Rubric, fingerprint: dict[str, Any]
) -> None:
    """C7 passes 2 of 6 trials in the run. Against the last bless's 6 clean trials, Fisher's test
    with Holm across the two guards cannot call it (p 0.03, adjusted 0.06); against the history
    the default window keeps (5 clean blesses, 30 trials) it can, and the verdict names it."""
    baseline = None
    for night in range(1, 8):
        baseline = bless(rubric, fingerprint, f"night-{night}", records(rubric, 6), baseline)
    assert baseline is not None
    run = records(rubric, 6, c7_fails=4)

    last_only, decided = compare_with(baseline, rubric, fingerprint, run, window=0)
    assert (last_only.baseline_trials, last_only.baseline_runs) == (6, 1)
    assert not last_only.regressed and last_only.p_adjusted > 0.05 and decided.verdict == "pass"

    pooled, decided = compare_with(baseline, rubric, fingerprint, run)
    assert (pooled.baseline_passed, pooled.baseline_trials, pooled.baseline_runs) == (30, 30, 5)
    assert pooled.regressed and pooled.p_adjusted < 0.001
    assert decided.verdict == "regression"
    assert decided.reasons[0].startswith(
        "guard C7 regressed: full marks in 30/30 trials of the last 5 baselines (100%), 2/6 now (33%)"
    )


@pytest.mark.parametrize(
    ("sample", "message"),
    [
        ({"run": "n1", "started": "", "passed": 7, "trials": 6}, "passed (7) is more than trials (6)"),
        ({"run": "n1", "started": "", "passed": 1, "trials": 0}, "greater than or equal to 1"),
        ({"run": "", "started": "", "passed": 1, "trials": 1}, "at least 1 character"),
        ({"run": "n1", "started": "", "passed": 1, "trials": 1, "extra": 1}, "Extra inputs"),
    ],
)
def test_a_bad_guard_history_is_bad_input_naming_the_field(
    tmp_path: Path, rubric: Rubric, fingerprint: dict[str, Any], sample: dict[str, Any], message: str
) -> None:
    good = bless(rubric, fingerprint, "night-1", records(rubric, 6), None)
    data = good.model_dump(mode="json")
    data["scenarios"]["nightshift"]["guard_history"]["C7"] = [sample]
    path = tmp_path / "baseline.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(BadInputError, match=re.escape("scenarios.nightshift.guard_history.C7")) as caught:
        load_baseline(path)
    assert message in str(caught.value)


def test_a_history_that_counts_a_run_twice_is_bad_input(
    tmp_path: Path, rubric: Rubric, fingerprint: dict[str, Any]
) -> None:
    good = bless(rubric, fingerprint, "night-1", records(rubric, 6), None)
    data = good.model_dump(mode="json")
    sample = data["scenarios"]["nightshift"]["guard_history"]["C7"][0]
    data["scenarios"]["nightshift"]["guard_history"]["C7"] = [sample, sample]
    path = tmp_path / "baseline.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(BadInputError, match="guard history of C7 counts a run more than once: night-1"):
        load_baseline(path)


def _history(path: Path) -> list[tuple[str, int, int]]:
    scenario = json.loads(path.read_text(encoding="utf-8"))["scenarios"]["trial-run"]
    return [(s["run"], s["passed"], s["trials"]) for s in scenario["guard_history"]["T4"]]


def test_bless_carries_the_committed_baselines_counts_and_a_rebless_adds_nothing(project: Path) -> None:
    """Through the command: T4 as a guard; the committed baseline (blessed before guard histories,
    4 reference trials) is pooled with the new run's, once however often the run is blessed; a
    nightly candidate written elsewhere continues the committed baseline."""
    guard_project(project, "T4")
    committed = load_baseline(project / "baseline" / "baseline.json")
    assert committed is not None and committed.scenarios["trial-run"].guard_history == {}
    source = committed.source["run"]
    out = project / "runs" / "ref"
    assert (
        main(
            [
                "run",
                "--scenario",
                "trial-run",
                "--agent",
                "replay:reference",
                "--trials",
                "2",
                "--out",
                str(out),
            ]
        )
        == 0
    )

    candidate = project / "candidate" / "baseline.json"
    assert main(["baseline", "bless", "--run", str(out), "--out", str(candidate)]) == 0
    assert _history(candidate) == [("ref", 2, 2), (source, 4, 4)]

    path = project / "baseline" / "baseline.json"
    for _ in range(2):
        assert main(["baseline", "bless", "--run", str(out)]) == 0
        assert _history(path) == [("ref", 2, 2), (source, 4, 4)]
    assert main(["compare", "--run", str(out)]) == 0
