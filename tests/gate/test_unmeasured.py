"""Unmeasured is never a pass (#38): what the baseline scored and the run could not is `error`.

Comparing only the parts scored on both sides let a run whose failing parts became unscored (a
check that crashed on what the agent wrote, a judge that never answered) pass on what remained:
leaky code that was `regression (Δ -4.00)` became `success (Δ +0.00)`. Each test here is a run the
old comparison passed."""

from __future__ import annotations

from pathlib import Path

import pytest

from evals.baseline.bless import baseline_from_run
from evals.core.config import GateConfig, Threshold
from evals.gate.aggregate import aggregate
from evals.gate.compare import Comparison, Settings, compare
from evals.gate.verdict import verdict
from evals.records.model import TrialRecord
from tests.support.synthetic import FINGERPRINT, summarise, synthetic_rubric, trial_record

RUBRIC = synthetic_rubric()


def compared(
    run: list[TrialRecord], guards: list[str] | None = None, gate: GateConfig | None = None
) -> Comparison:
    base_records = [trial_record(RUBRIC, t, set()) for t in range(6)]
    baseline = baseline_from_run(summarise(base_records, None, rubric=RUBRIC), base_records, Path("runs/b"))
    settings = Settings(Threshold(points=1.5), gate or GateConfig(), guards={"nightshift": guards or []})
    return compare({"nightshift": aggregate(run, RUBRIC)}, FINGERPRINT, baseline, settings)


def test_a_part_the_baseline_scored_and_no_trial_of_the_run_did_is_an_error() -> None:
    """The attack: the parts the agent fails become grader errors, so nothing is left to drop."""
    comparison = compared([trial_record(RUBRIC, t, set(), unscored={"C3", "C6"}) for t in range(3)])
    decided = verdict(comparison, several_scenarios=False)
    assert decided.verdict == "error" and decided.exit_code == 3
    assert decided.reasons[0].startswith("nightshift: unmeasured: C3, C6 scored in the baseline")


def test_a_guard_unscored_in_one_trial_is_an_error() -> None:
    run = [trial_record(RUBRIC, t, set(), unscored={"C7"} if t == 1 else set()) for t in range(3)]
    assert verdict(compared(run), several_scenarios=False).verdict == "pass"  # not a guard: missing data
    decided = verdict(compared(run, guards=["C7"]), several_scenarios=False)
    assert decided.verdict == "error"
    assert decided.reasons == ["nightshift: unmeasured guard: C7 in 1 of 3 trials"]


def test_more_unscored_points_than_the_setting_allows_is_an_error_and_less_is_missing_data() -> None:
    """A judge undecided here and there stays unscored (filled by the part's mean); past the share,
    the run did not measure the agent. 3 of 25 points in 2 of 3 trials: 8 % of the points."""
    run = [trial_record(RUBRIC, t, set(), unscored={"C6", "C8", "C10"} if t else set()) for t in range(3)]
    assert verdict(compared(run), several_scenarios=False).verdict == "pass"
    decided = verdict(compared(run, gate=GateConfig(max_unscored_percent=5)), several_scenarios=False)
    assert decided.verdict == "error"
    assert decided.reasons == [
        "unmeasured: 8% of this run's points were left unscored, more than gate.max_unscored_percent (5%)"
    ]


def test_a_part_unscored_on_both_sides_stays_a_notice() -> None:
    """What the baseline never measured either is not lost by this run (a notice, as before)."""
    base_records = [trial_record(RUBRIC, t, set(), unscored={"C9"}) for t in range(6)]
    baseline = baseline_from_run(summarise(base_records, None, rubric=RUBRIC), base_records, Path("runs/b"))
    run = {
        "nightshift": aggregate([trial_record(RUBRIC, t, set(), unscored={"C9"}) for t in range(3)], RUBRIC)
    }
    comparison = compare(run, FINGERPRINT, baseline, Settings(Threshold(points=1.5), GateConfig()))
    assert comparison.unmeasured == [] and verdict(comparison, several_scenarios=False).verdict == "pass"


def test_a_regression_shown_on_what_both_sides_scored_stays_a_regression() -> None:
    """More measurement could only add to a drop already past the noise: it stays `regression`,
    with the unmeasured parts among its reasons; only a pass or an undecided run becomes `error`."""
    run = [trial_record(RUBRIC, t, fail={"C1", "C3", "C8", "C10", "C12"}, unscored={"C6"}) for t in range(6)]
    decided = verdict(compared(run), several_scenarios=False)
    assert decided.verdict == "regression"
    assert decided.reasons[-1].startswith("nightshift: unmeasured: C6 scored in the baseline")


def test_a_provisional_verdict_names_what_it_left_unmeasured_as_notices(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The job that deferred the agent's code says so by argument: its unmeasured parts are notices
    there; the gate itself reads no environment, so a set EVALS_DEFER_EXECUTION cannot soften it."""
    comparison = compared([trial_record(RUBRIC, t, set(), unscored={"C3", "C6"}) for t in range(3)])
    monkeypatch.setenv("EVALS_DEFER_EXECUTION", "1")
    assert verdict(comparison, several_scenarios=False).verdict == "error"
    decided = verdict(comparison, several_scenarios=False, provisional=True)
    assert decided.verdict == "pass"
    assert decided.notices[-1].startswith("provisional (checks deferred to the verdict job): nightshift")
