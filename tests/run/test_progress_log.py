"""A CI log (stdout not a terminal) gets one line per finished trial, as it finishes: the progress
bar cannot redraw there, and a log that is silent between the run's header and its verdict tells
nobody how far a long run got."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from rich.console import Console

from evals.cli import main
from evals.records.model import TrialRecord
from evals.run.runner import TrialProgress, log_line, progress_bar
from tests.support.synthetic import synthetic_rubric, trial_record

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def test_each_finished_trial_is_one_line_in_a_log_and_none_on_a_terminal() -> None:
    rubric = synthetic_rubric()
    passed, failed = (
        trial_record(rubric, 0, set()),
        trial_record(rubric, 1, {"C1", "C2a", "C3", "C4a", "C5a", "C6", "C7", "C8"}),
    )
    errored = TrialRecord(scenario="nightshift", trial=2, status="error", error="Messages API answered 529")
    shown = {}
    for terminal in (False, True):
        out = io.StringIO()
        console = Console(file=out, force_terminal=terminal, width=200)
        with progress_bar(console) as progress:
            bar = TrialProgress(progress, total=3, done=0)
            for n, record in enumerate((passed, failed, errored)):
                bar.started()
                bar.stopped()
                bar.finished(record, f"nightshift#{n}", 12.34 + n)
        text = ANSI.sub("", out.getvalue())
        shown[terminal] = [m.group() for m in re.finditer(r"trial nightshift#\d[^\n\r]*", text)]
    assert shown[False] == [
        "trial nightshift#0 · passed · 25/25 · 12.3 s",
        "trial nightshift#1 · failed · 17/25 · 13.3 s",
        "trial nightshift#2 errored: Messages API answered 529",
    ]
    assert shown[True] == ["trial nightshift#2 errored: Messages API answered 529"]  # the bar says the rest
    assert log_line(passed, "nightshift#0", 12.34) == "trial nightshift#0 · passed · 25/25 · 12.3 s"
    assert log_line(failed, "nightshift#1", None) == "trial nightshift#1 · failed · 17/25"


def test_a_run_whose_output_is_a_pipe_logs_every_trial(
    project: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    main(["run", "--agent", "replay:regressed", "--trials", "2", "--out", str(project / "runs" / "log")])
    printed = capfd.readouterr().out
    found = re.findall(r"^trial trial-run#(\d) · (passed|failed) · ([\d.]+)/7 · [\d.]+ s$", printed, re.M)
    assert sorted(found) == [("0", "failed", "2"), ("1", "failed", "2")]
