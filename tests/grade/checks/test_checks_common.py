"""`at_some_changed_head`: the one loop behind every "fixed in some PR, or on main" check."""

from __future__ import annotations

import pytest

from evals.grade.checks.common import at_some_changed_head
from evals.grade.registry import CheckResult
from evals.scenario.load import load_scenario
from evals.world.outcome import Outcome
from evals.world.sandbox.seed import seed
from evals.world.sandbox.snapshot import outcome
from tests.support.paths import ROOT
from tests.support.project import add_pr

PATH = "k8s/deployments/hydra-pipeline.yaml"


@pytest.fixture
def snap() -> Outcome:
    return outcome(seed(load_scenario(ROOT / "scenario", "nightshift"), 0))


def test_no_head_that_changed_the_file_says_so(snap: Outcome) -> None:
    add_pr(snap, {"README.md": "other\n"})
    looked: list[str] = []

    def look(label: str, files: dict[str, str]) -> CheckResult:
        looked.append(label)
        return CheckResult(True, label)

    result = at_some_changed_head(snap, PATH, look)
    assert result == CheckResult(False, f"no pull request or push changed {PATH}") and looked == []


def test_the_first_head_that_passes_decides_and_later_heads_are_not_looked_at(snap: Outcome) -> None:
    for number, text in enumerate(["bad\n", "good\n", "good too\n"], start=1):
        add_pr(snap, {PATH: text}, number=number)
    looked: list[str] = []

    def look(label: str, files: dict[str, str]) -> CheckResult:
        looked.append(label)
        return CheckResult(files[PATH].startswith("good"), f"{label}: {files[PATH].strip()}", label)

    result = at_some_changed_head(snap, PATH, look, expected="good")
    assert result.passed and result.detail == f"{looked[1]}: good" and result.evidence == looked[1]
    assert len(looked) == 2


def test_when_no_head_passes_every_head_is_reported_after_what_was_expected(snap: Outcome) -> None:
    for number, text in enumerate(["bad\n", "worse\n"], start=1):
        add_pr(snap, {PATH: text}, number=number)

    def look(label: str, files: dict[str, str]) -> CheckResult:
        return CheckResult(False, f"{label}: {files[PATH].strip()}", f"evidence of {label}")

    result = at_some_changed_head(snap, PATH, look, expected="good")
    first, second = [label for label, files in snap.repos[0].heads() if PATH in files and label != "main"]
    expected = CheckResult(False, f"expected good; {first}: bad; {second}: worse", f"evidence of {second}")
    assert result == expected
    assert at_some_changed_head(snap, PATH, look).detail == f"{first}: bad; {second}: worse"
