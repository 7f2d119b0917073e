"""What a person who made a typo is told: where (file, line, column), what was meant (did you
mean), what to do next; and every option's help says its default as evals.yaml sets it."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import pytest

from evals.cli import build_parser, main


def error_of(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    capsys.readouterr()
    assert main(argv) == 2
    return capsys.readouterr().err


def line_of(path: Path, text: str) -> int:
    return next(n for n, line in enumerate(path.read_text().splitlines(), 1) if text in line)


def test_a_scenario_typo_suggests_the_scenario(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    err = error_of(capsys, ["run", "--scenario", "trail-run"])
    assert "did you mean trial-run?" in err and "evals scenarios" in err


@pytest.mark.parametrize(
    ("agent", "meant"), [("claud", "claude"), ("atuo", "auto"), ("replay:refrence", "reference")]
)
def test_an_agent_or_replay_typo_suggests_the_name(
    project: Path, capsys: pytest.CaptureFixture[str], agent: str, meant: str
) -> None:
    err = error_of(capsys, ["run", "--scenario", "trial-run", "--agent", agent])
    assert f"did you mean {meant}?" in err


def test_a_config_key_typo_names_file_line_column_and_the_key_meant(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = project / "evals.yaml"
    text = config.read_text()
    config.write_text(text.replace("\ntrials:", "\ntrails:").replace("  confidence:", "  confidense:"))
    err = error_of(capsys, ["scenarios"])
    assert f"evals.yaml:{line_of(config, 'trails:')}:1: trails: unknown key; did you mean trials?" in err
    nested = line_of(config, "confidense:")
    assert f"evals.yaml:{nested}:3: gate.confidense: unknown key; did you mean confidence?" in err


def test_a_bad_config_value_and_a_yaml_syntax_error_name_the_line(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = project / "evals.yaml"
    original = config.read_text()
    config.write_text(re.sub(r"(?m)^trials: .*$", "trials: -1", original))
    assert f"evals.yaml:{line_of(config, 'trials: -1')}:1: trials:" in error_of(capsys, ["scenarios"])
    config.write_text(original + "suite: [a\n")
    err = error_of(capsys, ["scenarios"])
    assert re.search(rf"evals\.yaml:{len(original.splitlines()) + 2}:\d+: not valid YAML", err), err


def test_a_scenario_file_error_names_its_line(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = project / "scenario" / "trial-run" / "scenario.yaml"
    path.write_text(path.read_text() + "surprise: 1\n")
    err = error_of(capsys, ["run", "--scenario", "trial-run"])
    assert f"scenario.yaml:{line_of(path, 'surprise:')}:1: surprise:" in err


def test_a_folder_that_is_not_a_run_points_at_runs(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (project / "elsewhere").mkdir()
    for argv in (["compare", "--run", "elsewhere"], ["grade", "--run", "elsewhere"]):
        assert "runs/" in error_of(capsys, argv)


def parsers(
    parser: argparse.ArgumentParser, name: str = "evals"
) -> list[tuple[str, argparse.ArgumentParser]]:
    found = [(name, parser)]
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub_name, sub in action.choices.items():
                found += parsers(sub, f"{name} {sub_name}")
    return found


def test_every_option_of_every_command_has_help() -> None:
    missing = [
        f"{name} {action.option_strings or action.dest}"
        for name, parser in parsers(build_parser())
        for action in parser._actions
        if not isinstance(action, argparse._SubParsersAction) and not action.help
    ]
    assert missing == []


def test_help_shows_the_defaults_evals_yaml_sets(
    project: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "400")  # one line per option: nothing split at a hyphen
    config = project / "evals.yaml"
    config.write_text(re.sub(r"(?m)^trials: .*$", "trials: 5", config.read_text()))
    capsys.readouterr()
    assert main(["run", "--help"]) == 0
    shown = " ".join(capsys.readouterr().out.split())
    assert "(default: 5)" in shown and "gate.max_trials = 15" in shown  # the adaptive top-up
    assert "default: the suite, trial-run)" in shown  # the project's suite, as narrowed by the fixture
    assert "more than `max_error_share` = 0.5" in shown
