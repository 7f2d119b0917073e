"""Layer-1 checks of the trial run: a realistic wrong fix fails, equivalent right fixes pass."""

from __future__ import annotations

import pytest

from evals.grade.checks import VOCABULARY
from evals.grade.checks.python import assigned_value
from evals.grade.registry import GradeContext
from evals.scenario.load import load_scenario
from evals.scenario.model import Scenario
from evals.world.outcome import Outcome
from evals.world.sandbox.seed import seed
from evals.world.sandbox.snapshot import outcome
from tests.support.boards import set_value
from tests.support.paths import ROOT
from tests.support.project import add_pr

CHECKS = VOCABULARY.checks
CLASSIFIER = "src/moderation/classifier.py"


@pytest.fixture(scope="module")
def scenario() -> Scenario:
    return load_scenario(ROOT / "scenario", "trial-run")


def with_pr(scenario: Scenario, changes: dict[str, str]) -> GradeContext:
    """The seeded outcome plus one PR whose head has `changes` applied."""
    snap: Outcome = outcome(seed(scenario, 0))
    add_pr(snap, changes, title="fix")
    return GradeContext(outcome=snap, scenario=scenario)


def classifier_with(scenario: Scenario, line: str) -> str:
    return scenario.files[CLASSIFIER].replace("FLAG_THRESHOLD = 0.70", line)


@pytest.mark.parametrize(
    "line", ["FLAG_THRESHOLD = 0.85", "FLAG_THRESHOLD: float = 0.850", "FLAG_THRESHOLD=.85"]
)
def test_threshold_passes_in_equivalent_forms(scenario: Scenario, line: str) -> None:
    ctx = with_pr(scenario, {CLASSIFIER: classifier_with(scenario, line)})
    assert CHECKS["python.constant_equals"](ctx, path=CLASSIFIER, name="FLAG_THRESHOLD", value=0.85).passed


@pytest.mark.parametrize(
    "line", ["FLAG_THRESHOLD = 0.80", "FLAG_THRESHOLD = 0.85 + 0.01", "THRESHOLD = 0.85"]
)
def test_threshold_fails_on_wrong_fixes(scenario: Scenario, line: str) -> None:
    ctx = with_pr(scenario, {CLASSIFIER: classifier_with(scenario, line)})
    assert not CHECKS["python.constant_equals"](
        ctx, path=CLASSIFIER, name="FLAG_THRESHOLD", value=0.85
    ).passed


def test_threshold_fails_when_no_pr_was_opened(scenario: Scenario) -> None:
    ctx = GradeContext(outcome=outcome(seed(scenario, 0)), scenario=scenario)
    result = CHECKS["python.constant_equals"](ctx, path=CLASSIFIER, name="FLAG_THRESHOLD", value=0.85)
    assert not result.passed and "no pull request" in result.detail


def test_assigned_value_takes_the_last_assignment() -> None:
    assert assigned_value("X = 1\nX = 2\n", "X") == 2


TEST_078 = (
    "from moderation.classifier import is_flagged\n\ndef test_078():\n    assert not is_flagged(0.78)\n"
)
TEST_078_USELESS = "def test_078():\n    assert 0.78 < 1\n"


def test_regression_test_passes_when_it_catches_the_bug(scenario: Scenario) -> None:
    ctx = with_pr(
        scenario,
        {
            CLASSIFIER: classifier_with(scenario, "FLAG_THRESHOLD = 0.85"),
            "tests/test_borderline.py": TEST_078,
        },
    )
    result = CHECKS["python.regression_test_fails_on_seed"](ctx, tests_dir="tests", value=0.78)
    assert result.passed, result.detail


def test_regression_test_that_passes_on_the_bug_too_tests_nothing(scenario: Scenario) -> None:
    ctx = with_pr(
        scenario,
        {
            CLASSIFIER: classifier_with(scenario, "FLAG_THRESHOLD = 0.85"),
            "tests/test_borderline.py": TEST_078_USELESS,
        },
    )
    result = CHECKS["python.regression_test_fails_on_seed"](ctx, tests_dir="tests", value=0.78)
    assert not result.passed and "tests nothing" in result.detail


def test_regression_test_failing_on_the_agents_own_code_fails(scenario: Scenario) -> None:
    ctx = with_pr(
        scenario,
        {
            CLASSIFIER: classifier_with(scenario, "FLAG_THRESHOLD = 0.75"),
            "tests/test_borderline.py": TEST_078,
        },
    )
    assert not CHECKS["python.regression_test_fails_on_seed"](ctx, tests_dir="tests", value=0.78).passed


def test_sprint_row_appended_below_instead_of_updated_fails(scenario: Scenario) -> None:
    world = seed(scenario, 0)
    page = next(p for p in world.notion.pages if p.key == "sprint4")
    from evals.world.outcome import Block

    page.blocks.append(
        Block(
            id="new", type="paragraph", text="#131 Fix moderation false positives: Done", created_by="agent"
        )
    )
    ctx = GradeContext(outcome=outcome(world), scenario=scenario)
    result = CHECKS["notion.table_cell_starts_with"](
        ctx, page="sprint4", row="131", column="Status", equals="Done"
    )
    assert not result.passed and "appended text" in result.detail


def test_sprint_row_updated_in_place_passes(scenario: Scenario) -> None:
    world = seed(scenario, 0)
    set_value(world, "sprint4", "board", "131", "Status", "done")
    ctx = GradeContext(outcome=outcome(world), scenario=scenario)
    assert CHECKS["notion.table_cell_starts_with"](
        ctx, page="sprint4", row="131", column="Status", equals="Done"
    ).passed
