"""Every command held to the one exit-code contract (README "Exit codes"): 0 pass or success,
1 regression only, 2 usage or bad input, 3 infrastructure or run data that cannot carry a verdict,
4 not comparable; 130/143 interrupted with one line; 141, quietly, when the reader goes away.

Each command gets its codes here, in-process where the code is decided in-process; the signals, the
closed pipe and the exit status a shell sees are checked on real processes.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from evals.cli import main
from tests.support.agents import set_config
from tests.support.paths import ROOT
from tests.support.project import make_run

WEBHOOKS = ROOT / "tests" / "fixtures" / "webhooks"


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Runs made once for the module: a passing one and a regressed one (trial-run, one trial)."""
    where = tmp_path_factory.mktemp("made")
    good, code = make_run(where, "good", "--scenario", "trial-run", "--agent", "replay:reference")
    assert code == 0
    bad, code = make_run(where, "bad", "--scenario", "trial-run", "--agent", "replay:regressed")
    assert code == 1
    return {"good": good, "bad": bad}


def copy(project: Path, made: dict[str, Path], name: str) -> Path:
    out = project / "runs" / name
    shutil.copytree(made[name], out)
    return out


def tamper(run: Path) -> Path:
    """Append a copy of the first record: a forged line (records/validate.py)."""
    results = run / "results.jsonl"
    results.write_text(results.read_text() + results.read_text().splitlines()[0] + "\n")
    return run


def code_of(argv: list[str], capsys: pytest.CaptureFixture[str] | None = None) -> int:
    if capsys is not None:
        capsys.readouterr()
    return main(argv)


# --- run, compare, grade: every verdict's code ------------------------------------------------


def test_run_exits_with_its_verdict(project: Path) -> None:
    run = ["run", "--scenario", "trial-run"]
    assert code_of([*run, "--agent", "replay:reference", "--out", "runs/0"]) == 0
    assert code_of([*run, "--agent", "replay:regressed", "--out", "runs/1"]) == 1
    assert code_of([*run, "--trials", "0"]) == 2
    set_config(project, judge={"model": "claude-other-judge"})  # the ruler changed: not comparable
    assert code_of([*run, "--agent", "replay:reference", "--out", "runs/4"]) == 4


def test_run_is_an_error_when_too_many_trials_fail_for_infrastructure(project: Path) -> None:
    from tests.support.agents import FailingTrialsAgent

    FailingTrialsAgent.down = {0}
    try:
        code = main(["run", "--agent", "tests.support.agents:FailingTrialsAgent", "--out", "runs/3"])
    finally:
        FailingTrialsAgent.down = set()
    assert code == 3


def test_compare_exits_with_the_verdict_and_fails_closed(project: Path, made: dict[str, Path]) -> None:
    good, bad = copy(project, made, "good"), copy(project, made, "bad")
    assert code_of(["compare", "--run", str(good)]) == 0
    assert code_of(["compare", "--run", str(bad)]) == 1
    assert code_of(["compare", "--run", str(project / "runs" / "nothing")]) == 2
    assert code_of(["compare", "--run", str(tamper(bad))]) == 3
    set_config(project, judge={"model": "claude-other-judge"})
    assert code_of(["compare", "--run", str(good)]) == 4


def test_grade_exits_with_the_verdict_and_fails_closed(project: Path, made: dict[str, Path]) -> None:
    """(A re-graded regression exits 1: tests/run/test_gate_end_to_end.py.)"""
    good = copy(project, made, "good")
    assert code_of(["grade", "--run", str(good)]) == 0
    assert code_of(["grade", "--run", "runs/nothing"]) == 2
    assert code_of(["grade", "--run", str(tamper(good))]) == 3


# --- the commands that read a run -------------------------------------------------------------


def test_merge(project: Path, made: dict[str, Path]) -> None:
    good = copy(project, made, "good")
    assert code_of(["merge", "--out", "runs/m0", str(good)]) == 0
    assert code_of(["merge", "--out", "runs/m2", str(good), str(good)]) == 2
    assert code_of(["merge", "--out", "runs/m3", str(tamper(good))]) == 3


def test_baseline_bless_and_history(project: Path, made: dict[str, Path], tmp_path: Path) -> None:
    good, bad = copy(project, made, "good"), copy(project, made, "bad")
    target = ["--baseline", str(tmp_path / "candidate.json")]
    assert code_of(["baseline", "bless", "--run", str(good), *target]) == 0
    assert code_of(["baseline", "bless", "--run", str(bad), *target]) == 2  # refused: a regression
    history = ["--history", str(tmp_path / "history.jsonl")]
    assert code_of(["baseline", "history", "--run", str(good), *history]) == 0
    assert code_of(["baseline", "history", "--run", str(tamper(good)), *history]) == 3
    assert code_of(["baseline", "bless", "--run", str(good), *target]) == 3


def test_labels_and_view(project: Path, made: dict[str, Path]) -> None:
    good = copy(project, made, "good")
    assert code_of(["labels", "--run", str(good)]) == 0
    assert code_of(["view", "--run", str(good)]) == 0
    assert code_of(["view", "--run", "runs/nothing"]) == 2
    tamper(good)
    assert code_of(["labels", "--run", str(good)]) == 3
    assert code_of(["view", "--run", str(good)]) == 3


def test_trend(project: Path, made: dict[str, Path], tmp_path: Path) -> None:
    history = tmp_path / "history.jsonl"
    assert code_of(["trend", "--history", str(history)]) == 2  # no history yet
    good = copy(project, made, "good")
    assert code_of(["baseline", "history", "--run", str(good), "--history", str(history)]) == 0
    assert code_of(["trend", "--history", str(history), "--markdown", str(tmp_path / "t.md")]) == 0


# --- scenarios and authoring ------------------------------------------------------------------


def test_scenarios(project: Path) -> None:
    assert code_of(["scenarios", "--names"]) == 0
    assert code_of(["scenarios", "--suite", "smok"]) == 2


def test_check_scenario_problems_are_bad_input_not_a_regression(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """(Exit 0 for every committed scenario: tests/scenario/test_task_suite.py.)"""
    replay = project / "scenario" / "trial-run" / "replays" / "regressed.yaml"
    text = replay.read_text()
    assert re.search(r"(?m)^expect_lost:", text)
    replay.write_text(re.sub(r"(?m)^expect_lost: .*$", "expect_lost: [T1a]", text))  # it loses others
    assert code_of(["check-scenario", "trial-run"], capsys) == 2
    assert "problem" in capsys.readouterr().out
    assert code_of(["check-scenario", "no-such-scenario"]) == 2


def test_new_scenario(project: Path) -> None:
    assert code_of(["new-scenario", "release-question"]) == 0
    assert code_of(["new-scenario", "Release_Question"]) == 2


def test_calibrate_and_the_live_commands_without_keys_are_bad_input(project: Path) -> None:
    """(`tools check`: 2 without its key, 4 on drift, in tests/world/test_tools_check.py.)"""
    for argv in (["calibrate"], ["seed-inbox"], ["janitor"]):
        assert code_of(argv) == 2, argv


# --- bench: a missed goal is 1, whichever simulation missed it ---------------------------------


@pytest.mark.parametrize(("command", "runs"), [("gate", "30"), ("suite", "8")])
def test_bench_exits_1_exactly_when_it_prints_a_missed_goal(
    project: Path, capsys: pytest.CaptureFixture[str], command: str, runs: str
) -> None:
    code = code_of(["bench", command, "--runs", runs], capsys)
    printed = capsys.readouterr().out
    assert ("MISSES" in printed) == (code == 1) and code in (0, 1)
    assert code_of(["bench", command, "--runs", "0"]) == 2


def test_bench_speed_bad_input(project: Path) -> None:
    assert code_of(["bench", "speed", "--repeat", "0"]) == 2


# --- the PR workflow's steps ------------------------------------------------------------------


def test_github_context(project: Path) -> None:
    assert code_of(["github", "context", "--event", str(WEBHOOKS / "pull_request.labeled.json")]) == 0
    assert code_of(["github", "context"]) == 2  # no event
    assert code_of(["github", "context", "--event", str(WEBHOOKS / "workflow_dispatch.json")]) == 2


def test_github_take_agent(project: Path, tmp_path: Path) -> None:
    head = tmp_path / "head"
    shutil.copytree(project / "agent", head / "agent")
    assert code_of(["github", "take-agent", "--head", str(head)]) == 0
    assert code_of(["github", "take-agent", "--head", str(tmp_path / "missing")]) == 2
    assert (project / "agent" / "agent.yaml").is_file()  # a missing head takes nothing away


def test_github_verdict_always_posts_and_says_the_code(
    project: Path, made: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    good = copy(project, made, "good")
    assert code_of(["github", "verdict", "--run", str(good)], capsys) == 0
    assert "exit_code=0" in capsys.readouterr().out
    assert code_of(["github", "verdict", "--run", str(tamper(good))], capsys) == 0
    assert "exit_code=3" in capsys.readouterr().out


def test_github_status_comment_unlabel_without_their_inputs(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("GITHUB_REPOSITORY", raising=False)
    assert code_of(["github", "status", "--sha", "a" * 40, "--state", "success"]) == 2
    assert code_of(["github", "comment", "--run", "runs/x", "--repo", "a/b", "--pr", "1"]) == 2
    assert code_of(["comment", "--run", "runs/x", "--repo", "a/b", "--pr", "1"]) == 2  # the old name
    assert code_of(["github", "unlabel", "--pr", "1"]) == 2


# --- the command line itself ------------------------------------------------------------------


def test_version_help_and_usage(project: Path) -> None:
    assert code_of(["--version"]) == 0
    assert code_of([]) == 0
    assert code_of(["no-such-command"]) == 2
    assert code_of(["run", "--no-such-flag"]) == 2


def test_a_crash_in_evals_is_3_with_its_traceback_never_1(
    project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import evals.commands.scenarios as scenarios

    def broken(args: object) -> int:
        raise RuntimeError("a bug")

    monkeypatch.setattr(scenarios, "handle", broken)
    assert code_of(["scenarios"], capsys) == 3
    err = capsys.readouterr().err
    assert "RuntimeError: a bug" in err and "a bug in evals, not a verdict" in err


def process(args: list[str], cwd: Path, **kwargs: object) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "200"}
    return subprocess.run(  # type: ignore[call-overload, no-any-return]
        [sys.executable, "-m", "evals", *args], cwd=cwd, env=env, text=True, capture_output=True, **kwargs
    )


def test_a_reader_that_goes_away_ends_the_command_quietly_with_141(project: Path) -> None:
    """`evals scenarios --names | head`: the reader is gone before a byte is written."""
    read, write = os.pipe()
    os.close(read)
    try:
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        ran = subprocess.run(
            [sys.executable, "-m", "evals", "scenarios", "--names"],
            cwd=project,
            env=env,
            stdout=write,
            stderr=subprocess.PIPE,
            text=True,
            check=False,
        )
    finally:
        os.close(write)
    assert ran.returncode == 141
    assert ran.stderr == ""  # no traceback, no "Exception ignored"


@pytest.mark.parametrize(
    ("agent", "code", "name"), [("SigtermAgent", 143, "SIGTERM"), ("SigintAgent", 130, "SIGINT")]
)
def test_a_signal_mid_run_exits_128_plus_its_number_with_one_line(
    project: Path, agent: str, code: int, name: str
) -> None:
    """The agent of trial 1 has the process signalled (as a cancelled CI job or Ctrl-C would): the
    process ends with the shell's code for that signal, says so on one line with the exact resume
    command, keeps trial 0 and records trial 1, in progress, as interrupted (resumable)."""
    out = project / "runs" / "stopped"
    spec = f"tests.support.agents:{agent}"
    ran = process(["run", "--agent", spec, "--trials", "3", "--concurrency", "1", "--out", str(out)], project)
    assert ran.returncode == code, ran.stderr
    said = [line for line in ran.stderr.splitlines() if line.startswith("interrupted")]
    assert said == [said[0]] and f"interrupted ({name})" in said[0] and "Traceback" not in ran.stderr
    assert f"  evals run --resume {out}\n" in ran.stderr and "trial-run#1" in said[0]
    records = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    assert [(r["trial"], r["status"]) for r in records] == [(0, "ok"), (1, "error")]
    assert records[1]["error"].startswith("interrupted")
    again = process(["compare", "--run", str(out)], project)  # an interrupted run is never a verdict
    assert again.returncode == 3 and "no record for trial-run trial(s) 2" in again.stderr


def interrupted_run(project: Path, agent: str, env: dict[str, str]) -> subprocess.Popen[str]:
    """A run of two trials at once whose agents both say they started, then hang: the moment Ctrl-C
    finds trials in progress (signalled after those lines, never after a delay)."""
    out = project / "runs" / "ctrl-c"
    args = ["run", "--agent", f"tests.support.agents:{agent}", "--trials", "2", "--concurrency", "2"]
    child = subprocess.Popen(
        [sys.executable, "-m", "evals", *args, "--out", str(out)],
        cwd=project,
        env={**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "200", **env},
        text=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert child.stdout is not None
    started = 0
    for line in child.stdout:
        started += line.startswith("agent started trial")
        if started == 2:
            return child
    raise AssertionError(f"the agents never started: {child.wait()}")


def test_ctrl_c_records_the_trials_in_progress_and_names_the_folder_to_resume(project: Path) -> None:
    child = interrupted_run(project, "HangingAgent", {})
    child.send_signal(signal.SIGINT)
    _, err = child.communicate(timeout=120)  # a safety net: the run ends on its own, far sooner
    out = project / "runs" / "ctrl-c"
    assert child.returncode == 130, err
    assert f"Finish the run with:\n  evals run --resume {out}\n" in err and "Traceback" not in err
    records = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    assert sorted((r["trial"], r["status"]) for r in records) == [(0, "error"), (1, "error")]
    assert all(r["error"].startswith("interrupted") for r in records)


def test_a_second_ctrl_c_stops_at_once_whatever_still_runs(project: Path) -> None:
    """The agents ignore being cancelled and the grace period is long: only the second Ctrl-C ends it."""
    child = interrupted_run(project, "StubbornAgent", {"EVALS_INTERRUPT_GRACE_S": "600"})
    child.send_signal(signal.SIGINT)
    assert child.stderr is not None
    for line in child.stderr:
        if line.startswith("  evals run --resume"):
            break
    child.send_signal(signal.SIGINT)
    _, err = child.communicate(timeout=120)
    assert child.returncode == 130 and "interrupted again: stopping at once" in err
    records = (project / "runs" / "ctrl-c" / "results.jsonl").read_text().splitlines()
    assert sorted(json.loads(line)["trial"] for line in records) == [0, 1]
