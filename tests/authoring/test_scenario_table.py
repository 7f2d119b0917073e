"""The scenario table (docs/scenarios.md) is the data's: `evals scenarios --markdown` prints it from
each scenario's files and about.yaml, so a scenario added, renamed or re-pointed without its row fails
here."""

from __future__ import annotations

import pytest

from evals.cli import main
from tests.support.docs import page
from tests.support.paths import ROOT


def test_the_docs_table_is_what_scenarios_markdown_prints(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["scenarios", "--markdown", "--config", str(ROOT / "evals.yaml")]) == 0
    table = capsys.readouterr().out.strip()
    assert table in page("scenarios.md"), (
        "docs/scenarios.md's table differs: paste `python -m evals scenarios --markdown`"
    )


def test_every_scenario_has_a_row_and_at_least_twenty_distinct_behaviours(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["scenarios", "--markdown", "--config", str(ROOT / "evals.yaml")]) == 0
    rows = [line.split(" | ") for line in capsys.readouterr().out.splitlines()[2:]]
    folders = sorted(p.name for p in (ROOT / "scenario").iterdir() if (p / "scenario.yaml").is_file())
    assert sorted(r[0].strip("| `") for r in rows) == folders
    behaviours = [r[4] for r in rows]
    assert len(set(behaviours)) == len(behaviours) >= 20
    assert sum(r[5].strip(" |") == "yes" for r in rows) >= 3  # the obvious rule loses somewhere
