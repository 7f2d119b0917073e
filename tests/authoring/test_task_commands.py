"""Scenario metadata and the scenario-writing commands: `scenarios`, `check-scenario`, `new-scenario`.

Each test works in a throwaway copy of the project (the `project` fixture) and edits it to show one
behaviour: a derived tier or service list, a suite named in evals.yaml, a scaffold that check-scenario
explains, a wrong replay that does not lose what it promised, bad data that exits 2 naming the file.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from evals.cli import main
from evals.core.config import load_config
from evals.scenario.load import load_scenario


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def _row(out: str, task: str) -> list[str]:
    line = next(line for line in out.splitlines() if line.startswith(task + " "))
    return line.split()


def test_scenarios_lists_tier_services_and_points(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["scenarios"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0].split()[:5] == ["scenario", "tier", "services", "points", "suites"]
    assert _row(out, "trial-run")[1:4] == ["L2", "gmail,github,notion", "7"]
    assert _row(out, "nightshift")[1:4] == ["L3", "gmail,github,notion", "25"]


def test_services_derive_from_expected_tools_and_a_stated_tier_wins(project: Path) -> None:
    meta = project / "scenario" / "trial-run" / "scenario.yaml"
    text = meta.read_text(encoding="utf-8")
    text = re.sub(r"expected_tools:\n(  - .*\n)+", "expected_tools: [GITHUB_CREATE_A_PULL_REQUEST]\n", text)
    meta.write_text(text + "tier: L3\n", encoding="utf-8")
    scenario = load_scenario(project / "scenario", "trial-run")
    assert scenario.used_services() == ["github"]
    assert scenario.task_tier() == "L3"
    meta.write_text(text + "services: [notion, gmail]\n", encoding="utf-8")
    scenario = load_scenario(project / "scenario", "trial-run")
    assert scenario.used_services() == ["gmail", "notion"]  # canonical order
    assert scenario.task_tier() == "L2"  # derived: one persona, two services


def test_a_bad_tier_exits_2_naming_file_and_field(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    meta = project / "scenario" / "trial-run" / "scenario.yaml"
    meta.write_text(meta.read_text(encoding="utf-8") + "tier: L9\n", encoding="utf-8")
    assert main(["scenarios"]) == 2
    err = capsys.readouterr().err
    assert "trial-run/scenario.yaml" in err and "tier" in err


def test_suite_may_name_a_suite_and_scenarios_lists_its_members(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cfg = project / "evals.yaml"
    text = re.sub(r"^suite: .*$", "suite: pair", cfg.read_text(encoding="utf-8"), flags=re.MULTILINE)
    text = re.sub(r"^suites:.*\n", "\\g<0>  pair: [nightshift]\n", text, count=1, flags=re.MULTILINE)
    cfg.write_text(text, encoding="utf-8")
    config, _ = load_config(project)
    assert config.suite == ["nightshift"]
    assert main(["scenarios", "--suite", "pair", "--names"]) == 0
    assert capsys.readouterr().out.split() == ["nightshift"]
    assert main(["scenarios", "--suite", "nope"]) == 2
    assert "no suite 'nope'" in capsys.readouterr().err
    cfg.write_text(text.replace("suite: pair", "suite: missing"), encoding="utf-8")
    assert main(["scenarios"]) == 2
    assert "evals.yaml" in capsys.readouterr().err


def test_new_task_scaffolds_a_folder_that_check_task_explains(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["new-scenario", "reply-drill"]) == 0
    folder = project / "scenario" / "reply-drill"
    for rel in (
        "scenario.yaml",
        "prompts/system.md",
        "prompts/task.md",
        "emails.yaml",
        "notion.yaml",
        "repo/README.md",
        "rubric.yaml",
        "replays/reference.yaml",
    ):
        assert (folder / rel).is_file(), rel
    assert yaml.safe_load((folder / "replays" / "reference.yaml").read_text())["steps"] == []
    capsys.readouterr()
    assert main(["check-scenario", "reply-drill"]) == 2  # problems in the scenario: bad input
    out = capsys.readouterr().out
    assert "reference: R1 scored 0/1 (the reference must score full marks)" in out
    assert "no mail sent to jordan.park@acme.example" in out
    assert "no wrong replay" in out
    assert main(["new-scenario", "reply-drill"]) == 2  # exists
    assert main(["new-scenario", "Bad_Name"]) == 2


def undeclare(replay: Path) -> str:
    """The replay fixture without its `expect_lost` declaration (and its comment line)."""
    kept = [
        line
        for line in replay.read_text(encoding="utf-8").splitlines(keepends=True)
        if not line.startswith(("expect_lost:", "# What this replay must lose"))
    ]
    replay.write_text("".join(kept), encoding="utf-8")
    return "".join(kept)


def test_check_task_passes_the_trial_run_and_shows_what_an_undeclared_replay_loses(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    undeclare(project / "scenario" / "trial-run" / "replays" / "regressed.yaml")
    assert main(["check-scenario", "trial-run"]) == 0
    out = capsys.readouterr().out
    assert "reference: 7/7" in out
    assert "regressed: 2/7, lost T1b, T3a, T3b, T4, T5 (5 points)" in out
    assert "expect_lost: [T1b, T3a, T3b, T4, T5]" in out


def test_a_wrong_replay_must_lose_exactly_the_parts_it_names(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    replay = project / "scenario" / "trial-run" / "replays" / "regressed.yaml"
    original = undeclare(replay)
    replay.write_text(original + "expect_lost: [T1b, T3a, T3b, T4, T5]\n", encoding="utf-8")
    assert main(["check-scenario", "trial-run"]) == 0
    capsys.readouterr()
    replay.write_text(original + "expect_lost: [T1a, T3a, T3b, T4, T5]\n", encoding="utf-8")
    assert main(["check-scenario", "trial-run"]) == 2  # problems in the scenario: bad input
    out = capsys.readouterr().out
    assert "regressed: T1a scored full marks, but expect_lost says it is lost" in out
    assert "regressed: T1b scored 0/1 (not in expect_lost)" in out


def test_check_task_rejects_bad_data_naming_file_and_field(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = project / "scenario" / "trial-run"
    replay = folder / "replays" / "regressed.yaml"
    replay.write_text(replay.read_text(encoding="utf-8") + "expect_lost: [T99]\n", encoding="utf-8")
    assert main(["check-scenario", "trial-run"]) == 2
    assert "regressed.yaml: expect_lost: not parts of rubric.yaml: T99" in capsys.readouterr().err
    replay.write_text("description: x\nsteps: []\nexpect_lost: T1a\n", encoding="utf-8")
    assert main(["check-scenario", "trial-run"]) == 2
    assert "regressed.yaml" in capsys.readouterr().err
    replay.unlink()
    _edit(folder / "labels.yaml", "part: T5", "part: T2")
    assert main(["check-scenario", "trial-run"]) == 2
    assert "labels.yaml: labels: part 'T2' is not a judged part" in capsys.readouterr().err
    (folder / "replays" / "reference.yaml").unlink()
    _edit(folder / "scenario.yaml", "offline_replays: [reference]", "offline_replays: [regressed2]")
    (folder / "replays" / "regressed2.yaml").write_text("description: x\nsteps: []\n", encoding="utf-8")
    _edit(folder / "labels.yaml", "part: T2", "part: T5")
    assert main(["check-scenario", "trial-run"]) == 2
    assert "reference.yaml: missing" in capsys.readouterr().err
    assert main(["check-task", "no-such-task"]) == 2


def test_the_old_command_names_still_work_and_say_where_they_went(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["check-task", "trial-run"]) == 0
    assert "note: `check-task` is now `check-scenario`" in capsys.readouterr().err
    assert main(["new-task", "old-name-drill"]) == 0
    assert "note: `new-task` is now `new-scenario`" in capsys.readouterr().err
