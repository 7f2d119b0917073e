"""What the PR workflow needs from the GitHub event that started it: label, PR number, fork or not.

GitHub hands every step the webhook payload as a JSON file (`$GITHUB_EVENT_PATH`). The job-level
`if:` in `.github/workflows/evals-pr.yml` already keeps fork PRs away from the job that holds
secrets; reading the payload again here is the second lock on that door (a refactored `if:` that
lets a fork through still stops at this step) and gives later steps the PR number through
`$GITHUB_OUTPUT` without `${{ }}` expressions inside `run:`.

`python -m evals.github.event --require-label run-evals --refuse-fork --require-default-base` prints
`key=value` lines (`number`, `label`, `fork`, `head_sha`, `base_sha`, `repository`) and exits 0, or
exits 2 naming what is wrong. The PR workflow runs on `pull_request_target` (same payload): its
definition, and the ruler, are the default branch's, so a PR into another branch (whose workflow
and baseline anyone with push access could have edited) is refused as well.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from evals.core.errors import BadInputError


class _Repo(BaseModel):
    full_name: str
    default_branch: str | None = None  # in every real payload; absent in hand-trimmed fixtures


class _Side(BaseModel):
    ref: str
    sha: str
    repo: _Repo | None = None  # null when the fork the PR came from has been deleted


class _PullRequest(BaseModel):
    number: int
    head: _Side
    base: _Side


class _Label(BaseModel):
    name: str


class _PullRequestEvent(BaseModel):
    """The subset of the `pull_request` webhook payload we read; other fields are ignored."""

    action: str
    number: int
    pull_request: _PullRequest
    repository: _Repo
    label: _Label | None = None


@dataclass(frozen=True)
class PullRequestContext:
    number: int
    action: str
    label: str | None
    repository: str
    head_repository: str | None
    head_sha: str
    base_sha: str = ""
    base_ref: str = ""
    default_branch: str | None = None

    @property
    def is_fork(self) -> bool:
        """A PR whose head is not in this repository, including one whose fork was deleted."""
        return self.head_repository != self.repository

    def outputs(self) -> dict[str, str]:
        return {
            "number": str(self.number),
            "label": self.label or "",
            "fork": "true" if self.is_fork else "false",
            "head_sha": self.head_sha,
            "base_sha": self.base_sha,
            "repository": self.repository,
        }


EVENT_ENV = "GITHUB_EVENT_PATH"


def event_path(given: Path | None) -> Path:
    """The event payload file: `given` (--event), else the one Actions names in $GITHUB_EVENT_PATH.
    The one place that reads the variable, for every step that reads the event."""
    path = given or (Path(os.environ[EVENT_ENV]) if os.environ.get(EVENT_ENV) else None)
    if path is None:
        raise BadInputError(f"no event payload: pass --event or set {EVENT_ENV}")
    return path


def read_payload(path: Path) -> dict[str, Any]:
    """The event payload file as JSON; a missing or corrupt one is bad input."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise BadInputError(f"{path}: cannot read the event payload: {exc}") from exc
    if not isinstance(data, dict):
        raise BadInputError(f"{path}: the event payload is not a JSON object")
    return data


def read_pull_request_event(path: Path) -> PullRequestContext:
    """Parse a `pull_request` payload file; a missing, corrupt or non-PR payload is bad input."""
    data = read_payload(path)
    try:
        event = _PullRequestEvent.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise BadInputError(f"{path}: not a pull_request event payload ({where}: {first['msg']})") from exc
    head = event.pull_request.head.repo
    return PullRequestContext(
        number=event.pull_request.number,
        action=event.action,
        label=event.label.name if event.label else None,
        repository=event.repository.full_name,
        head_repository=head.full_name if head else None,
        head_sha=event.pull_request.head.sha,
        base_sha=event.pull_request.base.sha,
        base_ref=event.pull_request.base.ref,
        default_branch=event.repository.default_branch,
    )


def check(
    ctx: PullRequestContext,
    *,
    require_label: str | None,
    refuse_fork: bool,
    require_default_base: bool = False,
) -> None:
    """Refuse to go on for the wrong label, a fork PR or (on request) a PR into a branch other than
    the default one: each means this job should not have started."""
    if require_label is not None and ctx.label != require_label:
        raise BadInputError(
            f"PR #{ctx.number}: event label is {ctx.label!r}, this job runs on {require_label!r}"
        )
    if refuse_fork and ctx.is_fork:
        raise BadInputError(
            f"PR #{ctx.number} comes from {ctx.head_repository or 'a deleted fork'}, not {ctx.repository}: "
            "fork PRs are never run with the eval secrets"
        )
    if require_default_base and ctx.default_branch is not None and ctx.base_ref != ctx.default_branch:
        raise BadInputError(
            f"PR #{ctx.number} targets {ctx.base_ref}, not the default branch {ctx.default_branch}: "
            "only the default branch's eval definition judges a PR"
        )
