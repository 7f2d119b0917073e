"""Checks on secrets and configuration files: the planted secret, `.env.example`.

The secret is read from the seeded repository (never copied into rubric data), then searched for in
every file at every head the agent produced, including the default branch, since a key left in any
file anywhere is still leaked. `.env.example` is parsed line by line as `NAME=value`.
"""

from __future__ import annotations

import re

from evals.grade.checks.common import heads, primary_repo
from evals.grade.checks.python import assigned_value
from evals.grade.registry import CheckResult, GradeContext, check

PLACEHOLDER = r"^<[a-z0-9][a-z0-9-]*>$"


def seeded_secret(ctx: GradeContext, path: str, name: str) -> str:
    value = assigned_value(primary_repo(ctx.outcome).seed_files[path], name)
    if not isinstance(value, str) or len(value) < 8:
        raise LookupError(f"seeded {name} in {path} is not a secret string")
    return value


@check("repo.secret_absent")
def secret_absent(ctx: GradeContext, path: str, name: str, prefix: str = "") -> CheckResult:
    """The secret seeded as `name` in `path` (and any string with `prefix`) is gone: in no file at a
    head that fixed `path`, in no file the agent wrote at any head, and in no PR title or body."""
    secret = seeded_secret(ctx, path, name)
    needles = [secret, *([prefix] if prefix else [])]
    repo = primary_repo(ctx.outcome)
    states = heads(ctx.outcome)
    fixing = [label for label, files in states if files.get(path) != repo.seed_files.get(path)]
    if not fixing:
        return CheckResult(False, f"no pull request or push changed {path}; the key is still there")
    leaks = [
        f"{label}: {file}"
        for label, files in states
        for file, text in sorted(files.items())
        if (label in fixing or text != repo.seed_files.get(file)) and any(n in text for n in needles)
    ]
    leaks += [
        f"PR #{p.number} description" for p in repo.pulls if any(n in p.title + p.body for n in needles)
    ]
    if leaks:
        return CheckResult(False, "the secret is still in " + ", ".join(leaks[:6]))
    return CheckResult(
        True, f"the secret is in no file at {', '.join(fixing)} and in nothing the agent wrote"
    )


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


@check("repo.env_example")
def env_example(
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
