"""A forged run.json or results.jsonl reaches neither the log nor the comment as markup or commands.

The issue's attacks: a scenario name with newlines printed `::error` and `::add-mask` lines raw in
the verdict job's log; forged part ids and the commit field put links and an image into the comment.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from evals.cli import main


def made_run(project: Path) -> Path:
    out = project / "runs" / "r"
    main(
        ["run", "--scenario", "trial-run", "--agent", "replay:reference", "--trials", "1", "--out", str(out)]
    )
    return out


def verdict(run: Path, capsys: pytest.CaptureFixture[str]) -> tuple[str, str]:
    assert main(["github", "verdict", "--run", str(run)]) == 0  # the status is posted whatever it says
    captured = capsys.readouterr()
    return captured.out, captured.err


def no_command_lines(text: str) -> None:
    for line in text.splitlines():
        assert not line.lstrip().startswith("::"), line
        assert "##[" not in line, line


def test_a_scenario_name_carrying_workflow_commands_is_an_error_and_stays_inert(
    project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    run = made_run(project)
    meta = json.loads((run / "run.json").read_text(encoding="utf-8"))
    meta["scenarios"] = ["trial-run\n::add-mask::ghp_x\n::error title=pass::all good\n##[group]x"]
    (run / "run.json").write_text(json.dumps(meta), encoding="utf-8")
    monkeypatch.setenv("EVALS_SCENARIOS", "trial-run")
    out, err = verdict(run, capsys)
    assert "verdict=error" in out and "state=error" in out
    no_command_lines(out + err)
    report = (run / "report.md").read_text(encoding="utf-8")
    assert "Agent evals: **error**" in report and "\n::" not in report


@pytest.mark.parametrize(
    ("where", "forged"),
    [
        ("commit", "`](https://evil.example)<img src=x>"),
        ("part", "T1a](https://evil.example"),
        ("category", "<img src=x>"),
        ("trial_scenario", "trial-run [pass](https://evil.example)"),
    ],
)
def test_forged_names_in_a_runs_files_are_bad_input_never_markup(
    project: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    where: str,
    forged: str,
) -> None:
    run = made_run(project)
    meta_path, results = run / "run.json", run / "results.jsonl"
    meta = json.loads(meta_path.read_text(encoding="utf-8"))
    record = json.loads(results.read_text(encoding="utf-8").splitlines()[0])
    if where == "commit":
        meta["commit"] = forged
    elif where == "part":
        record["grade"]["parts"][0]["id"] = forged
    elif where == "category":
        record["grade"]["parts"][0]["category"] = forged
    else:
        record["scenario"] = forged
    meta_path.write_text(json.dumps(meta), encoding="utf-8")
    results.write_text(json.dumps(record) + "\n", encoding="utf-8")
    monkeypatch.setenv("EVALS_SCENARIOS", "trial-run")
    out, err = verdict(run, capsys)
    assert "verdict=error" in out
    report = (run / "report.md").read_text(encoding="utf-8")
    assert "](https://evil.example" not in report and "<img" not in report
    no_command_lines(out + err)
