"""The documentation's command table is what the CLI has: every command in it answers `--help`, and
every option the row shows is one that command's help lists. The table and most commands shown live
on docs/ pages; the quickstart and the exit codes in README.md (tests/support/docs.py reads both)."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest

from evals.cli import main
from tests.support.docs import documentation, readme
from tests.support.paths import ROOT

README = readme()
DOCUMENTATION = documentation()  # README.md and every docs/ page
ROWS = re.findall(r"^\| `(?:python -m )?evals ([^`]*)` \|", DOCUMENTATION, flags=re.MULTILINE)


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
def test_every_command_in_the_table_answers_help_with_its_options(
    usage: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "400")
    words, options = words_and_options(usage)
    capsys.readouterr()
    assert main([*words, "--help"]) == 0, usage
    shown = capsys.readouterr().out
    missing = [option for option in options if option not in shown]
    assert missing == [], usage


def test_every_stage_script_the_documentation_names_exists() -> None:
    scripts = set(re.findall(r"`(scripts/[\w.]+)`", DOCUMENTATION))
    assert scripts and [s for s in scripts if not (ROOT / s).is_file()] == []


# --- every command the documentation shows, wherever it shows it (issue #29) --------------------

PREFIXES = ("python -m evals ", ".venv/bin/evals ", "evals ")


def shown_commands() -> list[str]:
    """Every `evals …` command in the code blocks and code spans of README.md and the docs/ pages,
    and those inside `make run ARGS="…"`, as the words after `evals`."""
    found = []
    blocks = re.findall(r"^```[a-z]*\n(.*?)^```", DOCUMENTATION, flags=re.MULTILINE | re.DOTALL)
    lines = [line for block in blocks for line in block.splitlines()]
    prose = re.sub(r"^```.*?^```", "", DOCUMENTATION, flags=re.MULTILINE | re.DOTALL)
    spans = re.findall(r"`([^`\n]+)`", prose)
    for text in [*lines, *spans]:
        text = text.split("  #", 1)[0].split(" # ", 1)[0].strip()
        make = re.match(r'make run ARGS="([^"]*)"', text)
        if make:
            found.append("run " + make.group(1))
            continue
        for prefix in PREFIXES:
            if text.startswith(prefix):
                found.append(text[len(prefix) :])
                break
    return found


def parse_problem(words: list[str]) -> str | None:
    """What the real parser says is wrong with the command's words, if it is an unknown command or
    option (a placeholder where a number goes, or an option left out, is not the documentation's fault)."""
    import argparse

    from evals.cli import build_parser

    said: list[str] = []

    def error(self: argparse.ArgumentParser, message: str) -> None:
        said.append(message)
        raise SystemExit(2)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(argparse.ArgumentParser, "error", error)
        notes = io.StringIO()
        with contextlib.suppress(SystemExit), contextlib.redirect_stderr(notes):
            build_parser().parse_args(words)
    said += [line for line in notes.getvalue().splitlines() if "is now" in line]  # an old spelling
    placeholder = re.compile(r"invalid choice: '[A-Z]+'")  # `evals COMMAND --help`, `--state S`
    wrong = [
        m
        for m in said
        if "unrecognized arguments" in m
        or "is now" in m
        or ("invalid choice" in m and not placeholder.search(m))
    ]
    return wrong[0] if wrong else None


def words_of(command: str) -> list[str]:
    """The words a usage line stands for: optional groups opened, the first of alternatives
    (`[--scenario S | --suite NAME]`, `L1|L2|L3`), cut at a shell pipe, `$(ARGS)` and `...` left out."""
    words: list[str] = []
    depth, skipping = 0, False
    for token in command.replace("\\|", "|").split():
        core = token.strip("[]")
        if core == "|":
            if depth == 0:
                break  # a shell pipe: what follows is another program
            skipping = True  # an alternative: the first one stands for the group
        elif core and core not in ("...", "…") and not core.startswith("$") and not skipping:
            words.append(core.split("|")[0])
        depth += token.count("[") - token.count("]")
        if depth == 0:
            skipping = False
    return words


def test_the_documentation_shows_commands_in_many_places() -> None:
    assert len(shown_commands()) >= 40


@pytest.mark.parametrize("command", sorted(set(shown_commands())))
def test_every_command_the_documentation_shows_is_one_the_cli_takes(command: str) -> None:
    assert parse_problem(words_of(command)) is None, command


def test_the_quickstart_comes_first_and_is_short() -> None:
    sections = re.findall(r"^## (.+)$", README, flags=re.MULTILINE)
    assert sections[:3] == ["Quickstart", "Exit codes", "Two commands"]
    quickstart = README.split("## Quickstart\n", 1)[1].split("\n## ", 1)[0]
    assert len(quickstart.strip().splitlines()) <= 40
    for needed in (
        "make run",
        "make test",
        "Verdict:",
        "--agent my_agent:agent",
        "Install in your repository",
    ):
        assert needed in quickstart, needed


def test_the_exit_code_table_has_every_code() -> None:
    table = README.split("## Exit codes\n", 1)[1].split("\n## ", 1)[0]
    codes = re.findall(r"^\| ([\d, ]+) \|", table, flags=re.MULTILINE)
    assert codes == ["0", "1", "2", "3", "4", "130, 143", "141"]


def test_the_quickstart_example_of_a_failing_gate_fails(
    project: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """`.venv/bin/evals run --scenario nightshift --agent replay:pre-automation` exits 1, as it says,
    and every surface of that regression (console, annotations, job summary) names the concrete
    failure of the largest fallen part before any statistic (#40)."""
    quickstart = README.split("## Quickstart\n", 1)[1].split("\n## ", 1)[0]
    example = re.search(r"`\.venv/bin/evals run ([^`]*)`", quickstart.split("(exit 1)")[1].split("\n\n")[0])
    assert example is not None
    job_summary = tmp_path / "job-summary.md"
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(job_summary))
    assert main(["run", *example.group(1).split()]) == 1
    out = capsys.readouterr().out.splitlines()
    # annotations: one per fallen part, the largest first, with its failure; the statistics after
    notes = [line for line in out if line.startswith("::error ")]
    assert notes[0].startswith("::error title=Agent evals - C5 fell%3A SEC-004")
    assert "the secret is still in main" in notes[0]
    stats = [i for i, n in enumerate(notes) if n.startswith("::error title=Agent evals - regression::")]
    assert stats and all("fell" in n for n in notes[: min(stats)]) and "CI" not in notes[0]
    told = [n for n in notes if "fell%3A" in n]  # at most six, then how many more: room for the reasons
    assert len(told) == 6 and "more parts fell" in notes[6] and len(notes) <= 10
    # the job summary: the report, its story before the gate's reasoning
    summary = job_summary.read_text(encoding="utf-8")
    assert summary.index("the secret is still in main") < summary.index("How the gate decided")
    # the console: the verdict, then the largest fallen part's concrete failure
    verdict = next(i for i, line in enumerate(out) if line.startswith("Verdict: regression"))
    first = out[verdict : verdict + 5]
    story = next(i for i, line in enumerate(first) if "the secret is still in main" in line)
    assert "C5 SEC-004" in first[story] and "in 1 of 1 trials" in first[story]
    assert not any("p = " in line or " CI " in line for line in first[: story + 1])


def test_the_documented_counts_of_baseline_tasks_and_expect_lost_hold() -> None:
    """README: the committed baseline holds every task; docs/scenarios.md: every wrong replay declares
    `expect_lost`, and 25 of the 27 references leave it out (#40: the docs said every replay did)."""
    import json

    tasks = sorted(p.parent.name for p in (ROOT / "scenario").glob("*/scenario.yaml"))
    baseline = json.loads((ROOT / "baseline" / "baseline.json").read_text(encoding="utf-8"))
    assert sorted(baseline["scenarios"]) == tasks and f"holds all {len(tasks)} tasks" in README
    declares = re.compile(r"^expect_lost:", re.MULTILINE)  # a top-level key (replays hold placeholders)
    replays = {p: p.read_text(encoding="utf-8") for p in ROOT.glob("scenario/*/replays/*.yaml")}
    wrong = [p for p in replays if p.name != "reference.yaml"]
    assert wrong and all(declares.search(replays[p]) for p in wrong)
    bare = [p for p in replays if p.name == "reference.yaml" and not declares.search(replays[p])]
    said = f"({len(bare)} of\nthe {len(tasks)} do;"
    assert said in DOCUMENTATION, said
