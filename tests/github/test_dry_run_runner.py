"""A local stand-in for the GitHub Actions runner, so the workflows' own steps can be dry-run.

It reads a workflow file and runs its jobs in `needs` order the way a runner would: evaluates each
job's and step's `if:`, expands `${{ }}` in `env:` and `with:` from the contexts a runner gives
(github, env, vars, secrets, inputs, matrix, needs, steps), and runs every `run:` step with
`bash -e` in the job's own workspace with `GITHUB_OUTPUT`, `GITHUB_STEP_SUMMARY` and
`GITHUB_EVENT_PATH` set. The four actions the workflows use are played by small local equivalents:
checkout copies the project into a fresh workspace (or a `path:` in it), setup-python puts the
test's Python on PATH, and upload/download-artifact copy directories through a local artifact store.
A step's `continue-on-error: true` lets the job go on past its failure, as on GitHub.

A pull request has two trees: the base (`project`) and the PR's head (`head`, optional). As on
GitHub, a `pull_request` run takes its workflow file from the PR (the head) and a
`pull_request_target` run from the base; `actions/checkout` gives the head only for `ref:` equal to
the event's head SHA, the base for no ref or the base SHA (`github.sha`), and fails for any other
ref. Nothing else in the workflow is simulated, so a broken script, a wrong env name or a step order
that cannot work fails here as it would on GitHub.

The tests at the bottom check the expression evaluator itself.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.support.actions import (
    condition,
    evaluate,
)

# ---------------------------------------------------------------------------------------------
# Expressions: the subset of GitHub's expression language the workflows use, evaluated strictly
# (an unknown function or token is an error, never a silent empty string).


# ---------------------------------------------------------------------------------------------
# Jobs and steps.


# ---------------------------------------------------------------------------------------------
# The evaluator's own tests: the dry run is only as honest as its reading of `if:`.

CONTEXTS = {
    "github": {
        "repository": "acme/gate",
        "event": {"label": {"name": "run-evals"}, "pull_request": {"number": 7, "head": {"repo": None}}},
    },
    "needs": {"evals": {"result": "failure"}},
    "inputs": {"trials": ""},
}


@pytest.mark.parametrize(
    ("expression", "expected"),
    [
        ("github.event.label.name == 'run-evals'", True),
        ("github.event.label.name == 'RUN-EVALS'", True),  # GitHub compares strings case-insensitively
        ("github.event.pull_request.head.repo.full_name == github.repository", False),
        ("github.event.pull_request.head.repo.full_name != github.repository", True),
        ("inputs.trials || '6'", "6"),
        ("format('evals-pr-{0}', github.event.pull_request.number)", "evals-pr-7"),
        ("!cancelled() && needs.evals.result != 'skipped'", True),
        ("fromJSON('{\"include\": [1]}')", {"include": [1]}),
        ("github.event.label.name == 'bug' && 'a' || 'b'", "b"),
    ],
)
def test_the_dry_run_reads_expressions_as_github_does(expression: str, expected: Any) -> None:
    assert evaluate(expression, CONTEXTS) == expected


def test_a_step_condition_without_a_status_function_needs_earlier_steps_to_succeed() -> None:
    assert condition("github.repository == 'acme/gate'", CONTEXTS, ok=True)
    assert not condition("github.repository == 'acme/gate'", CONTEXTS, ok=False)
    assert condition("${{ !cancelled() }}", CONTEXTS, ok=False)


def test_an_unsupported_function_is_an_error_not_an_empty_string() -> None:
    with pytest.raises(ValueError, match="hashFiles"):
        evaluate("hashFiles('x')", CONTEXTS)
