"""mailer-env's own check: a retracted request leaves no trace in the env template.

`config_files.env_file_has_placeholders` says which variables a template must declare; nothing in
the vocabulary says which it must not, and that is this task's trap (the first mail's SMTP
variables, retracted by the second). The file is read with the same python-dotenv parser, so
`export`, quotes and comments do not matter. Registered as `mailer-env.env_file_lacks`.
"""

from __future__ import annotations

from evals.grade.checks.common import changed_heads
from evals.grade.checks.config_files import parse_env
from evals.grade.registry import CheckResult, GradeContext, check


@check("env_file_lacks")
def env_file_lacks(ctx: GradeContext, path: str, variables: list[str]) -> CheckResult:
    """Every head that changed `path` declares none of `variables` (and at least one head did)."""
    states = changed_heads(ctx.outcome, path)
    if not states:
        return CheckResult(False, f"no pull request or push changed {path}")
    found = []
    for label, files in states:
        declared = [v for v in variables if v in parse_env(files.get(path, ""))]
        if declared:
            found.append(f"{label}: {', '.join(declared)}")
    if found:
        return CheckResult(False, f"{path} still declares retracted variables: " + "; ".join(found))
    return CheckResult(True, f"{path} declares none of {', '.join(variables)} at {len(states)} head(s)")
