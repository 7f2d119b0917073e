"""The PR workflow's steps as functions (`evals github STEP` parses the flags and calls one).

Each reads only what Actions gives a step: the event payload (evals/github/event.py owns
`$GITHUB_EVENT_PATH`), `GITHUB_TOKEN`, `GITHUB_REPOSITORY`, `GITHUB_API_URL`, and writes its
`key=value` results to stdout and `$GITHUB_OUTPUT`. They live here, beside the GitHub logic they
drive, so the command package stays parsing only and a step can be called from a test as it runs
in a workflow.
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

from evals.core.errors import BadInputError

API_URL = "https://api.github.com"
REPO_NAME = re.compile(r"^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$")


def token() -> str:
    """The workflow's GITHUB_TOKEN; a step that talks to GitHub without one is bad input."""
    found = os.environ.get("GITHUB_TOKEN", "")
    if not found:
        raise BadInputError("GITHUB_TOKEN is not set")
    return found


def write_outputs(lines: list[str], echo: bool = True) -> None:
    """Print `key=value` lines, and append them to $GITHUB_OUTPUT when the workflow gives one."""
    if echo:
        print("\n".join(lines))
    if os.environ.get("GITHUB_OUTPUT"):
        with open(os.environ["GITHUB_OUTPUT"], "a", encoding="utf-8") as handle:
            handle.write("\n".join(lines) + "\n")


def context(
    event: Path | None, *, require_label: str | None, refuse_fork: bool, require_default_base: bool
) -> None:
    """`github context`: the PR's number, label, fork, SHAs from a `pull_request` event, refused
    (BadInputError) when this job should not run; a `/evals continue` comment goes to `resume`."""
    from evals.github.event import check, event_path, read_payload, read_pull_request_event

    path = event_path(event)
    data = read_payload(path)
    if "comment" in data and "issue" in data:
        resume(data, path)
        return
    ctx = read_pull_request_event(path)
    check(
        ctx,
        require_label=require_label,
        refuse_fork=refuse_fork,
        require_default_base=require_default_base,
    )
    write_outputs([f"{key}={value}" for key, value in ctx.outputs().items()])


def resume(data: dict[str, object], path: Path) -> None:
    """An `issue_comment` event: a `/evals continue` comment, checked against the PR, its author and
    the last verdict (evals/github/continuation.py); a refusal is exit 2 with the reason shown."""
    from evals.core.config import load_config
    from evals.core.untrusted import console_line
    from evals.github.continuation import Refused, continue_context, read_comment_event
    from evals.github.pr_gate import expected_scenarios
    from evals.report.job_summary import append_job_summary

    event = read_comment_event(data, path)
    config, root = load_config(Path.cwd())
    # The running workflow's file (the caller's: `github` is the caller's context in a reusable
    # workflow): the run to continue must be a run of the same file. Actions always sets it.
    workflow = os.environ.get("GITHUB_WORKFLOW_REF", "")
    if not workflow:
        raise BadInputError("GITHUB_WORKFLOW_REF is not set: which workflow runs is not known")
    try:
        found = continue_context(
            event,
            root,
            config,
            expected_scenarios(config),
            token(),
            os.environ.get("GITHUB_API_URL") or API_URL,
            workflow,
        )
    except Refused as exc:
        reason = console_line(str(exc))
        print(f"::error title=Agent evals - not continued::{reason}")
        append_job_summary(f"## Agent evals: `/evals continue` refused\n\n{reason}\n")
        write_outputs([f"refused={reason}"], echo=False)  # the workflow's `refusal` job replies on the PR
        raise
    write_outputs([f"{key}={value}" for key, value in found.outputs().items()])


def reply_refused(event: Path | None, reason: str) -> None:
    """`github reply-refused`: answer a refused `/evals continue` on its PR, where the person asked."""
    from evals.core.untrusted import console_line
    from evals.github.comment import post_reply
    from evals.github.continuation import read_comment_event, refusal_reply
    from evals.github.event import event_path, read_payload
    from evals.github.status import run_url

    path = event_path(event)
    if not reason.strip():
        raise BadInputError("--reason is empty: nothing was refused, so there is nothing to answer")
    comment = read_comment_event(read_payload(path), path)
    if comment.issue.pull_request is None:
        raise BadInputError(f"#{comment.issue.number} is an issue, not a pull request: no reply")
    body = refusal_reply(reason.strip(), comment.comment.user.login, run_url())
    repo, number = comment.repository.full_name, comment.issue.number
    result = post_reply(repo, number, body, token(), os.environ.get("GITHUB_API_URL"))
    if result.action == "forbidden":
        why = console_line(result.message)
        print(f"::warning title=Agent evals - no reply::GitHub refused the reply (403: {why})")
        return
    print(f"replied on #{number}: {result.url}")


def take_agent(root: Path, head: Path, agent: str | None) -> None:
    """`github take-agent`: the PR head's agent under test replaces this checkout's."""
    from evals.core.config import load_config
    from evals.github.pr_head import take_agent as take

    if not head.is_dir():  # a missing head would take "nothing" and delete this checkout's agent/
        raise BadInputError(f"--head {head}: no such directory (the PR head's checkout)")
    spec = agent or os.environ.get("EVALS_AGENT") or load_config(root)[0].agent
    for name in take(root, head, spec):
        print(f"agent under test: {name} from the PR head")


def verdict(run: Path, head: Path | None, root: Path) -> None:
    """`github verdict`: the PR's verdict as `$GITHUB_OUTPUT` lines (evals/github/pr_gate.py)."""
    from evals.github.pr_gate import gate

    result = gate(run, head, root)
    write_outputs([f"{key}={value}" for key, value in result.outputs().items()])


def status(sha: str, state: str, description: str) -> None:
    """`github status`: the required `agent-evals` commit status on the head SHA."""
    from evals.github.status import STATUS_CONTEXT, post_status, run_url

    repo = os.environ.get("GITHUB_REPOSITORY", "")
    if not REPO_NAME.match(repo):
        raise BadInputError(f"GITHUB_REPOSITORY {repo!r}: expected OWNER/NAME")
    posted = post_status(repo, sha, state, description, run_url())
    print(f"{STATUS_CONTEXT}: {posted} on {sha[:12]}")


def comment(run: Path, repo: str, pr: int, missing_is_error: bool) -> None:
    """`github comment`: the run's report as the PR's one sticky comment; where the token may not
    comment (a fork's PR), a warning pointing at the job summary instead."""
    from evals.core.untrusted import console_line
    from evals.github.comment import job_summary_url, missing_report, upsert_comment
    from evals.records.rundir import RunDir

    if not REPO_NAME.match(repo):
        raise BadInputError(f"--repo {repo!r}: expected OWNER/NAME")
    if pr < 1:
        raise BadInputError("--pr must be a positive pull request number")
    rd = RunDir(run)
    report = rd.read_report()
    if report is None and missing_is_error:
        report = missing_report()
    # The workflow's word on the job that measured (EVALS_JOB_RESULT: needs.evals.result). A failed
    # evals job's run did not finish: whatever report is at hand is not its verdict.
    measured = os.environ.get("EVALS_JOB_RESULT", "success")
    if measured != "success":
        report = missing_report(f"The evals job ended in `{console_line(measured)}`: nothing was measured")
    if report is None:
        raise BadInputError(f"{rd.report_path}: no report; run or compare first")
    found = os.environ.get("GITHUB_TOKEN", "")
    if not found:
        raise BadInputError("GITHUB_TOKEN is not set: the comment needs a token with pull-requests: write")
    result = upsert_comment(repo, pr, report, found, os.environ.get("GITHUB_API_URL"))
    if result.action == "forbidden":
        where = job_summary_url() or "this run's job summary"
        print(
            "::warning title=Agent evals - no PR comment::"
            f"GitHub refused the comment (403: {result.message}); "
            "the token is read-only here (e.g. a PR from a fork). "
            f"The report is in the job summary: {where}"
        )
        return
    extra = f", removed {result.removed_duplicates} duplicate(s)" if result.removed_duplicates else ""
    print(f"PR comment {result.action}: {result.url}{extra}")
    sys.stdout.flush()


def unlabel(pr: int, label: str) -> None:
    """`github unlabel`: the run-evals label off the PR once the evals ran."""
    from evals.github.label import remove_label

    repo = os.environ.get("GITHUB_REPOSITORY", "")
    removed = remove_label(repo, pr, label, token(), os.environ.get("GITHUB_API_URL"))
    if removed:
        print(f"Removed the {label} label from PR #{pr}: label it again to evaluate new commits")
    else:
        print(f"PR #{pr} no longer has the {label} label")
