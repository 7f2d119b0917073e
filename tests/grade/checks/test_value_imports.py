"""A value imported from another module of the repo resolves wherever the repo keeps its modules.

A reviewer reads `REQUESTS_PER_MINUTE = PARTNER_RPM` after `from gateway.quotas import PARTNER_RPM` as
90 when quotas.py says 90, whether the package sits at the root or under `src/` (the src layout most
scenario repos use), and whether the import is absolute or relative. A module the repo does not have,
or a name it does not define, stays unresolved: never guessed.
"""

from __future__ import annotations

import pytest

from evals.grade.checks.python_values import resolve_assigned

QUOTAS = "PARTNER_RPM = 45 * 2\n"


@pytest.mark.parametrize(
    ("files", "path"),
    [
        (
            {
                "src/gateway/limits.py": "from gateway.quotas import PARTNER_RPM\nLIMIT = PARTNER_RPM\n",
                "src/gateway/quotas.py": QUOTAS,
            },
            "src/gateway/limits.py",
        ),
        (
            {
                "src/gateway/limits.py": "from .quotas import PARTNER_RPM as RPM\nLIMIT = RPM\n",
                "src/gateway/quotas.py": QUOTAS,
            },
            "src/gateway/limits.py",
        ),
        (
            {
                "src/gateway/limits.py": "from . import quotas\nLIMIT = quotas.PARTNER_RPM\n",
                "src/gateway/quotas.py": QUOTAS,
            },
            "src/gateway/limits.py",
        ),
        (
            {
                "src/gateway/api/limits.py": "from ..quotas import PARTNER_RPM\nLIMIT = PARTNER_RPM\n",
                "src/gateway/quotas.py": QUOTAS,
            },
            "src/gateway/api/limits.py",
        ),
        (
            {
                "gateway/limits.py": "import gateway.quotas as q\nLIMIT = q.PARTNER_RPM\n",
                "gateway/quotas.py": QUOTAS,
            },
            "gateway/limits.py",
        ),
    ],
)
def test_an_imported_value_resolves_at_the_root_under_src_and_relatively(
    files: dict[str, str], path: str
) -> None:
    found = resolve_assigned(files, path, "LIMIT")
    assert found.ok and found.value == 90, found


@pytest.mark.parametrize(
    "files",
    [
        {
            "src/gateway/limits.py": "from gateway.elsewhere import PARTNER_RPM\nLIMIT = PARTNER_RPM\n",
            "src/gateway/quotas.py": QUOTAS,
        },
        {
            "src/gateway/limits.py": "from .quotas import OTHER\nLIMIT = OTHER\n",
            "src/gateway/quotas.py": QUOTAS,
        },
        {
            "src/gateway/limits.py": "from ...quotas import PARTNER_RPM\nLIMIT = PARTNER_RPM\n",
            "src/gateway/quotas.py": QUOTAS,
        },
    ],
)
def test_a_module_or_name_the_repo_does_not_have_stays_unresolved(files: dict[str, str]) -> None:
    found = resolve_assigned(files, "src/gateway/limits.py", "LIMIT")
    assert not found.ok and found.value is None, found


def test_a_wrong_imported_value_resolves_to_the_wrong_value() -> None:
    files = {
        "src/gateway/limits.py": "from gateway.quotas import PARTNER_RPM\nLIMIT = PARTNER_RPM\n",
        "src/gateway/quotas.py": "PARTNER_RPM = 120\n",
    }
    assert resolve_assigned(files, "src/gateway/limits.py", "LIMIT").value == 120
