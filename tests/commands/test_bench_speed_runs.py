"""The stored runs `bench speed` times `grade --run` on (bench/speed.py `replicated`): copies of one
trial that the records' validation accepts as distinct trials, so the timed command grades them
instead of refusing them (it did, once a grade had to be for the trial its outcome names)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench.speed import replicated
from evals.cli import main
from evals.records.rundir import RunDir


@pytest.mark.parametrize("distinct", [True, False], ids=["own-code", "same-code"])
def test_replicated_copies_of_a_trial_grade_as_their_own_trials(project: Path, distinct: bool) -> None:
    source = project / "runs" / "one"
    assert main(["run", "--scenario", "trial-run", "--agent", "replay:reference", "--out", str(source)]) == 0
    copies = replicated(source, project / "runs" / "copies", 3, distinct)
    assert main(["grade", "--run", str(copies)]) == 0
    records = RunDir(copies).read_records()
    assert [(r.trial, r.grade.trial if r.grade else None) for r in records] == [(0, 0), (1, 1), (2, 2)]
    assert {r.grade.total for r in records if r.grade} == {7}  # the reference's score, each copy
    outcomes = [
        json.loads(RunDir(copies).trial_file("trial-run", n, "outcome").read_text(encoding="utf-8"))
        for n in range(3)
    ]
    assert [o.pop("trial") for o in outcomes] == [0, 1, 2]
    # own code: each copy's tree differs (no content cache reused); same code: identical but the trial
    assert (outcomes[1] != outcomes[2]) is distinct
