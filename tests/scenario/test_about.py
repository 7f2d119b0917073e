"""about.yaml: a scenario's purpose, behaviour, tier and traps, shown by `evals scenarios` and kept out
of the fingerprint (editing it never makes a baseline not-comparable)."""

from __future__ import annotations

from pathlib import Path

import pytest

from evals.cli import main
from evals.core.config import load_config
from evals.definition import load_definition

ABOUT = """\
purpose: A reply that repeats a superseded value misleads the team that acts on it.
behaviour: Later mail corrects an earlier one, and the reply gives the corrected value
tier_why: L2 because the fix spans mail, code and the board
traps:
  - trap: the first mail's 0.70 looks authoritative
    source_of_truth: the spec page, which the second mail cites
    obvious_rule_loses: false
limitations: [a reply that never states a value is not graded on values]
"""


def test_the_listing_shows_the_behaviour_and_one_scenario_its_traps(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (project / "scenario" / "trial-run" / "about.yaml").write_text(ABOUT, encoding="utf-8")
    assert main(["scenarios"]) == 0
    listing = capsys.readouterr().out
    assert "Later mail corrects an earlier one" in listing
    assert main(["scenarios", "trial-run"]) == 0
    shown = capsys.readouterr().out
    assert "source of truth: the spec page" in shown and "limitation: a reply that never states" in shown


def test_a_bad_about_file_is_bad_input_naming_it(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (project / "scenario" / "trial-run" / "about.yaml").write_text(
        "purpose: x\nbehavior: y\n", encoding="utf-8"
    )
    assert main(["scenarios", "trial-run"]) == 2
    assert "about.yaml" in capsys.readouterr().err


def test_editing_it_leaves_the_fingerprint_alone(project: Path) -> None:
    config, root = load_config(project, None)
    before = load_definition(root, config, ["trial-run"]).fingerprint()
    (project / "scenario" / "trial-run" / "about.yaml").write_text(ABOUT, encoding="utf-8")
    assert load_definition(root, config, ["trial-run"]).fingerprint() == before
