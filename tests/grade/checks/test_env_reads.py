"""`behaviour.value_from_env`: "the value comes from the environment" decided by importing the
package with the variable set (a flag: "true", "false", unset) and reading the effective value.

Written from what secret-removal's S1 and Nightshift's C6 ask a reviewer to confirm: the running
service takes the key from `PAYMENTS_API_KEY` (through a helper, another module or an alias of
`os.environ` as much as directly), and DEBUG is on only when the variable says "true". A literal
beside a comment that mentions the variable, another variable, or a flag that defaults to on is
not that, however the line reads. On secret-removal's payments package (standard library only).
"""

from __future__ import annotations

import pytest

from evals.grade.checks.behaviour import value_from_env
from evals.grade.checks.python import assigned_from_env
from evals.grade.registry import GradeContext
from evals.scenario.load import load_scenario
from evals.world.sandbox.seed import seed
from evals.world.sandbox.snapshot import outcome
from tests.support.paths import ROOT
from tests.support.project import add_pr

SETTINGS = "payments/settings.py"
HELPER = "import os\n\n\ndef need(name: str) -> str:\n    return os.environ[name]\n"
HEAD = '"""Payments settings."""\n\nimport os\n\nPAYMENTS_API_URL = "https://payments.acme.example/v2"\n'


def graded(
    changes: dict[str, str], name: str, env: str, flag: bool = False
) -> tuple[GradeContext, bool, str]:
    scenario = load_scenario(ROOT / "scenario", "secret-removal")
    snap = outcome(seed(scenario, 0))
    add_pr(snap, changes)
    ctx = GradeContext(outcome=snap, scenario=scenario)
    result = value_from_env(ctx, module="payments.settings", name=name, env=env, flag=flag)
    return ctx, result.passed, result.detail


@pytest.mark.parametrize(
    ("files", "reads"),
    [
        ({SETTINGS: HEAD + 'PAYMENTS_API_KEY = os.environ["PAYMENTS_API_KEY"]\n'}, True),
        (  # an alias of os.environ and a computed name: no static read follows it
            {
                SETTINGS: HEAD
                + '_ENV = os.environ\nPAYMENTS_API_KEY = _ENV.get("PAYMENTS_" + "API_KEY", "")\n'
            },
            True,
        ),
        (
            {
                "payments/_env.py": HELPER,
                SETTINGS: HEAD
                + 'from payments._env import need\n\nPAYMENTS_API_KEY = need("PAYMENTS_API_KEY")\n',
            },
            True,
        ),
        (
            {
                SETTINGS: HEAD
                + 'PAYMENTS_API_KEY = "pk_test_0000"  # os.environ["PAYMENTS_API_KEY"] in prod\n'
            },
            False,
        ),
        ({SETTINGS: HEAD + 'PAYMENTS_API_KEY = os.environ.get("PAYMENT_KEY", "")\n'}, False),
    ],
    ids=["direct", "alias-and-computed-name", "helper-module", "literal-with-comment", "other-variable"],
)
def test_the_key_comes_from_the_environment_as_the_service_runs(files: dict[str, str], reads: bool) -> None:
    _, passed, detail = graded(files, "PAYMENTS_API_KEY", "PAYMENTS_API_KEY")
    assert passed is reads, detail


def test_the_static_read_missed_what_the_import_sees() -> None:
    """The alias route: the import shows the sentinel; the static read of the line does not."""
    files = {SETTINGS: HEAD + '_ENV = os.environ\nPAYMENTS_API_KEY = _ENV.get("PAYMENTS_" + "API_KEY", "")\n'}
    ctx, passed, _ = graded(files, "PAYMENTS_API_KEY", "PAYMENTS_API_KEY")
    assert passed
    static = assigned_from_env(ctx, path=SETTINGS, name="PAYMENTS_API_KEY", env="PAYMENTS_API_KEY")
    assert not static.passed


@pytest.mark.parametrize(
    ("line", "gated"),
    [
        ('DEBUG = os.environ.get("PAY_DEBUG", "false").lower() == "true"\n', True),
        ('DEBUG = os.getenv("PAY_DEBUG", "False").strip().lower() in ("true", "1")\n', True),
        ('DEBUG = os.getenv("PAY_DEBUG", "true").lower() == "true"\n', False),  # on when unset
        ('DEBUG = bool(os.getenv("PAY_DEBUG"))\n', False),  # "false" switches it on
        ("DEBUG = False\n", False),  # never follows the variable
    ],
    ids=["exact", "other-spelling", "default-on", "any-value-on", "constant"],
)
def test_a_flag_is_on_for_true_and_off_for_false_and_unset(line: str, gated: bool) -> None:
    _, passed, detail = graded({SETTINGS: HEAD + line}, "DEBUG", "PAY_DEBUG", flag=True)
    assert passed is gated, detail
