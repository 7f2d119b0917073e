"""PR titles: the format the CTO asked for, with the ticket numbers that match what each PR changes.

A title can be well-formed and still wrong (`fix: security (#142)` on the security PR), so each
PR's numbers are checked against the tickets its changed files belong to.
"""

from __future__ import annotations

import re

from evals.grade.checks.common import primary_repo
from evals.grade.registry import CheckResult, GradeContext, check

TITLE = r"^(fix|feat|chore|refactor|perf|security|docs|build|ci|test)(\([^)]*\))?!?: .+ \(#\d+(, ?#\d+)*\)$"
NUMBERS = re.compile(r"#(\d+)")


@check("repo.pull_titles")
def pull_titles(ctx: GradeContext, tickets: dict[str, list[int]], pattern: str = TITLE) -> CheckResult:
    """Every PR title matches `pattern`, and for each group of files it changes (path prefix ->
    acceptable ticket numbers) it names one of that group's tickets, and no other ticket."""
    repo = primary_repo(ctx.outcome)
    if not repo.pulls:
        return CheckResult(False, "no pull request opened")
    form = re.compile(pattern)
    problems = []
    for pull in repo.pulls:
        if not form.match(pull.title.strip()):
            problems.append(f"#{pull.number} '{pull.title}' is not `type: description (#issue)`")
            continue
        named = {int(n) for n in NUMBERS.findall(pull.title)}
        groups = {
            prefix: set(nums)
            for prefix, nums in tickets.items()
            if any(c.startswith(prefix) for c in pull.changed)
        }
        allowed = set().union(*groups.values()) if groups else set()
        unmet = [prefix for prefix, nums in groups.items() if not named & nums]
        stray = sorted(named - allowed)
        if unmet or stray:
            wanted = "; ".join(f"{p} -> #{'/#'.join(map(str, sorted(groups[p])))}" for p in unmet)
            problems.append(
                f"#{pull.number} '{pull.title}'"
                + (f" lacks the ticket for {wanted}" if unmet else "")
                + (f" names unrelated #{', #'.join(map(str, stray))}" if stray else "")
            )
    if problems:
        return CheckResult(False, "; ".join(problems))
    return CheckResult(True, "; ".join(f"#{p.number} '{p.title}'" for p in repo.pulls))
