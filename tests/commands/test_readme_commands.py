"""The README's command table is what the CLI has: every command in it answers `--help`, and every
option the row shows is one that command's help lists."""

from __future__ import annotations

import re

import pytest

from evals.cli import main
from tests.support.paths import ROOT

README = (ROOT / "README.md").read_text(encoding="utf-8")
ROWS = re.findall(r"^\| `(?:python -m )?evals ([^`]*)` \|", README, flags=re.MULTILINE)


def words_and_options(usage: str) -> tuple[list[str], list[str]]:
    """`bench gate [--runs N] [--seed S]` -> (["bench", "gate"], ["--runs", "--seed"])."""
    tokens = usage.split()
    words = []
    for token in tokens:
        if not re.fullmatch(r"[a-z][a-z-]*", token):
            break
        words.append(token)
    return words, re.findall(r"(?<![\w-])--[a-z][a-z-]*", usage)


def test_the_table_lists_the_commands() -> None:
    assert len(ROWS) >= 15
    assert {words_and_options(r)[0][0] for r in ROWS if words_and_options(r)[0]} >= {
        "run", "grade", "compare", "baseline", "merge", "github", "bench", "labels", "calibrate",
        "scenarios", "seed-inbox", "janitor",
    }  # fmt: skip


@pytest.mark.parametrize("usage", ROWS)
def test_every_command_in_the_readme_answers_help_with_its_options(
    usage: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "400")
    words, options = words_and_options(usage)
    capsys.readouterr()
    assert main([*words, "--help"]) == 0, usage
    shown = capsys.readouterr().out
    missing = [option for option in options if option not in shown]
    assert missing == [], usage


def test_every_stage_script_the_readme_names_exists() -> None:
    scripts = set(re.findall(r"`(scripts/[\w.]+)`", README))
    assert scripts and [s for s in scripts if not (ROOT / s).is_file()] == []
