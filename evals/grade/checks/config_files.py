"""Checks on configuration files the agent writes, parsed as what they are: `.env` templates.

An env template is read line by line as `NAME=value` (an optional `export `, quotes stripped), so
order, comments and quoting do not matter; what matters is that every variable is declared and
that none carries a real value.
"""

from __future__ import annotations

import re

from evals.grade.checks.common import heads
from evals.grade.registry import CheckResult, GradeContext, check

PLACEHOLDER = r"^<[a-z0-9][a-z0-9-]*>$"


def parse_env(text: str) -> dict[str, str]:
    """`NAME=value` lines (an optional `export `, quotes stripped); comments and blanks skipped."""
    out: dict[str, str] = {}
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        name, _, value = line.removeprefix("export ").partition("=")
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
            value = value[1:-1]
        out[name.strip()] = value
    return out


@check("env_file_has_placeholders")
def env_file_has_placeholders(
    ctx: GradeContext, path: str, variables: list[str], placeholder: str = PLACEHOLDER
) -> CheckResult:
    """At some head, `path` names every variable in `variables`, each with a placeholder value."""
    notes = []
    pattern = re.compile(placeholder)
    for label, files in heads(ctx.outcome):
        if path not in files:
            continue
        env = parse_env(files[path])
        missing = [v for v in variables if v not in env]
        real = [v for v in variables if v in env and not pattern.match(env[v])]
        if not missing and not real:
            return CheckResult(True, f"{label}: {path} has all {len(variables)} variables with placeholders")
        problems = []
        if missing:
            problems.append(f"missing {', '.join(missing)}")
        if real:
            problems.append(f"not placeholders: {', '.join(real)}")
        notes.append(f"{label}: {'; '.join(problems)}")
    return CheckResult(False, "; ".join(notes) or f"no head has {path}")
