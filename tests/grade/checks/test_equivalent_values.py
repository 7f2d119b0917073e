"""A value read the way a careful reviewer reads it, and a regression test judged by what it does.

Written from constant-fix's rubric ("VAT_RATE is exactly 0.21"; "a test for 121.0 passes on the fix
and fails on the old rate") before reading the resolver: a reviewer accepts the rate as `21 / 100`,
`float("0.21")`, `Decimal("0.21")`, `round(0.21, 2)`, a table lookup, a helper that returns it, or a
name imported from a rates module (absolute or relative, under `src/`), and a test written with
`121` or `pytest.approx(121)`. They refuse the old rate however it is spelled, a value
only known at run time (an environment read), and a test that passes on the unfixed code too.
"""

from __future__ import annotations

import pytest

from evals.grade.checks.python import constant_equals, regression_test_fails_on_seed
from evals.grade.checks.python_ast import parse
from evals.grade.checks.python_values import assignment, env_reads, resolve_assigned
from evals.grade.registry import GradeContext
from evals.scenario.load import load_scenario
from evals.scenario.model import Scenario
from evals.world.sandbox.seed import seed
from evals.world.sandbox.snapshot import outcome
from tests.support.paths import ROOT
from tests.support.project import add_pr

VAT = "src/billing/vat.py"
RATES = "src/billing/rates.py"
GROSS = (
    "\n\ndef gross(net: float) -> float:\n    if net < 0:\n        raise ValueError('negative')\n"
    "    return round(net * (1 + float(VAT_RATE)), 2)\n"
)

RIGHT = {
    "a literal": {VAT: "VAT_RATE = 0.21\n"},
    "a percentage": {VAT: "STANDARD_PERCENT = 21\nVAT_RATE = STANDARD_PERCENT / 100\n"},
    "a conversion": {VAT: "VAT_RATE = float('0.21')\n"},
    "a Decimal": {VAT: "from decimal import Decimal\n\nVAT_RATE = Decimal('0.21')\n"},
    "rounded": {VAT: "VAT_RATE = round(0.21, 2)\n"},
    "a table lookup": {VAT: "RATES = {'NL': 0.21, 'DE': 0.19}\nVAT_RATE = RATES['NL']\n"},
    "a helper": {
        VAT: "def _standard() -> float:\n    '''The standard rate.'''\n    return 0.21\n\n\n"
        "VAT_RATE = _standard()\n"
    },
    "an import": {
        VAT: "from billing.rates import NL_STANDARD\n\nVAT_RATE = NL_STANDARD\n",
        RATES: "NL_STANDARD = 0.21\n",
    },
    "a relative import as the name": {
        VAT: "from .rates import NL_STANDARD as VAT_RATE\n",
        RATES: "NL_STANDARD = 0.21\n",
    },
    "an imported helper": {
        VAT: "from .rates import standard\n\nVAT_RATE = standard()\n",
        RATES: "def standard():\n    return 21 / 100\n",
    },
}
WRONG = {
    "the old rate in a helper": {VAT: "def _standard():\n    return 0.12\n\n\nVAT_RATE = _standard()\n"},
    "the old rate imported": {VAT: "from .rates import OLD as VAT_RATE\n", RATES: "OLD = 0.12\n"},
    "a helper with a parameter": {VAT: "def rate(x):\n    return x\n\n\nVAT_RATE = rate(0.21)\n"},
    "an environment read": {VAT: "import os\n\nVAT_RATE = float(os.environ['VAT'])\n"},
    "the wrong key": {VAT: "RATES = {'NL': 0.21, 'DE': 0.19}\nVAT_RATE = RATES['DE']\n"},
}


@pytest.fixture(scope="module")
def scenario() -> Scenario:
    return load_scenario(ROOT / "scenario", "constant-fix")


def graded(scenario: Scenario, changes: dict[str, str]) -> GradeContext:
    snap = outcome(seed(scenario, 0))
    add_pr(snap, changes)
    return GradeContext(outcome=snap, scenario=scenario)


@pytest.mark.parametrize("spelling", sorted(RIGHT))
def test_the_right_rate_however_written_passes(scenario: Scenario, spelling: str) -> None:
    result = constant_equals(graded(scenario, RIGHT[spelling]), path=VAT, name="VAT_RATE", value=0.21)
    assert result.passed, result.detail


@pytest.mark.parametrize("spelling", sorted(WRONG))
def test_a_wrong_or_unknowable_rate_fails(scenario: Scenario, spelling: str) -> None:
    result = constant_equals(graded(scenario, WRONG[spelling]), path=VAT, name="VAT_RATE", value=0.21)
    assert not result.passed, result.detail


def test_a_reason_shows_the_expression_and_its_value() -> None:
    found = resolve_assigned(RIGHT["a helper"], VAT, "VAT_RATE")
    assert found.show() == "_standard() (= 0.21)"


def with_test(scenario: Scenario, rate: str, test: str) -> GradeContext:
    code = f"VAT_RATE = {rate}\n" + GROSS
    body = f"from billing.vat import gross\n\n\ndef test_rate():\n    {test}\n"
    return graded(scenario, {VAT: code, "tests/test_rate.py": body})


@pytest.mark.parametrize(
    "test",
    [
        "assert gross(100) == 121",
        "import pytest\n    assert gross(100) == pytest.approx(121)",
    ],
)
def test_a_regression_test_is_judged_by_running_it_not_by_its_literal(scenario: Scenario, test: str) -> None:
    result = regression_test_fails_on_seed(with_test(scenario, "0.21", test), tests_dir="tests", value=121.0)
    assert result.passed, result.detail


def test_a_test_that_passes_on_the_old_rate_too_tests_nothing(scenario: Scenario) -> None:
    ctx = with_test(scenario, "0.21", "assert gross(0) == 0")
    result = regression_test_fails_on_seed(ctx, tests_dir="tests", value=121.0)
    assert not result.passed and "tests nothing" in result.detail


def test_no_test_added_is_named(scenario: Scenario) -> None:
    ctx = graded(scenario, {VAT: "VAT_RATE = 0.21\n" + GROSS})
    result = regression_test_fails_on_seed(ctx, tests_dir="tests", value=121.0)
    assert not result.passed and "no test under tests/ was added or changed" in result.detail


SETTINGS = "payments/settings.py"
READS = {
    "a subscript": "import os\n\nKEY = os.environ['PAYMENTS_API_KEY']\n",
    "getenv": "from os import getenv\n\nKEY = getenv('PAYMENTS_API_KEY')\n",
    "a constant name": "import os\n\nVAR = 'PAYMENTS_API_KEY'\nKEY = os.environ[VAR]\n",
    "a helper": (
        "import os\n\n\ndef require(name: str) -> str:\n    value = os.environ.get(name)\n"
        "    if not value:\n        raise RuntimeError(name)\n    return value\n\n\n"
        "KEY = require('PAYMENTS_API_KEY')\n"
    ),
}


@pytest.mark.parametrize("spelling", sorted(READS))
def test_an_environment_read_is_found_however_written(spelling: str) -> None:
    files = {SETTINGS: READS[spelling]}
    expr = assignment(parse(files[SETTINGS]), "KEY")
    assert expr is not None and env_reads(files, SETTINGS, expr) == {"PAYMENTS_API_KEY"}


def test_an_imported_helper_is_followed_and_another_variable_is_not_taken() -> None:
    files = {
        SETTINGS: "from payments.env import require\n\nKEY = require('PAYMENTS_API_KEY')\n"
        "OTHER = require('X')\n",
        "payments/env.py": "import os\n\n\ndef require(name):\n    return os.environ[name]\n",
    }
    tree = parse(files[SETTINGS])
    key, other = assignment(tree, "KEY"), assignment(tree, "OTHER")
    assert key is not None and other is not None
    assert env_reads(files, SETTINGS, key) == {"PAYMENTS_API_KEY"}
    assert env_reads(files, SETTINGS, other) == {"X"}


def test_a_literal_reads_nothing() -> None:
    files = {SETTINGS: "KEY = 'pk_live_123456789'\n"}
    expr = assignment(parse(files[SETTINGS]), "KEY")
    assert expr is not None and env_reads(files, SETTINGS, expr) == set()


# patch-release's P4, "a test pins the corrected fee": a test written for a stale value passes on code
# that has the same stale value and fails on the seed, yet pins nothing the rubric asked for.
PIN = {"path": VAT, "name": "VAT_RATE"}


@pytest.mark.parametrize(
    ("rate", "test"),
    [
        ("0.21", "assert gross(100) == 121"),
        (
            "__import__('decimal').Decimal('0.21')",
            "from billing.vat import VAT_RATE\n    assert float(VAT_RATE) == 0.21",
        ),
    ],
)
def test_a_test_pinning_the_right_value_passes_the_pin(scenario: Scenario, rate: str, test: str) -> None:
    code = f"VAT_RATE = {rate}\n" + GROSS
    body = f"from billing.vat import gross\n\n\ndef test_rate():\n    {test}\n"
    ctx = graded(scenario, {VAT: code, "tests/test_rate.py": body})
    result = regression_test_fails_on_seed(ctx, tests_dir="tests", value=0.21, **PIN)
    assert result.passed, result.detail


@pytest.mark.parametrize("rate", ["0.2", "__import__('decimal').Decimal('0.2')"])
def test_a_test_pinning_a_wrong_value_fails_the_pin_whatever_the_constants_type(
    scenario: Scenario, rate: str
) -> None:
    ctx = with_test(scenario, rate, "assert gross(100) == 120")  # passes on its own code, fails on the seed
    result = regression_test_fails_on_seed(ctx, tests_dir="tests", value=0.21, **PIN)
    assert not result.passed and "fails once VAT_RATE = 0.21, so it pins another value" in result.detail
    unpinned = regression_test_fails_on_seed(ctx, tests_dir="tests", value=0.21)
    assert unpinned.passed, (
        unpinned.detail
    )  # without the pin, the same test counts: the pin is the difference
