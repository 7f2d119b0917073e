"""The one sticky PR comment: find ours and edit it, else create it.

A new comment on every run would bury the review thread, so there is exactly one per PR: the first
comment that is ours is edited in place, and any later duplicates of ours (two jobs racing) are
deleted. "Ours" needs three things, because anyone can type or quote the report's marker: the
comment starts with `report.MARKER`; its second line is this repository's key (`comment_key`: a
digest of the repository and, when set, the secret EVALS_COMMENT_KEY), so a report copied from
another repository's PR, or another tool's note that merely starts with the marker, is not ours; and
it was written by the token's own user, or by the bot this workflow posts as (EVALS_COMMENT_AUTHOR:
a GitHub App's `<slug>[bot]`, default `github-actions[bot]`). A person's comment is never edited or
deleted. `GET /user` names the token's user; an Actions or App token is an installation token, for
which GitHub answers 403 there. With the workflow's own token the author is `github-actions[bot]`,
which any workflow of the repository can post as: only an App token makes the author unforgeable.
PR comments are issue comments in GitHub's API. A 403 on a write is what a fork PR's read-only
token gets: that is a warning pointing at the job summary (which holds the same report).
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from github import Github
    from github.IssueComment import IssueComment

from evals.core.errors import BadInputError, InfrastructureError
from evals.report.markdown import MARKER

DEFAULT_API_URL = "https://api.github.com"
COMMENT_LIMIT = 65_536  # GitHub rejects longer comment bodies
ACTIONS_BOT = "github-actions[bot]"  # who writes with a workflow's GITHUB_TOKEN
AUTHOR_ENV = "EVALS_COMMENT_AUTHOR"  # the bot login the workflow posts as (an App's `<slug>[bot]`)
KEY_ENV = "EVALS_COMMENT_KEY"  # optional secret mixed into the per-repository key


@dataclass(frozen=True)
class CommentResult:
    action: Literal["created", "updated", "forbidden"]
    url: str = ""
    removed_duplicates: int = 0
    message: str = ""


def job_summary_url() -> str:
    """Link to this Actions run (its job summary holds the report), when running in Actions."""
    server, repo, run = (
        os.environ.get(k) for k in ("GITHUB_SERVER_URL", "GITHUB_REPOSITORY", "GITHUB_RUN_ID")
    )
    return f"{server}/{repo}/actions/runs/{run}" if server and repo and run else ""


def missing_report(why: str = "The verdict job did not finish") -> str:
    """What the PR is told when there is no verdict to post (the verdict job left no report, or the
    evals job failed and nothing was measured): the verdict is an error."""
    return (
        f"{MARKER}\n## ❌ Agent evals: **error**\n\n"
        f"- {why}, so there is no verdict: label the PR `run-evals` again.\n"
    )


def comment_key(repo: str) -> str:
    """This repository's key line: a digest of OWNER/NAME (lower case) and EVALS_COMMENT_KEY."""
    seed = f"agent-evals-gate:{repo.lower()}:{os.environ.get(KEY_ENV, '')}"
    return f"<!-- agent-evals-gate:key {hashlib.sha256(seed.encode()).hexdigest()[:24]} -->"


def sticky_body(report: str, repo: str) -> str:
    """The marker, this repository's key, then the report (its own marker line dropped)."""
    text = report.removeprefix(MARKER).lstrip("\n")
    body = f"{MARKER}\n{comment_key(repo)}\n{text}"
    if len(body) > COMMENT_LIMIT:  # report.render caps at 65,000; a hand-edited report might not
        body = body[: COMMENT_LIMIT - 80] + "\n\n_Truncated to GitHub's comment limit._\n"
    return body


def token_login(gh: Github) -> str | None:
    """The login of the token's own user, or None for an installation token (GitHub: 403 on /user)."""
    from github import GithubException

    try:
        return gh.get_user().login
    except GithubException as exc:
        if exc.status in (403, 404):
            return None
        raise


def is_ours(comment: IssueComment, own_login: str | None, repo: str) -> bool:
    """A comment we may edit or delete: the marker, this repository's key, and we wrote it."""
    lines = (comment.body or "").lstrip().splitlines()
    if lines[:2] != [MARKER, comment_key(repo)]:
        return False
    user = comment.user
    if user is None:
        return False
    if own_login is not None and user.login == own_login:
        return True
    return user.login == (os.environ.get(AUTHOR_ENV) or ACTIONS_BOT) and user.type == "Bot"


def upsert_comment(repo: str, pr: int, report: str, token: str, api_url: str | None = None) -> CommentResult:
    """Create or edit the sticky comment on PR `pr` of `repo` (OWNER/NAME)."""
    body = sticky_body(report, repo)
    with _client(token, api_url) as gh, _answers(repo, pr, api_url) as refused:
        issue = gh.get_repo(repo).get_issue(pr)
        own_login = token_login(gh)
        ours = [c for c in issue.get_comments() if is_ours(c, own_login, repo)]
        if not ours:
            created = issue.create_comment(body)
            return CommentResult("created", created.html_url)
        ours[0].edit(body)
        for duplicate in ours[1:]:
            duplicate.delete()
        return CommentResult("updated", ours[0].html_url, len(ours) - 1)
    return CommentResult("forbidden", message=refused.message)


def post_reply(repo: str, pr: int, body: str, token: str, api_url: str | None = None) -> CommentResult:
    """A new comment on PR `pr` (never the sticky one, which holds the verdict): an answer to a
    command someone typed, such as a refused `/evals continue`."""
    with _client(token, api_url) as gh, _answers(repo, pr, api_url) as refused:
        created = gh.get_repo(repo).get_issue(pr).create_comment(body[: COMMENT_LIMIT - 80])
        return CommentResult("created", created.html_url)
    return CommentResult("forbidden", message=refused.message)


@contextmanager
def _client(token: str, api_url: str | None) -> Iterator[Github]:
    """A PyGithub client for a few requests, closed after them."""
    # PyGithub loads in a fifth of a second; only the commands that comment pay for it.
    from github import Auth, Github

    # Few requests per call, so no pause between reads; writes keep PyGithub's default spacing.
    gh = Github(
        auth=Auth.Token(token), base_url=api_url or DEFAULT_API_URL, seconds_between_requests=None, lazy=True
    )
    try:
        yield gh
    finally:
        gh.close()


@dataclass
class _Refusal:
    message: str = ""


@contextmanager
def _answers(repo: str, pr: int, api_url: str | None) -> Iterator[_Refusal]:
    """GitHub's error answers as this project's errors. A 403 is not raised: it is what a fork PR's
    read-only token gets, so the caller returns "forbidden" with GitHub's message."""
    from github import GithubException
    from requests.exceptions import RetryError

    refusal = _Refusal()
    try:
        yield refusal
    except GithubException as exc:
        message = exc.data.get("message", "") if isinstance(exc.data, dict) else str(exc.data)
        if exc.status == 403:
            refusal.message = message or "forbidden"
            return
        if exc.status == 401:
            raise BadInputError(f"GitHub refused the token (401): {message}") from exc
        if exc.status == 404:
            raise BadInputError(f"{repo}#{pr}: not found, or not visible to the token (404)") from exc
        raise InfrastructureError(f"GitHub comment failed: {exc.status} {message}") from exc
    except RetryError as exc:  # PyGithub retries 5xx; what is left is GitHub answering, with errors
        raise InfrastructureError(
            f"GitHub answered with server errors (5xx) at {api_url or DEFAULT_API_URL} after retries; "
            f"the comment was not posted (the report is in report.md); re-run the job later: {exc}"
        ) from exc
    except OSError as exc:
        raise InfrastructureError(f"GitHub unreachable at {api_url or DEFAULT_API_URL}: {exc}") from exc
