"""Small readers shared by checks: which repo and heads the agent produced, which links it made."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from evals.grade.artefact import AgentArtefactError
from evals.grade.registry import CheckResult

if TYPE_CHECKING:  # annotations only: grading is not imported by post-run commands
    from evals.world.outcome import Outcome, RepoSnapshot

# What one head shows a check: `look(label, files)`, its detail naming the head by its label.
Look = Callable[[str, dict[str, str]], CheckResult]


def primary_repo(outcome: Outcome) -> RepoSnapshot:
    if not outcome.repos:
        raise LookupError("the outcome has no repository")
    return outcome.repos[0]


def heads(outcome: Outcome) -> list[tuple[str, dict[str, str]]]:
    """Every state the agent produced: each PR head, and the default branch if it pushed there."""
    return primary_repo(outcome).heads()


def changed_heads(outcome: Outcome, path: str) -> list[tuple[str, dict[str, str]]]:
    """The heads where `path` differs from the seeded repository (the agent's attempts at it)."""
    seeded = primary_repo(outcome).seed_files.get(path)
    return [(label, files) for label, files in heads(outcome) if files.get(path) != seeded]


def at_some_changed_head(outcome: Outcome, path: str, look: Look, expected: str = "") -> CheckResult:
    """Pass at the first head that changed `path` where `look` passes: the agent may fix a file in
    any of its PRs, or on main, and one good attempt is the fix. Otherwise fail with what every such
    head showed (after `expected EXPECTED;` when given) and the last one's evidence, or say that no
    head changed `path`. A head whose files the grader cannot read or write (AgentArtefactError) fails
    with that reason. Heads are looked at in order and no further than the first pass, since a
    look may be costly (Nightshift's behaviour probes run the agent's code)."""
    notes, evidence = [], ""
    for label, files in changed_heads(outcome, path):
        try:
            seen = look(label, files)
        except AgentArtefactError as exc:  # this head's file cannot be read: it fails, another may pass
            seen = CheckResult(False, f"{label}: {path}: {exc}")
        if seen.passed:
            return seen
        notes.append(seen.detail)
        evidence = seen.evidence
    if not notes:
        return CheckResult(False, f"no pull request or push changed {path}")
    return CheckResult(False, (f"expected {expected}; " if expected else "") + "; ".join(notes), evidence)


def mentions_pr(text: str, outcome: Outcome) -> list[str]:
    """The PR URLs (or `owner/repo#N` / `pull/N` forms) of this run that the text contains."""
    found = []
    for repo in outcome.repos:
        for pull in repo.pulls:
            forms = (pull.url, f"{repo.full_name}#{pull.number}", f"{repo.full_name}/pull/{pull.number}")
            if any(form.lower() in text.lower() for form in forms):
                found.append(pull.url)
    return found
