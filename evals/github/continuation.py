"""`/evals continue`: a maintainer's comment that continues an inconclusive PR run, never a fresh one.

An inconclusive verdict used to be a dead end: labelling again started a fresh run, threw the
sequential state away and, repeated until green, inflated false alarms. Now the PR's verdict job
leaves a state line in the report when the verdict is inconclusive (`state_line`: the workflow run
whose artifact holds the run, the run directory's name, the head SHA that was evaluated, how often it
was continued, and a digest of the ruler: the eval definition and baseline it was compared under);
the publish job posts it inside the sticky comment. A comment `/evals continue` on the PR starts the
workflow on `issue_comment`, and `evals github context` (through `continue_context`) decides, from
the base checkout and the API, whether it may go on:

- the comment is on a pull request and its first line is the command;
- its author has write access (admin, maintain or write: the legacy `permission` GitHub answers is
  `admin` or `write` for those), the same trust as the `run-evals` label, whose environment's
  reviewers still approve the job that holds the key;
- the PR comes from this repository and targets the default branch, as for the label;
- the sticky comment (ours: marker, key and author, evals/github/comment.py) carries a state line,
  so the last verdict was inconclusive;
- the workflow run that state names is, by GitHub's API (never by the comment's word), a finished
  run of this repository's PR workflow (the same file as the one running now), started by
  `pull_request_target` or `issue_comment` (the events whose workflow GitHub takes from the default
  branch, so no branch's edited copy of the file), on the default branch, and it holds our own
  artifacts: the run directory (`evals-pr-run`) and the marker the verdict job uploads only for an
  inconclusive verdict of an `evals` job that succeeded, named for this PR, the evaluated head SHA
  and the continuations so far (`inconclusive_artifact`). A state in a comment anyone could post
  (another bot, a person, a workflow of a branch) can therefore only point at a genuine inconclusive
  run of this PR at this head;
- the PR's head is still the SHA that was evaluated: a push in between is refused with a message
  (the continuation runs the same agent; a new head is a fresh run, by the label);
- the ruler digest of this checkout equals the state's: a continuation is compared under the same
  definition and baseline as the looks it continues, or not at all.

A refusal exits 2 with the reason as an `::error` annotation and in the job summary. The state line
is read only from our own comment, and everything it names is checked again downstream: the agent
hash by `run --continue`, the records by the verdict job (evals/github/pr_gate.py), which also holds
the run's continuation count to the one this step computed.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ValidationError

from evals.core.errors import BadInputError, InfrastructureError

if TYPE_CHECKING:
    from evals.core.config import Config

COMMAND = "/evals continue"
STATE_PREFIX = "<!-- agent-evals-gate:continue "
# The events whose workflow file GitHub runs as committed on the default branch: a run started by any
# other (a push to a branch that edits the file, a dispatch on a branch) ran a copy a writer controls.
PR_GATE_EVENTS = ("pull_request_target", "issue_comment")
RUN_ARTIFACT = "evals-pr-run"  # the evals job's upload: the run directory a continuation downloads
WRITE_ACCESS = ("admin", "write")  # GitHub's legacy permission: maintain reads as write, triage as read
RUN_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,200}$")
SHA = re.compile(r"^[0-9a-f]{40}$")


class Refused(BadInputError):
    """A `/evals continue` that may not go on: the message says why, for the person who asked."""


@dataclass(frozen=True)
class RunState:
    """What an inconclusive PR verdict leaves for its continuation, inside the sticky comment."""

    workflow_run: str  # the Actions run whose `evals-pr-run` artifact holds the run directory
    run_dir: str  # the run directory's name (runs/<name>)
    head_sha: str  # the PR head that was evaluated: a continuation runs this agent only
    continuations: int  # how often the run was continued so far
    ruler: str  # digest of the eval definition and baseline the run was compared under

    def line(self) -> str:
        data = {
            "workflow_run": self.workflow_run,
            "run_dir": self.run_dir,
            "head_sha": self.head_sha,
            "continuations": self.continuations,
            "ruler": self.ruler,
        }
        return f"{STATE_PREFIX}{json.dumps(data, sort_keys=True)} -->"


def read_state(body: str) -> RunState | None:
    """The state line of a comment or report, validated (None when it has none or it is malformed)."""
    lines = [line for line in body.splitlines() if line.startswith(STATE_PREFIX) and line.endswith("-->")]
    if not lines:
        return None
    try:
        data = json.loads(lines[-1][len(STATE_PREFIX) : -3])
        state = RunState(
            workflow_run=str(data["workflow_run"]),
            run_dir=str(data["run_dir"]),
            head_sha=str(data["head_sha"]),
            continuations=int(data["continuations"]),
            ruler=str(data["ruler"]),
        )
    except (ValueError, KeyError, TypeError):
        return None
    valid = (
        state.workflow_run.isdigit()
        and RUN_NAME.match(state.run_dir) is not None
        and SHA.match(state.head_sha) is not None
        and state.continuations >= 0
    )
    return state if valid else None


def inconclusive_artifact(number: int, head_sha: str, continuations: int) -> str:
    """The name of the marker artifact the verdict job uploads for an inconclusive verdict (only when
    the `evals` job succeeded). Its name is written by the workflow from the `context` job's outputs,
    never by the agent or a commenter, so finding it in a run's artifact list proves the run left
    an inconclusive verdict for this PR at this head after that many continuations."""
    return f"evals-pr-inconclusive-{number}-{head_sha}-{continuations}"


def workflow_file(ref: str) -> str:
    """The repository path of a workflow from GitHub's spellings of it: `.github/workflows/x.yml` (a
    run's `path`), or `OWNER/REPO/.github/workflows/x.yml@REF` (GITHUB_WORKFLOW_REF, and the form the
    API's examples show for `path`)."""
    path = ref.split("@", 1)[0]
    where = path.find(".github/workflows/")
    return path[where:] if where >= 0 else path


def ruler_digest(root: Path, config: Config, scenarios: list[str]) -> str:
    """A digest of what measures these scenarios in this checkout (`root`, whose evals.yaml is
    `config`): the eval definition's fingerprint and the baseline file. Equal digests mean a
    continuation is compared as the run it continues."""
    from evals.definition import load_definition

    definition = load_definition(root, config, scenarios, with_judge=False)
    baseline = definition.baseline_path.read_bytes() if definition.baseline_path.is_file() else b""
    text = json.dumps(definition.fingerprint(), sort_keys=True, default=str).encode() + b"\0" + baseline
    return hashlib.sha256(text).hexdigest()[:32]


def is_command(body: str) -> bool:
    """The comment's first non-blank line is `/evals continue` (and nothing else)."""
    first = next((line.strip() for line in body.splitlines() if line.strip()), "")
    return first == COMMAND


class _User(BaseModel):
    login: str


class _Comment(BaseModel):
    body: str
    user: _User


class _Issue(BaseModel):
    number: int
    pull_request: dict[str, Any] | None = None  # present when the issue is a pull request


class _Repo(BaseModel):
    full_name: str
    default_branch: str | None = None


class _CommentEvent(BaseModel):
    """The subset of the `issue_comment` webhook payload we read; other fields are ignored."""

    action: str
    issue: _Issue
    comment: _Comment
    repository: _Repo


def refusal_reply(reason: str, login: str, run_link: str) -> str:
    """The PR reply to a refused `/evals continue`. The refusal's `::error` and job summary are in
    an Actions run no one who typed the command looks at (an issue_comment run shows on no PR check),
    so the person gets the answer where they asked. The reason quotes names from the PR (branches,
    logins): an `@` in it is broken so the reply mentions only the person who asked."""
    quoted = reason.replace("@", "@\u200b")
    link = f"\n\n[The workflow run]({run_link}) has the details." if run_link else ""
    return f"@{login} `{COMMAND}` was not continued:\n\n> {quoted}{link}\n"


def read_comment_event(data: dict[str, Any], path: Path) -> _CommentEvent:
    try:
        return _CommentEvent.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise BadInputError(f"{path}: not an issue_comment event payload ({where}: {first['msg']})") from exc


@dataclass(frozen=True)
class Continuation:
    """A `/evals continue` that may go on: what the workflow's jobs need to continue the same run."""

    number: int
    head_sha: str
    repository: str
    state: RunState

    def outputs(self) -> dict[str, str]:
        return {
            "number": str(self.number),
            "label": "",
            "fork": "false",
            "head_sha": self.head_sha,
            "base_sha": "",
            "repository": self.repository,
            "continue_from": self.state.workflow_run,
            "run_dir": f"runs/{self.state.run_dir}",
            "continuations": str(self.state.continuations + 1),
        }


def continue_context(
    event: _CommentEvent,
    root: Path,
    config: Config,
    scenarios: list[str],
    token: str,
    api_url: str,
    workflow: str,
) -> Continuation:
    """Check a `/evals continue` comment against the PR, its commenter and the last verdict.
    `workflow` is the running workflow's file (GITHUB_WORKFLOW_REF): the run to continue must be a
    run of the same file."""
    from github import Auth, Github, GithubException

    if event.action != "created" or event.issue.pull_request is None or not is_command(event.comment.body):
        raise Refused(f"#{event.issue.number}: not a `{COMMAND}` comment on a pull request")
    repo_name, login = event.repository.full_name, event.comment.user.login
    gh = Github(auth=Auth.Token(token), base_url=api_url, seconds_between_requests=None, lazy=True)
    try:
        repo = gh.get_repo(repo_name)
        permission = repo.get_collaborator_permission(login)
        if permission not in WRITE_ACCESS:
            raise Refused(
                f"{login} has {permission} access to {repo_name}: `{COMMAND}` needs write access, "
                "as the run-evals label's trust rule does"
            )
        pr = repo.get_pull(event.issue.number)
        state = _last_state(gh, repo, pr.number, repo_name)
        default_branch = event.repository.default_branch or repo.default_branch
        _check_pull(pr, repo_name, default_branch, state)
        _check_run(repo, repo_name, default_branch, pr.number, state, workflow_file(workflow))
    except GithubException as exc:
        raise InfrastructureError(f"GitHub answered {exc.status} while checking `{COMMAND}`") from exc
    except OSError as exc:
        raise InfrastructureError(f"GitHub unreachable at {api_url}: {exc}") from exc
    finally:
        gh.close()
    if ruler_digest(root, config, scenarios) != state.ruler:
        raise Refused(
            "the default branch's eval definition or baseline changed since the inconclusive run: its "
            "looks were made under the old ruler and cannot be continued under the new one; label the "
            "PR run-evals for a fresh run"
        )
    return Continuation(pr.number, pr.head.sha, repo_name, state)


def _last_state(gh: Any, repo: Any, number: int, repo_name: str) -> RunState:
    """The state line of our sticky comment (marker, key and author: evals/github/comment.py)."""
    from evals.github.comment import is_ours, token_login

    own = token_login(gh)
    ours = [c for c in repo.get_issue(number).get_comments() if is_ours(c, own, repo_name)]
    state = read_state(ours[0].body or "") if ours else None
    if state is None:
        raise Refused(
            f"PR #{number} has no inconclusive agent-evals run to continue (its last verdict is decided, "
            "or it has none): label it run-evals for a fresh run"
        )
    return state


def _check_pull(pr: Any, repo_name: str, default_branch: str | None, state: RunState) -> None:
    """Refuse a fork, another base, or a head that moved since the evaluated SHA."""
    head_repo = pr.head.repo.full_name if pr.head.repo is not None else None
    if head_repo != repo_name:
        raise Refused(f"PR #{pr.number} comes from {head_repo or 'a deleted fork'}: forks are never run")
    if default_branch is not None and pr.base.ref != default_branch:
        raise Refused(f"PR #{pr.number} targets {pr.base.ref}, not the default branch {default_branch}")
    if pr.head.sha != state.head_sha:
        raise Refused(
            f"PR #{pr.number}'s head moved from {state.head_sha[:12]} to {pr.head.sha[:12]} since the "
            "inconclusive run: a continuation runs the agent that was evaluated, and new commits need a "
            "review and a fresh run (label the PR run-evals)"
        )


def _check_run(
    repo: Any, repo_name: str, default_branch: str, number: int, state: RunState, workflow: str
) -> None:
    """The state's workflow run, as GitHub's API describes it: a finished run of `workflow` in this
    repository, started by an event that runs the default branch's copy of it, holding the run
    directory and the inconclusive marker for this PR, head and count. The state line is text in a
    comment; this is what makes it ours. GitHub gives a run started by `pull_request_target` or
    `issue_comment` the default branch's commit as `head_sha` (the workflow's version, not the PR's
    head), so the PR head is bound through the marker's name, which only our workflow writes."""
    from github import GithubException

    if not state.run_dir.startswith(f"pr-{number}-"):
        raise Refused(f"the state names run directory {state.run_dir}, which is not PR #{number}'s")
    try:
        run = repo.get_workflow_run(int(state.workflow_run))
        path, event, branch = run.path, run.event, run.head_branch
        status, conclusion = run.status, run.conclusion
        owner = run.repository.full_name if run.repository is not None else None
        artifacts = {a.name for a in run.get_artifacts() if not a.expired}
    except GithubException as exc:
        if exc.status != 404:
            raise
        raise Refused(f"workflow run {state.workflow_run} is not a run of {repo_name} (404)") from exc
    facts = f"workflow run {state.workflow_run} ({path or 'no path'}, {event}, on {branch})"
    if owner != repo_name or workflow_file(path or "") != workflow:
        raise Refused(f"{facts} is not a run of this repository's PR workflow ({workflow})")
    if event not in PR_GATE_EVENTS or branch != default_branch:
        raise Refused(
            f"{facts} did not run the default branch's workflow ({' or '.join(PR_GATE_EVENTS)} on "
            f"{default_branch}): its artifacts are not the gate's"
        )
    if status != "completed" or conclusion not in ("success", "failure"):
        raise Refused(
            f"{facts} did not finish (status {status}, conclusion {conclusion}): nothing to continue"
        )
    marker = inconclusive_artifact(number, state.head_sha, state.continuations)
    missing = [name for name in (RUN_ARTIFACT, marker) if name not in artifacts]
    if missing:
        raise Refused(
            f"{facts} holds no {' and no '.join(missing)}: it left no inconclusive verdict of PR #{number} "
            f"at {state.head_sha[:12]} after {state.continuations} continuation(s) (or its artifacts "
            "expired): label the PR run-evals for a fresh run"
        )
