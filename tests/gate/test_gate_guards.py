"""Guard parts: a part that may never regress is gated on its own pass rate (exact one-sided Fisher,
Holm across guards), so it fails the gate even when the total stays within the threshold."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from scipy.stats import fisher_exact

from evals.cli import main
from evals.gate.guards import GuardCounts, fisher_less, fisher_two_sided, holm, judge_guards
from tests.support.project import guard_project, read_summary

TABLES = [(0, 3, 6, 6), (1, 3, 6, 6), (2, 3, 4, 6), (3, 3, 0, 6), (3, 6, 6, 6), (7, 15, 10, 10),
          (5, 5, 2, 6), (0, 1, 0, 4), (9, 12, 5, 10), (4, 12, 8, 9)]  # fmt: skip


@pytest.mark.parametrize(("ours", "alternative"), [(fisher_less, "less"), (fisher_two_sided, "two-sided")])
@pytest.mark.parametrize(("run_pass", "run_n", "base_pass", "base_n"), TABLES)
def test_the_exact_p_values_match_scipys_fisher_test(
    ours: Callable[[int, int, int, int], float],
    alternative: str,
    run_pass: int,
    run_n: int,
    base_pass: int,
    base_n: int,
) -> None:
    table = [[run_pass, run_n - run_pass], [base_pass, base_n - base_pass]]
    _, expected = fisher_exact(table, alternative=alternative)
    assert ours(run_pass, run_n, base_pass, base_n) == pytest.approx(expected, rel=1e-9)


def test_holm_adjusts_step_down_and_keeps_the_order() -> None:
    assert holm([0.01, 0.04, 0.03]) == pytest.approx([0.03, 0.06, 0.06])
    assert holm([0.5, 0.001]) == pytest.approx([0.5, 0.002])


def test_a_guard_that_held_or_improved_never_regresses() -> None:
    same = judge_guards([GuardCounts("C7", 6, 6, 3, 3), GuardCounts("C5a", 4, 6, 6, 6)])
    assert [t.regressed for t in same] == [False, False]
    fell = judge_guards([GuardCounts("C7", 6, 6, 0, 6), GuardCounts("C5a", 6, 6, 6, 6)])
    assert [t.regressed for t in fell] == [True, False]


def test_a_guard_that_fell_is_a_regression_while_the_total_is_within_the_threshold(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """T4 (the ticket moved to Done) as a guard: the baseline always did it, the run never does; the
    total drops by 1 point of 7, inside a 1.5-point threshold, and the gate still says regression.
    (The committed 6 % of trial-run's 7 points is 0.42, which the total's own drop would cross: the
    threshold is set to 1.5 points so the guard alone decides.)"""
    guard_project(project, "T4")
    config = project / "evals.yaml"
    text = config.read_text(encoding="utf-8")
    config.write_text(re.sub(r"(?m)^  percent: [\d.]+", "  points: 1.5", text), encoding="utf-8")
    base_run = project / "runs" / "base"
    args = ["run", "--scenario", "trial-run", "--agent", "replay:regressed"]
    # the guard flag alone leaves the baseline comparable: the regressed replay fails against reference
    assert main([*args, "--trials", "4", "--out", str(base_run)]) == 1
    assert main(["baseline", "bless", "--run", str(base_run), "--force"]) == 0
    path = project / "baseline" / "baseline.json"
    baseline = json.loads(path.read_text(encoding="utf-8"))
    scenario = baseline["scenarios"]["trial-run"]
    for trial in scenario["trials"]:  # the baseline agent always moved the ticket
        assert trial["parts"]["T4"] == 0.0
        trial["parts"]["T4"] = 1.0
        trial["total"] += 1
    scenario["parts"]["T4"] = 1.0
    scenario["total_mean"] += 1
    # the guard history pooled the real trials (tests/gate/test_guard_history.py): without one, the gate
    # counts the baseline's own, edited, trials
    del scenario["guard_history"]
    path.write_text(json.dumps(baseline), encoding="utf-8")
    capsys.readouterr()

    out = project / "runs" / "pr"
    assert main([*args, "--trials", "3", "--out", str(out)]) == 1
    printed = capsys.readouterr().out.splitlines()
    verdict_at = next(i for i, line in enumerate(printed) if line.startswith("Verdict: regression"))
    # the story first (#40): the guard with its concrete failure, then the gate's reasoning
    story = printed[verdict_at + 1]
    assert story.startswith("  A guard fell") and "guard T4" in story and "expected 'Done'" in story
    guard_line = printed[verdict_at + 2]
    assert guard_line.startswith(
        "  guard T4 regressed: full marks in 4/4 baseline trials (100%), 0/3 now (0%)"
    )
    # the edited baseline scored 3 in all four trials, so the quiet-task test (gate.quiet_alpha) names the
    # task's fall too (one scenario: its full α; p = 1/35)
    quiet_line = printed[verdict_at + 3]
    assert quiet_line.startswith("  scenario trial-run (quiet at 3) regressed") and "0/3 now" in quiet_line
    assert "Δ -1.00" in printed[verdict_at] and "within the threshold" in printed[verdict_at + 4]

    report = (out / "report.md").read_text(encoding="utf-8").splitlines()
    first_table = next(i for i, line in enumerate(report) if line.startswith("|"))
    opening = "\n".join(report[:first_table])
    assert "guard T4 regressed" in opening and "4/4 baseline trials (100%), 0/3 now (0%)" in opening
    summary = read_summary(out)
    assert summary["verdict"] == "regression"
    assert summary["guards"][0]["part"] == "T4" and summary["guards"][0]["regressed"] is True


def test_a_guard_that_held_leaves_the_verdict_to_the_total(project: Path) -> None:
    guard_project(project, "T2")  # the regressed replay still opens its pull request
    base_run = project / "runs" / "base"
    args = ["run", "--scenario", "trial-run", "--agent", "replay:regressed"]
    assert main([*args, "--trials", "2", "--out", str(base_run)]) == 1
    assert main(["baseline", "bless", "--run", str(base_run), "--force"]) == 0
    out = project / "runs" / "pr"
    assert main([*args, "--trials", "2", "--out", str(out)]) == 0
    summary = read_summary(out)
    assert summary["verdict"] == "pass" and summary["guards"][0]["regressed"] is False
