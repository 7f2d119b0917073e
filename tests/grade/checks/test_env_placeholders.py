"""`config_files.env_file_has_placeholders` given only the names: any placeholder a reader takes for
one passes, a value that could be real does not.

Written from env-template's prompt ("each with a placeholder value in angle brackets, like
`<db-url>`, never a real value"): a reviewer accepts `<DB_URL>`, `<db_url>` or `<your db url>`, quoted or
exported, and refuses a token-shaped value, an empty value or a URL.
"""

from __future__ import annotations

import pytest

from evals.grade.checks.config_files import env_file_has_placeholders
from evals.grade.registry import GradeContext
from evals.scenario.load import load_scenario
from evals.world.sandbox.seed import seed
from evals.world.sandbox.snapshot import outcome
from tests.support.paths import ROOT
from tests.support.project import add_pr


def graded(value: str) -> bool:
    scenario = load_scenario(ROOT / "scenario", "env-template")
    snap = outcome(seed(scenario, 0))
    add_pr(snap, {".env.example": f"NOTIFIER_DB_URL={value}\n"})
    ctx = GradeContext(outcome=snap, scenario=scenario)
    return env_file_has_placeholders(ctx, path=".env.example", variables=["NOTIFIER_DB_URL"]).passed


@pytest.mark.parametrize("value", ["<db-url>", "<DB_URL>", "<db_url>", "'<your db url>'", '"<db.url>"'])
def test_a_placeholder_a_reader_takes_for_one_passes(value: str) -> None:
    assert graded(value)


@pytest.mark.parametrize(
    "value", ["", "xoxb-1234-5678", "postgresql://db/notifier", "<>", "<db-url", "changeme"]
)
def test_a_value_that_could_be_real_or_no_value_fails(value: str) -> None:
    assert not graded(value)
