"""In GitHub Actions the verdict also reaches the job summary and the run's annotations."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from evals.gate.fingerprint import differences
from evals.gate.verdict import Verdict
from evals.report.job_summary import publish


def test_an_inconclusive_drop_is_a_warning_and_notices_are_notices(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    summary = tmp_path / "summary.md"
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    gate = Verdict(
        verdict="inconclusive", reasons=["total 17 vs baseline 18.3\n(50% off)"], notices=["k=15 of 15"]
    )
    out = io.StringIO()
    publish("the report", gate, out)
    lines = out.getvalue().splitlines()
    assert lines == [
        "::warning title=Agent evals - inconclusive::total 17 vs baseline 18.3%0A(50%25 off)",
        "::notice title=Agent evals::k=15 of 15",
    ]
    assert summary.read_text(encoding="utf-8") == "the report\n"


def test_a_pass_adds_no_error_annotation(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(tmp_path / "summary.md"))
    out = io.StringIO()
    publish("ok", Verdict(verdict="pass"), out)
    assert out.getvalue() == ""


def test_differences_name_the_judge_model_the_rubric_and_the_data_files() -> None:
    old = {
        "judge_model": "claude-haiku-4-5",
        "scenarios": {
            "nightshift": {
                "data": "1",
                "data_files": {"emails.yaml": "a", "notion.yaml": "b"},
                "rubric": "r1",
                "judge_prompts": {"judge/C13.md": "p"},
            }
        },
    }
    new = {
        "judge_model": "claude-sonnet-4-5",
        "scenarios": {
            "nightshift": {
                "data": "2",
                "data_files": {"emails.yaml": "a", "notion.yaml": "c"},
                "rubric": "r2",
                "judge_prompts": {"judge/C13.md": "p"},
            }
        },
    }
    assert differences(old, new) == [
        "judge model claude-haiku-4-5 -> claude-sonnet-4-5",
        "nightshift: rubric.yaml changed",
        "nightshift: scenario data changed (notion.yaml)",
    ]
    assert differences(old, old) == []


def test_a_step_that_opts_out_writes_no_summary_and_no_annotations(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    summary = tmp_path / "summary.md"
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    monkeypatch.setenv("EVALS_JOB_SUMMARY", "0")
    out = io.StringIO()
    publish("the report", Verdict(verdict="regression", reasons=["dropped"]), out)
    assert out.getvalue() == "" and not summary.exists()


def test_the_story_is_annotated_before_the_statistics_one_per_fallen_part(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(tmp_path / "summary.md"))
    out = io.StringIO()
    story = [
        ("C1 fell: buffer_size, = 2048", "expected 2048, found 1024, in 6 of 6 trials (viewer.html#n/0/C1)")
    ]
    publish("r", Verdict(verdict="regression", reasons=["p = 0.01"]), out, story=story)
    assert out.getvalue().splitlines() == [
        "::error title=Agent evals - C1 fell%3A buffer_size%2C = 2048::"
        "expected 2048, found 1024, in 6 of 6 trials (viewer.html#n/0/C1)",
        "::error title=Agent evals - regression::p = 0.01",
    ]
