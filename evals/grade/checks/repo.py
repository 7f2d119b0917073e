"""Checks on the repository as a whole: pull requests opened, what they change."""

from __future__ import annotations

from evals.grade.checks.common import primary_repo
from evals.grade.registry import CheckResult, GradeContext, check, evidence


@check("repo.pull_request_opened")
def pull_request_opened(ctx: GradeContext, min_changed: int = 1) -> CheckResult:
    """A pull request into the default branch that changes at least `min_changed` files."""
    repo = primary_repo(ctx.outcome)
    if not repo.pulls:
        return CheckResult(False, f"no pull request opened on {repo.full_name}")
    for pull in repo.pulls:
        if pull.base == repo.default_branch and len(pull.changed) >= min_changed:
            return CheckResult(True, f"PR #{pull.number} '{pull.title}' changes {', '.join(pull.changed)}")
    return CheckResult(
        False,
        "pull requests exist but none into the default branch with changes",
        "; ".join(f"#{p.number} {p.base}<-{p.head} {p.changed}" for p in repo.pulls),
    )


@evidence("repo.pull_requests")
def pull_requests(ctx: GradeContext) -> str:
    """Title, body and diff of every pull request."""
    repo = primary_repo(ctx.outcome)
    return "\n\n".join(f"PR #{p.number}: {p.title}\n{p.body}\n\n{p.diff}" for p in repo.pulls) or "(no PRs)"
