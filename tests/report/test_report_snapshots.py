"""report.md for each verdict, against golden files in tests/snapshots/ (UPDATE_SNAPSHOTS=1 rewrites).

The reports are built through the live path (aggregate → baseline_from_run → compare →
build_summary → render) from synthetic, seeded trial results on a 20-criterion, 25-point rubric
shaped like Nightshift's, so a change to any of those stages shows up as a readable diff here.
"""

from __future__ import annotations

import os

import pytest

from evals.core.config import GateConfig
from evals.grade.rubric import Rubric
from evals.report.markdown import MARKER
from tests.support.paths import SNAPSHOTS
from tests.support.synthetic import (
    BASE_WEAK,
    FINGERPRINT,
    make_baseline,
    noisy_trials,
    report_for,
    synthetic_rubric,
    trial_record,
)


def assert_snapshot(name: str, text: str) -> None:
    path = SNAPSHOTS / f"{name}.md"
    if os.environ.get("UPDATE_SNAPSHOTS") or not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8"), f"{path} differs; UPDATE_SNAPSHOTS=1 to accept"


@pytest.fixture
def rubric() -> Rubric:
    return synthetic_rubric()


def test_a_run_like_the_baseline_passes(rubric: Rubric) -> None:
    report, gate, _ = report_for(noisy_trials(rubric, 4, seed=2, weak=BASE_WEAK), make_baseline(rubric))
    assert gate.verdict == "pass"
    assert report.startswith(f"{MARKER}\n## ✅ Agent evals: **pass**")
    assert_snapshot("report_pass", report)


def test_a_clear_drop_is_a_regression_with_reasons_and_evidence(rubric: Rubric) -> None:
    weak = {**BASE_WEAK, "C1": 1.0, "C13": 1.0, "C7": 0.9}
    report, gate, summary = report_for(
        noisy_trials(rubric, 6, seed=3, weak=weak), make_baseline(rubric), trials=6
    )
    assert gate.verdict == "regression"
    assert summary["gate"]["ci"][1] < 0
    dropped = report.split("**What dropped**")[1]
    assert "C1a" not in dropped and "**C1**" in dropped and "expected 2048, found 1024" in dropped
    assert "**C13**" in dropped and "judge" in dropped and "omits the root cause" in dropped
    assert "buffer_size = 1024" in dropped
    assert "**C1** Criterion 1 of the night: failed in 6 of 6 trials" in dropped
    # the first 15 lines tell the story: each fallen criterion by its title, with what its check found
    story = report.splitlines()[:15]
    told = {
        "Criterion 1 of the night": "C1 expected 2048, found 1024, in 6 of 6 trials",
        "Criterion 13 of the night": "judge: the update for C13 omits the root cause, in 6 of 6 trials",
        "Criterion 7 of the night": "C7 expected 2048, found 1024, in 4 of 6 trials",
    }
    for title, detail in told.items():
        (line,) = [line for line in story if line.startswith(f"- **{title}**")]
        assert detail in line, line
    assert "full marks 100% → 0%" in story[5] and "(viewer.html#nightshift/0/C1)" in story[5]
    assert "Fisher" not in "\n".join(story) and "CI -3.51" in "\n".join(report.splitlines()[:25])
    assert_snapshot("report_regression", report)


def test_a_drop_the_noise_explains_is_inconclusive(rubric: Rubric) -> None:
    pool = ["C7", "C9a", "C14", "C19", "C3", "C8", "C12", "C15"]
    totals = [25, 18, 24, 19, 25, 17]
    records = [trial_record(rubric, t, set(pool[: 25 - total])) for t, total in enumerate(totals)]
    report, gate, summary = report_for(
        records, make_baseline(rubric), GateConfig(max_trials=6), trials=6, trials_started=4, trials_budget=6
    )
    assert gate.verdict == "inconclusive", summary["gate"]
    assert gate.exit_code == 0
    low, high = summary["gate"]["ci"]
    assert summary["gate"]["delta"] < -1.5 and low < 0 < high
    assert "(started with 4; 2 added while the verdict was undecided)" in report
    assert "smallest drop this k detects" in report
    assert_snapshot("report_inconclusive", report)


def test_a_changed_judge_prompt_is_not_comparable_and_named(rubric: Rubric) -> None:
    changed = {
        **FINGERPRINT,
        "scenarios": {
            "nightshift": {
                **FINGERPRINT["scenarios"]["nightshift"],
                "judge_prompts": {"judge/C13.md": "a" * 8, "judge/C17.md": "c" * 8},
            }
        },
    }
    report, gate, _ = report_for(
        noisy_trials(rubric, 4, seed=2, weak=BASE_WEAK), make_baseline(rubric), fingerprint=changed
    )
    assert gate.verdict == "not-comparable" and gate.exit_code == 4
    assert "judge prompt judge/C17.md changed" in report.splitlines()[3]
    assert_snapshot("report_not_comparable", report)


def test_mostly_errored_trials_are_an_error_not_a_regression(rubric: Rubric) -> None:
    records = [trial_record(rubric, 0, set())] + [
        trial_record(rubric, t, set(), status="error") for t in (1, 2, 3)
    ]
    report, gate, _ = report_for(records, make_baseline(rubric))
    assert gate.verdict == "error" and gate.exit_code == 3
    assert "3 of 4 trials failed for infrastructure reasons" in report
    assert report.count("529 overloaded") >= 3
    assert_snapshot("report_error", report)


def test_unscored_parts_are_listed_and_never_counted_as_zero(rubric: Rubric) -> None:
    records = [trial_record(rubric, t, set(), unscored={"C17"}) for t in range(4)]
    report, _, summary = report_for(records, make_baseline(rubric))
    assert summary["criteria"]["C17"]["mean"] is None
    assert "- C17 in 4 trials: judge answered unknown" in report


def _pass_rows(report: str) -> dict[str, str]:
    """The Δ cell of each pass-rate row of the scenario's overview table."""
    cells = [line.split("|") for line in report.splitlines() if line.startswith("| pass")]
    return {c[1].strip(): c[-2].strip() for c in cells}


def test_a_pass_rate_change_chance_explains_is_marked_and_a_real_one_keeps_its_arrow(rubric: Rubric) -> None:
    """pass@k and pass^k follow the passed-of-trials rate: one failure in six against ten passes is
    chance (Fisher p = 0.38, marked n.s., no arrow); six failures in six is not (p < 0.001)."""
    baseline = make_baseline(rubric)
    below = {"C1", "C2a", "C4a", "C5a", "C6", "C7", "C8", "C9a", "C10"}  # 16 of 25: under the pass line
    one_fails = [trial_record(rubric, t, below if t == 0 else set()) for t in range(6)]
    report, _, summary = report_for(one_fails, baseline)
    assert summary["comparison"]["nightshift"]["pass_p"] == pytest.approx(0.375, abs=1e-3)
    assert _pass_rows(report)["pass@1"] == "within noise (-17 pp, n.s.)"  # no arrow: not an alarm
    assert "_n.s.: not significant" in report
    all_fail = [trial_record(rubric, t, below) for t in range(6)]
    report, _, summary = report_for(all_fail, baseline)
    assert summary["comparison"]["nightshift"]["pass_p"] < 0.001
    assert _pass_rows(report)["pass@1"] == "▼ -100 pp" and "n.s." not in report
