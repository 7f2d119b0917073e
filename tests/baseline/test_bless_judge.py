"""`baseline bless` and the judge's record: a model-judged run is blessed only under a judge measured
against people, except in a project that never measured its judge at all (a new adopter: a warning).

Each test makes one model-judged run of the trial run against the stub Messages server (the judge
agrees with every part), then blesses it beside a judge.jsonl written for the case.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from evals.cli import main
from evals.gate.agreement import measure
from evals.gate.judge_record import JudgeCheck, JudgeIdentity, append_judge_check, identity_of
from tests.support.judge import judge_server, run, verdict

GOOD = [(1, 1)] * 40 + [(0, 0)] * 10 + [(1, 0)] * 2


@pytest.fixture
def judged(project: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    out = project / "runs" / "judged"
    with judge_server(monkeypatch, lambda part: verdict(1)):
        assert run(out) == 0
    monkeypatch.delenv("ANTHROPIC_API_KEY")  # blessing reads what the run stored; it asks nothing
    return out


def record(project: Path, judge: JudgeIdentity) -> None:
    overall = measure(GOOD, [0, 1], resamples=200)
    append_judge_check(
        project / "baseline" / "judge.jsonl",
        JudgeCheck(
            recorded="2026-12-01T03:00:00Z",
            source="the bundled replays",
            judge=judge,
            min_agreement=0.8,
            overall=overall,
            criteria={},
        ),
    )


def judge_of(out: Path) -> JudgeIdentity:
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    return identity_of(summary["fingerprint"])


def bless(out: Path) -> int:
    return main(["baseline", "bless", "--run", str(out), "--force"])


def test_a_project_that_never_measured_its_judge_is_warned_not_refused(
    project: Path, judged: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert not (project / "baseline" / "judge.jsonl").exists()
    assert bless(judged) == 0
    assert "warning: the judge's agreement with people was never measured" in capsys.readouterr().out
    assert (project / "baseline" / "baseline.json").is_file()


def test_once_the_project_measures_its_judge_a_judge_never_measured_is_refused_with_what_to_run(
    project: Path, judged: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The record measured the same model on another task's prompts only (the nightly's suite):
    no prompt of this run changed from it, but this run's prompts were never measured at all."""
    own = judge_of(judged)
    assert own.prompts  # the trial run has judge prompts: T1b's and T5's
    record(project, JudgeIdentity(model=own.model, prompts={"nightshift/judge/C16.md": "c" * 64}))
    assert bless(judged) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1
    assert "not blessing a model-judged run: this judge was never measured as a whole (judge prompt " in err
    assert "trial-run/judge/" in err and "evals judge agreement --record" in err
    assert not (project / "baseline" / "baseline.json").exists()  # nothing written

    # measured as this judge (model and every prompt), the same run is blessed without a warning
    record(project, own)
    assert bless(judged) == 0
    assert "warning" not in capsys.readouterr().out


def test_a_record_of_another_model_refuses_the_bless(
    project: Path, judged: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    own = judge_of(judged)
    record(project, JudgeIdentity(model="claude-other-judge", prompts=own.prompts))
    assert bless(judged) == 2
    assert "judge model claude-other-judge → " in capsys.readouterr().err
