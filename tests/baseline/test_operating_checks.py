"""`evals baseline aa` and `evals baseline canary`: the gate's own false alarms and catches, recorded in
baseline/operating.jsonl and counted on the next report's first screen.

board-move's replays are the material: its reference scores 3/3, `appended-note` 0/3 and
`pr-number-only` 2/3 (each promises those parts in `expect_lost`), a trial takes a fraction of a second,
and a replay list cycles by trial index, so a run of any shape is written down, not simulated.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from evals.baseline.aa import split
from evals.cli import main
from evals.records.model import TrialRecord

REFERENCE_THEN_WRONG = "replay:reference,appended-note"  # trials 0, 2, … score 3; trials 1, 3, … score 0


def board_run(project: Path, name: str, agent: str, trials: int) -> Path:
    out = project / "runs" / name
    main(["run", "--scenario", "board-move", "--agent", agent, "--trials", str(trials), "--out", str(out)])
    return out


def operating(project: Path) -> list[dict[str, object]]:
    path = project / "baseline" / "operating.jsonl"
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def first_screen(run: Path) -> str:
    return "\n".join((run / "report.md").read_text(encoding="utf-8").splitlines()[:25])


def test_a_night_whose_halves_agree_passes_and_the_next_report_counts_one_check(project: Path) -> None:
    """Six trials cycling reference, appended-note, reference: each half holds 3, 0 and 3 points."""
    run = board_run(project, "night", "replay:reference,appended-note,reference", 6)
    assert main(["baseline", "aa", "--run", str(run)]) == 0
    (check,) = operating(project)
    assert check["kind"] == "aa" and check["verdict"] == "pass"
    assert check["halves"] == {"board-move": [3, 3]} and check["fired"] == [] and check["delta"] == 0
    assert main(["baseline", "aa", "--run", str(run)]) == 0 and len(operating(project)) == 1  # re-run job

    assert main(["compare", "--run", str(run)]) in (0, 1)
    screen = first_screen(run)
    assert "🧪 **This gate:** **0 false alarms in 1 nightly A/A check**; no canary run recorded yet" in screen
    viewer = (run / "viewer.html").read_text(encoding="utf-8")  # the viewer's header says it too, plainly
    assert "🧪 This gate: 0 false alarms in 1 nightly A/A check; no canary run recorded yet" in viewer


def test_halves_that_differ_are_a_false_alarm_naming_what_fired(project: Path) -> None:
    """With a two-replay cycle the parity split puts every reference trial in half A: the gate's rule,
    applied to half B against half A, calls it a regression, and the record says what fired."""
    run = board_run(project, "split", REFERENCE_THEN_WRONG, 4)
    assert main(["baseline", "aa", "--run", str(run)]) == 0
    (check,) = operating(project)
    assert check["verdict"] == "regression" and check["delta"] == -3
    assert check["fired"] == ["total", "scenario board-move (Δ -3.00)"]
    assert any("B1" in reason for reason in check["reasons"])  # the gate's own reason, criteria named
    main(["compare", "--run", str(run)])
    assert "**1 false alarm in 1 nightly A/A check**" in first_screen(run)


def test_one_trial_cannot_be_split_and_is_never_counted_as_a_pass(project: Path) -> None:
    run = board_run(project, "short", "replay:reference", 1)
    assert main(["baseline", "aa", "--run", str(run)]) == 0
    (check,) = operating(project)
    assert check["verdict"] == "too-few-trials" and check["unsplit"] == ["board-move"]
    main(["compare", "--run", str(run)])
    screen = first_screen(run)
    assert "no nightly A/A check recorded yet" in screen and "not counted: 1 A/A check" in screen
    assert "false alarms in" not in screen


def record(trial: int, status: str = "ok") -> TrialRecord:
    return TrialRecord.model_validate(
        {"scenario": "s", "trial": trial, "status": status, "error": "down" if status == "error" else None}
    )


def test_the_split_alternates_graded_trials_in_trial_order() -> None:
    """Parity when every trial is there; an errored trial (no score) is left out, not given to a half."""
    ok = [record(t) for t in (3, 0, 2, 1, 5, 4)]
    for r in ok:
        object.__setattr__(r, "grade", object())  # only `graded` is read: a grade is present
    half_a, half_b = split(ok)
    assert [r.trial for r in half_a] == [0, 2, 4] and [r.trial for r in half_b] == [1, 3, 5]
    with_error = [*ok[:3], record(1, "error"), *ok[4:]]
    half_a, half_b = split(with_error)
    assert [r.trial for r in half_a] == [0, 3, 5] and [r.trial for r in half_b] == [2, 4]


def write_canary(project: Path, replay: str) -> None:
    (project / "canary" / "canary.yaml").write_text(
        f"description: board-move plays {replay}\ntrials: 3\noffline:\n  board-move: {replay}\n",
        encoding="utf-8",
    )


def test_a_canary_that_loses_more_than_the_threshold_is_caught_and_counted(project: Path) -> None:
    write_canary(project, "appended-note")  # 3 of board-move's 3 points: past the 1.5 allowed
    out = project / "runs" / "canary"
    assert main(["baseline", "canary", "--scenario", "board-move", "--out", str(out)]) == 0
    (line,) = operating(project)
    assert line["kind"] == "canary" and line["verdict"] == "regression" and line["delta"] == -3
    assert line["trials"] == {"board-move": 3} and line["agent"] == "replay:appended-note"
    assert json.loads((out / "run.json").read_text(encoding="utf-8"))["agent_spec"] == "canary"
    # recording the same run again (the nightly's fan-in after the canary job) adds nothing
    assert main(["baseline", "canary", "--run", str(out)]) == 0 and len(operating(project)) == 1
    main(["compare", "--run", str(out)])
    assert "**caught the canary in 1 of 1** (its mean Δ -3.00)" in first_screen(out)


def test_a_canary_within_the_threshold_is_recorded_as_missed_with_its_drop(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # board-move alone is held to 6 % of its 3 points as committed; at 1.5 points its canary's 1 point is
    # within the threshold, so the gate passes it
    config = project / "evals.yaml"
    text = config.read_text(encoding="utf-8")
    config.write_text(re.sub(r"(?m)^  percent: [\d.]+", "  points: 1.5", text), encoding="utf-8")
    write_canary(project, "pr-number-only")
    out = project / "runs" / "weak"
    assert main(["baseline", "canary", "--scenario", "board-move", "--out", str(out)]) == 0
    said = capsys.readouterr().out
    assert "Canary weak: missed (verdict pass; Δ -1.00 against an allowed drop of 1.5)" in said
    (line,) = operating(project)
    assert line["verdict"] == "pass" and line["delta"] == -1
    main(["compare", "--run", str(out)])
    assert "**caught the canary in 0 of 1** (its mean Δ -1.00)" in first_screen(out)


def test_the_committed_canary_loses_more_than_the_threshold_on_trial_run(project: Path) -> None:
    out = project / "runs" / "committed"
    main(["baseline", "canary", "--scenario", "trial-run", "--trials", "1", "--out", str(out)])
    (line,) = operating(project)
    assert line["verdict"] == "regression" and line["delta"] < -line["allowed_drop"]


def test_only_a_canary_run_is_recorded_as_one(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run = board_run(project, "ordinary", "replay:appended-note", 1)
    assert main(["baseline", "canary", "--run", str(run)]) == 2
    assert "not a canary run" in capsys.readouterr().err
    assert not (project / "baseline" / "operating.jsonl").exists()


def test_a_canary_that_degrades_none_of_the_scenarios_run_is_refused(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["baseline", "canary", "--scenario", "board-move", "--out", "runs/none"]) == 2
    assert "degrades none of the scenarios run" in capsys.readouterr().err
    assert not (project / "runs" / "none").exists()


def test_a_malformed_operating_file_stops_the_verdict_naming_the_line(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run = board_run(project, "fine", "replay:reference", 1)
    (project / "baseline" / "operating.jsonl").write_text('{"kind": "aa", "run": "n"}\n', encoding="utf-8")
    assert main(["compare", "--run", str(run)]) == 2
    err = capsys.readouterr().err
    assert "operating.jsonl:1" in err and "started" in err
