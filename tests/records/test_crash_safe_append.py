"""A writer killed mid-append leaves a torn last line in results.jsonl; the next append (and every
resume) cuts it back to the last newline and says which trial will be re-run, so no record is glued
onto a fragment and lost."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from evals.cli import main
from evals.core.jsonio import cut_torn_tail
from evals.records.model import TrialRecord
from evals.records.rundir import RunDir
from tests.support.agents import AGENT, DyingAgent, lines
from tests.support.project import read_summary

# Appends the first half of a record and kills itself with SIGKILL before the newline: exactly what
# a runner dying inside `append_jsonl` leaves behind, with no timing involved.
WRITER = """
import os, signal, sys
path, line = sys.argv[1], sys.argv[2].encode()
with open(path, "ab") as handle:
    handle.write(line[: len(line) // 2])
    handle.flush()
    os.fsync(handle.fileno())
    os.kill(os.getpid(), signal.SIGKILL)
"""


@pytest.fixture(autouse=True)
def _patient_interrupts(monkeypatch: pytest.MonkeyPatch) -> None:
    """In-process runs: Ctrl-C's grace watchdog must never end the test process on a loaded machine."""
    monkeypatch.setattr("evals.run.interrupt.GRACE_S", 600.0)


def kill_writer_mid_line(results: Path, line: str) -> None:
    proc = subprocess.run([sys.executable, "-c", WRITER, str(results), line], check=False)
    assert proc.returncode == -signal.SIGKILL


def test_a_writer_killed_mid_line_resumes_to_one_record_per_trial_and_the_same_verdict(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    whole, torn = project / "runs" / "whole", project / "runs" / "torn"
    args = ["run", "--agent", AGENT, "--trials", "3", "--concurrency", "1"]
    whole_code = main([*args, "--out", str(whole)])
    DyingAgent.kill_at[0] = 2
    assert main([*args, "--out", str(torn)]) == 130  # interrupted (SIGINT)
    third = (whole / "results.jsonl").read_text(encoding="utf-8").splitlines()[2]
    assert json.loads(third)["trial"] == 2
    kill_writer_mid_line(torn / "results.jsonl", third)
    assert not (torn / "results.jsonl").read_bytes().endswith(b"\n")
    capsys.readouterr()

    assert main(["run", "--resume", str(torn)]) == whole_code
    err = capsys.readouterr().err
    assert "torn" in err and "trial trial-run#2" in err and "will be re-run" in err
    assert Counter(r["trial"] for r in lines(torn)) == {0: 1, 1: 1, 2: 1}  # every line parses
    assert read_summary(torn)["verdict"] == read_summary(whole)["verdict"]
    assert read_summary(torn)["total"]["mean"] == read_summary(whole)["total"]["mean"]


def test_append_after_a_torn_line_cuts_the_fragment_first(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rd = RunDir(tmp_path)
    rd.append_record(TrialRecord(scenario="s", trial=0, status="ok"))
    with rd.results_path.open("a", encoding="utf-8") as handle:
        handle.write('{"scenario":"s","trial":1,"agent":"x","sta')
    rd.append_record(TrialRecord(scenario="s", trial=2, status="ok"))
    assert [json.loads(x)["trial"] for x in rd.results_path.read_text().splitlines()] == [0, 2]
    assert "trial s#1 has no record" in capsys.readouterr().err


def test_cut_torn_tail_leaves_a_whole_file_alone_and_cuts_long_fragments(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    assert cut_torn_tail(path) is None  # no file yet
    path.write_bytes(b'{"a":1}\n')
    assert cut_torn_tail(path) is None and path.read_bytes() == b'{"a":1}\n'
    fragment = b'{"b":"' + b"x" * 200_000  # longer than one backward read
    path.write_bytes(b'{"a":1}\n' + fragment)
    assert cut_torn_tail(path) == fragment and path.read_bytes() == b'{"a":1}\n'
    path.write_bytes(b'{"only":"torn')  # no newline at all: nothing whole survives
    assert cut_torn_tail(path) == b'{"only":"torn' and path.read_bytes() == b""
