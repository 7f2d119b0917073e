"""`python.repo_tests_pass`: the repository's own tests still pass at every head (pass-to-pass).

On constant-fix's billing repo: a head that fixes the rate keeps `tests/test_vat.py` green; a head that
also breaks negative-amount validation fails, named; an agent that "fixes" the failing test by editing
it still fails (the seeded test is put back); an agent that deletes the test fails; doing nothing fails.
"""

from __future__ import annotations

import pytest

from evals.grade.checks.python import repo_tests_pass
from evals.grade.registry import GradeContext
from evals.scenario.load import load_scenario
from evals.scenario.model import Scenario
from evals.world.outcome import Outcome
from evals.world.sandbox.seed import seed
from evals.world.sandbox.snapshot import outcome
from tests.support.paths import ROOT
from tests.support.project import add_pr

VAT = "src/billing/vat.py"
TEST = "tests/test_vat.py"


@pytest.fixture(scope="module")
def scenario() -> Scenario:
    return load_scenario(ROOT / "scenario", "constant-fix")


@pytest.fixture
def snap(scenario: Scenario) -> Outcome:
    return outcome(seed(scenario, 0))


def judge(snap: Outcome, scenario: Scenario) -> tuple[bool, str]:
    result = repo_tests_pass(GradeContext(outcome=snap, scenario=scenario))
    return result.passed, result.detail


def fixed(snap: Outcome) -> str:
    source = snap.repos[0].seed_files[VAT]
    return source.replace("VAT_RATE = ", "VAT_RATE = 0.21  # was ", 1)


def test_a_fix_that_keeps_the_tests_green_passes(snap: Outcome, scenario: Scenario) -> None:
    add_pr(snap, {VAT: fixed(snap)})
    passed, detail = judge(snap, scenario)
    assert passed, detail


def test_a_fix_that_breaks_an_existing_test_fails_and_names_it(snap: Outcome, scenario: Scenario) -> None:
    broken = fixed(snap).replace("raise ValueError", "return 0.0  # ", 1)
    assert broken != fixed(snap)
    add_pr(snap, {VAT: broken})
    passed, detail = judge(snap, scenario)
    assert not passed and "PR #1" in detail and TEST in detail


def test_editing_the_failing_test_does_not_make_it_pass(snap: Outcome, scenario: Scenario) -> None:
    broken = fixed(snap).replace("raise ValueError", "return 0.0  # ", 1)
    add_pr(snap, {VAT: broken, TEST: "def test_nothing():\n    assert True\n"})
    assert not judge(snap, scenario)[0]


def test_deleting_the_test_does_not_make_it_pass(snap: Outcome, scenario: Scenario) -> None:
    broken = fixed(snap).replace("raise ValueError", "return 0.0  # ", 1)
    add_pr(snap, {VAT: broken})
    del snap.repos[0].pulls[-1].files[TEST]
    assert not judge(snap, scenario)[0]


def test_doing_nothing_fails(snap: Outcome, scenario: Scenario) -> None:
    passed, detail = judge(snap, scenario)
    assert not passed and "pushed nothing" in detail


def test_a_result_cached_in_this_process_never_answers_where_agent_code_may_not_run(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The job that holds the model key defers every check that runs the agent's code; a pytest run
    cached earlier in the same process (the rubric's part and the collateral rule share it) must not
    answer there instead (it did: the part came out `passed` in the deferring job of a test worker)."""
    from evals.grade.checks.python import restored_run
    from evals.grade.confine.policy import ExecutionDeferred

    tree = {"pkg/__init__.py": "", "tests/test_ok.py": "def test_ok():\n    assert True\n"}
    monkeypatch.delenv("EVALS_DEFER_EXECUTION", raising=False)
    assert restored_run(tree, tree, ["tests/test_ok.py"]).passed
    monkeypatch.setenv("EVALS_DEFER_EXECUTION", "1")
    with pytest.raises(ExecutionDeferred):
        restored_run(tree, tree, ["tests/test_ok.py"])
