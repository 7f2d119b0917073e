"""The stored runs `bench speed` times `grade --run` on (bench/speed.py `replicated`): copies of one
trial that the records' validation accepts as distinct trials, so the timed command grades them
instead of refusing them (it did, once a grade had to be for the trial its outcome names)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from bench.speed import replicated
from evals.cli import main
from evals.records.rundir import RunDir
from tests.support.paths import ROOT


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


ORPHAN = """
import os, subprocess, sys
# the middle process starts a grandchild that burns CPU and leaves without waiting for it
subprocess.Popen([sys.executable, "-c", "import os\\nwhile sum(os.times()[:2]) < 0.5: pass"])
os._exit(0)
"""
MEASURE = """
import resource, subprocess, sys
from bench.speed import _cpu, become_subreaper, reap_orphans
assert become_subreaper()
before = resource.getrusage(resource.RUSAGE_CHILDREN)
subprocess.run([sys.executable, "-c", sys.argv[1]], check=True)
waited = resource.getrusage(resource.RUSAGE_CHILDREN)
reap_orphans()
tree = resource.getrusage(resource.RUSAGE_CHILDREN)
print(_cpu(waited) - _cpu(before), _cpu(tree) - _cpu(before))
"""


@pytest.mark.skipif(sys.platform != "linux", reason="a subreaper is Linux's")
def test_the_cpu_of_an_orphaned_descendant_is_counted_once_reaped() -> None:
    """What `bench speed` adds to the grader's figure: a descendant whose parent died without
    waiting for it (a confined program killed with its launcher) is re-parented to the bench, and
    its CPU is counted when the bench reaps it, not before."""
    done = subprocess.run(
        [sys.executable, "-c", MEASURE, ORPHAN], capture_output=True, text=True, check=True, cwd=ROOT
    )
    waited, tree = (float(x) for x in done.stdout.split())
    assert waited < 0.5 <= tree
