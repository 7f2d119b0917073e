"""What a person who made a typo is told: where (file, line, column), what was meant (did you
mean), what to do next; and every option's help says its default as evals.yaml sets it."""

from __future__ import annotations

import argparse
import json
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


# --- error locations (issue #29): at the line of the file that holds the mistake ----------------


def test_a_rubric_cross_field_error_points_at_its_line(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rubric = project / "scenario" / "trial-run" / "rubric.yaml"
    rubric.write_text(rubric.read_text().replace("category: code", "category: kode", 1))
    err = error_of(capsys, ["run", "--scenario", "trial-run"])
    line = line_of(rubric, "category: kode")
    assert f"rubric.yaml:{line}:5: criteria.1.category:" in err and "unknown category 'kode'" in err
    assert "(top level)" not in err


def test_a_rubric_whose_points_do_not_add_up_points_at_max_points(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rubric = project / "scenario" / "trial-run" / "rubric.yaml"
    rubric.write_text(rubric.read_text().replace("max_points: 7", "max_points: 8"))
    err = error_of(capsys, ["run", "--scenario", "trial-run"])
    assert f"rubric.yaml:{line_of(rubric, 'max_points: 8')}:" in err and "add up to 7" in err


def test_an_unknown_check_names_its_rubric_line_and_the_check_meant(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rubric = project / "scenario" / "trial-run" / "rubric.yaml"
    rubric.write_text(rubric.read_text().replace("mail.links_pull_request", "mail.link_pull_request", 1))
    err = error_of(capsys, ["run", "--scenario", "trial-run"])
    assert f"rubric.yaml:{line_of(rubric, 'mail.link_pull_request')}:" in err
    assert "unknown check 'mail.link_pull_request'; did you mean mail.links_pull_request?" in err


def test_a_suite_member_typo_points_at_its_evals_yaml_line(
    full_project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = full_project / "evals.yaml"
    config.write_text(config.read_text().replace("    - board-move", "    - bord-move", 1))
    err = error_of(capsys, ["scenarios", "--names"])
    assert f"evals.yaml:{line_of(config, 'bord-move')}:7: suites.smoke: no scenario 'bord-move'" in err
    assert "did you mean board-move?" in err and "scenario.yaml" not in err


def test_a_suite_name_typo_points_at_the_suite_line(
    full_project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = full_project / "evals.yaml"
    config.write_text(config.read_text().replace("suite: smoke", "suite: smok", 1))
    err = error_of(capsys, ["scenarios"])
    assert f"evals.yaml:{line_of(config, 'suite: smok')}:1: suite: 'smok' is not a suite" in err
    assert "did you mean smoke?" in err


def test_an_unknown_key_is_not_preceded_by_a_misleading_field_required(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = project / "evals.yaml"
    config.write_text(config.read_text().replace("\ntrials:", "\ntrails:"))
    err = error_of(capsys, ["scenarios"])
    assert "trails: unknown key; did you mean trials?" in err
    assert "Field required" not in err


# --- help: what every command does, and defaults told truthfully --------------------------------


def test_every_command_help_says_what_it_does() -> None:
    bare = [name for name, parser in parsers(build_parser()) if not (parser.description or "").strip()]
    assert bare == []


def test_help_outside_a_project_never_invents_a_default(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("COLUMNS", "400")
    for name, _ in parsers(build_parser()):
        capsys.readouterr()
        assert main([*name.split()[1:], "--help"]) == 0, name
        shown = capsys.readouterr().out
        assert "Pydantic" not in shown and "Undefined" not in shown, name
    capsys.readouterr()
    main(["run", "--help"])
    assert "evals.yaml's trials; no evals.yaml here" in " ".join(capsys.readouterr().out.split())


# --- run --suite, --out and --run, default run directories ---------------------------------------


def test_run_suite_runs_that_suite(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = project / "evals.yaml"
    config.write_text(
        re.sub(r"(?m)^suites:.*$", "suites:\n  tiny: [reply-facts]", config.read_text(), count=1)
    )
    assert main(["run", "--suite", "tiny"]) == 0
    (run,) = (project / "runs").iterdir()
    assert run.name.endswith("-tiny") and json.loads((run / "run.json").read_text())["scenarios"] == [
        "reply-facts"
    ]
    assert "did you mean tiny?" in error_of(capsys, ["run", "--suite", "tine"])
    assert "one or the other" in error_of(capsys, ["run", "--suite", "tiny", "--scenario", "trial-run"])


def test_default_run_directories_are_short_and_unique(project: Path) -> None:
    from evals.core.config import load_config
    from evals.run.runner import new_run_dir, run_label

    config, root = load_config(project)
    full = config.suites["full"]
    assert run_label(config, full) == "full"
    assert run_label(config, [*full[1:], full[0]]) == f"{full[1]}+{len(full) - 1}"  # not a suite
    assert run_label(config, ["nightshift"]) == "nightshift"
    first, second = new_run_dir(root, config, full), new_run_dir(root, config, full)
    assert first != second and first.is_dir() and second.is_dir()
    assert len(first.name) < 40 and first.name.endswith("-full")
    assert second.name == f"{first.name}-2" or second.name.endswith("-full")  # the same second, or the next


def test_out_is_always_a_new_directory(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    taken = project / "runs" / "taken"
    taken.mkdir(parents=True)
    (taken / "notes.md").write_text("mine")
    err = error_of(capsys, ["run", "--out", str(taken)])
    assert "--out" in err and "new run" in err and (taken / "notes.md").read_text() == "mine"


def test_an_old_option_spelling_still_works_and_says_its_new_name(
    project: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert main(["run", "--out", str(project / "runs" / "r")]) == 0
    capsys.readouterr()
    out = tmp_path / "b.json"
    assert main(["baseline", "bless", "--run", str(project / "runs" / "r"), "--out", str(out)]) == 0
    assert "`--out` is now `--baseline`" in capsys.readouterr().err and out.is_file()


def test_an_email_from_an_unknown_persona_names_its_line(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    emails = project / "scenario" / "trial-run" / "emails.yaml"
    emails.write_text(emails.read_text().replace("from: dev", "from: deb", 1))
    err = error_of(capsys, ["run", "--scenario", "trial-run"])
    assert f"emails.yaml:{line_of(emails, 'from: deb')}:" in err and "did you mean dev?" in err
