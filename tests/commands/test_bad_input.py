"""Bad input exits 2, names the file, and writes nothing."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from evals.cli import main


def _run(out: Path) -> int:
    return main(["run", "--scenario", "trial-run", "--agent", "replay:reference", "--out", str(out)])


def _assert_rejected(code: int, capsys: pytest.CaptureFixture[str], out: Path, names: str) -> None:
    assert code == 2
    assert names in capsys.readouterr().err
    assert not out.exists()


def test_a_config_value_out_of_range_names_file_and_field(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cfg = project / "evals.yaml"
    cfg.write_text(re.sub(r"^trials: \d+", "trials: 0", cfg.read_text(), flags=re.MULTILINE))
    code = _run(project / "runs" / "x")
    err = capsys.readouterr().err
    assert code == 2 and re.search(r"evals\.yaml:\d+:\d+: trials:", err)  # file, line, column, field
    assert not (project / "runs").exists()


def test_an_unknown_config_key_is_rejected(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cfg = project / "evals.yaml"
    cfg.write_text(cfg.read_text() + "threshhold: 3\n")
    _assert_rejected(_run(project / "runs" / "x"), capsys, project / "runs" / "x", "threshhold")


def test_malformed_yaml_in_a_scenario_file_names_it(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    emails = project / "scenario" / "trial-run" / "emails.yaml"
    emails.write_text("- id: e1\n  from: [unclosed\n")
    _assert_rejected(_run(project / "runs" / "x"), capsys, project / "runs" / "x", "emails.yaml")


def test_an_email_from_an_unknown_persona_is_rejected(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    emails = project / "scenario" / "trial-run" / "emails.yaml"
    emails.write_text(emails.read_text().replace("from: dev", "from: nobody"))
    _assert_rejected(_run(project / "runs" / "x"), capsys, project / "runs" / "x", "unknown persona")


def test_a_rubric_naming_an_unknown_check_is_rejected(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rubric = project / "scenario" / "trial-run" / "rubric.yaml"
    rubric.write_text(rubric.read_text().replace("repo.pull_request_opened", "repo.no_such_check"))
    _assert_rejected(_run(project / "runs" / "x"), capsys, project / "runs" / "x", "rubric.yaml")


def test_a_corrupt_baseline_is_bad_input_and_left_alone(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    baseline = project / "baseline" / "baseline.json"
    baseline.write_text("{not json")
    _assert_rejected(_run(project / "runs" / "x"), capsys, project / "runs" / "x", "baseline.json")
    assert baseline.read_text() == "{not json"


def test_an_unknown_scenario_lists_the_known_ones(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["run", "--scenario", "nope", "--out", str(project / "runs" / "x")])
    assert code == 2
    assert "trial-run" in capsys.readouterr().err


def test_an_unknown_replay_is_rejected_before_any_trial(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(
        ["run", "--scenario", "trial-run", "--agent", "replay:nope", "--out", str(project / "runs" / "x")]
    )
    _assert_rejected(code, capsys, project / "runs" / "x", "nope.yaml")


def test_an_existing_run_directory_is_not_overwritten(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = project / "runs" / "x"
    assert _run(out) == 0
    before = (out / "results.jsonl").read_text()
    assert _run(out) == 2
    assert (out / "results.jsonl").read_text() == before


def test_a_judge_prompt_without_a_version_is_rejected_before_the_run(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    prompt = project / "scenario" / "trial-run" / "judge" / "T5.md"
    prompt.write_text(re.sub(r"(?m)^version: \d+$", "owner: someone", prompt.read_text()))
    _assert_rejected(_run(project / "runs" / "x"), capsys, project / "runs" / "x", "T5.md")
