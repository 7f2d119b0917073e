"""The value resolver follows an import to the file that defines the name, in either common layout.

A constant imported from another module is the same value to a reviewer whether the package sits at
the repository root (`hydra/connectors/limits.py`) or under `src/` (`src/identity/policy.py`, PyPA's
src layout, which pyproject's `pythonpath = ["src"]` puts on the path).
"""

from __future__ import annotations

import pytest

from evals.grade.checks.python_values import resolve_assigned

RULES = "from identity.policy import PASSWORD_MIN_CHARS\n\nMIN_PASSWORD_LENGTH = PASSWORD_MIN_CHARS\n"


@pytest.mark.parametrize("policy_path", ["src/identity/policy.py", "identity/policy.py"])
def test_an_imported_constant_resolves_at_the_root_or_under_src(policy_path: str) -> None:
    rules_path = policy_path.replace("policy.py", "rules.py")
    files = {rules_path: RULES, policy_path: "PASSWORD_MIN_CHARS = 2 * 7\n"}
    resolved = resolve_assigned(files, rules_path, "MIN_PASSWORD_LENGTH")
    assert resolved.ok and resolved.value == 14


def test_a_module_the_head_does_not_have_stays_unresolved() -> None:
    files = {"src/identity/rules.py": RULES, "lib/identity/policy.py": "PASSWORD_MIN_CHARS = 14\n"}
    assert not resolve_assigned(files, "src/identity/rules.py", "MIN_PASSWORD_LENGTH").ok


@pytest.mark.parametrize(
    ("expr", "value"),
    [
        ('Decimal("2.0")', 2.0),
        ("decimal.Decimal('2')", 2.0),
        ('float("2.0")', 2.0),
        ('int("5")', 5),
        ("Decimal(2)", 2.0),
    ],
)
def test_a_number_built_by_its_types_constructor_is_that_number(expr: str, value: object) -> None:
    files = {"fees.py": f"import decimal\nfrom decimal import Decimal\n\nRATE = {expr}\n"}
    resolved = resolve_assigned(files, "fees.py", "RATE")
    assert resolved.ok and resolved.value == value


@pytest.mark.parametrize(
    "expr", ['Decimal("1.5")', 'Decimal("two")', "round(2.06, 1)", 'Decimal("2.0", context)']
)
def test_another_number_or_an_unknown_call_is_not_2(expr: str) -> None:
    resolved = resolve_assigned({"fees.py": f"RATE = {expr}\n"}, "fees.py", "RATE")
    assert not (resolved.ok and resolved.value == 2.0)
