"""`github …`: the steps of the PR workflow, run from the base checkout (docs/github.md, docs/security.md).

    github context      read the event payload: PR number, label, fork, SHAs (for $GITHUB_OUTPUT)
    github take-agent   replace this checkout's agent under test by the PR head's
    github verdict      the PR's verdict by this checkout's definition, from the trials' records
    github status       post the required `agent-evals` commit status on the head SHA
    github comment      post the run's report as the PR's one sticky comment
    github unlabel      remove the `run-evals` label once the evals ran
    github reply-refused  answer a refused `/evals continue` on its PR (where the person asked)

Each needs only the environment the workflow gives it (GITHUB_EVENT_PATH, GITHUB_TOKEN,
GITHUB_REPOSITORY, GITHUB_API_URL, GITHUB_OUTPUT); the logic is in evals/github/.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from pathlib import Path

from evals.core.errors import BadInputError, ExitCode

API_URL = "https://api.github.com"
REPO_NAME = re.compile(r"^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$")


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = sub.add_parser(
        "github",
        help="the PR workflow's steps: context, take-agent, verdict, status, comment, unlabel, reply-refused",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    inner = parser.add_subparsers(dest="github_command", required=True, metavar="STEP")
    context = inner.add_parser("context", help="read the pull_request event; refuse the wrong one (exit 2)")
    context.add_argument("--event", type=Path, help="payload file (default: $GITHUB_EVENT_PATH)")
    context.add_argument("--require-label", help="exit 2 unless the event's label is this one")
    context.add_argument("--refuse-fork", action="store_true", help="exit 2 for a PR from another repository")
    context.add_argument(
        "--require-default-base", action="store_true", help="exit 2 for a PR into a non-default branch"
    )
    context.set_defaults(handler=handle_context)
    take = inner.add_parser("take-agent", help="replace the agent under test by the PR head's")
    take.add_argument("--head", type=Path, required=True, help="checkout of the PR head (data only)")
    take.add_argument("--agent", default=None, help="agent spec (default: $EVALS_AGENT, else the config's)")
    take.set_defaults(handler=handle_take_agent)
    verdict = inner.add_parser("verdict", help="the PR's verdict from the run, by this checkout's definition")
    verdict.add_argument(
        "--run", type=Path, required=True, metavar="DIR", help="the run the agent job uploaded"
    )
    verdict.add_argument("--head", type=Path, default=None, help="checkout of the PR head, to list its edits")
    verdict.set_defaults(handler=handle_verdict)
    status = inner.add_parser("status", help="post the `agent-evals` commit status")
    status.add_argument("--sha", required=True, help="the labelled head SHA")
    status.add_argument(
        "--state", required=True, choices=["error", "failure", "pending", "success"], help="GitHub's state"
    )
    status.add_argument("--description", default="", help="one line (GitHub cuts it at 140 characters)")
    status.set_defaults(handler=handle_status)
    for name, where in ((inner, "github comment"), (sub, "comment")):
        comment = name.add_parser(
            "comment",
            help="post the run's report as one sticky PR comment (token: GITHUB_TOKEN, API: GITHUB_API_URL)"
            + ("" if where == "github comment" else "; now `evals github comment`"),
        )
        add_comment_args(comment)
    reply = inner.add_parser(
        "reply-refused", help="answer a refused `/evals continue` on its PR (token: GITHUB_TOKEN)"
    )
    reply.add_argument("--event", type=Path, help="the issue_comment payload (default: $GITHUB_EVENT_PATH)")
    reply.add_argument("--reason", required=True, help="why it was refused (the context step's `refused`)")
    reply.set_defaults(handler=handle_reply_refused)
    unlabel = inner.add_parser("unlabel", help="remove the run-evals label from the PR")
    unlabel.add_argument("--pr", type=int, required=True, help="pull request number")
    unlabel.add_argument("--label", default="run-evals", help="the label to remove (default run-evals)")
    unlabel.set_defaults(handler=handle_unlabel)


def add_comment_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--run", type=Path, required=True, metavar="DIR", help="run directory holding report.md"
    )
    parser.add_argument("--repo", required=True, help="OWNER/NAME")
    parser.add_argument("--pr", type=int, required=True, help="pull request number")
    parser.add_argument(
        "--missing-is-error",
        action="store_true",
        help="no report.md (the verdict job did not finish): post that the verdict is an error",
    )
    parser.set_defaults(handler=handle_comment)


def _token() -> str:
    token = os.environ.get("GITHUB_TOKEN", "")
    if not token:
        raise BadInputError("GITHUB_TOKEN is not set")
    return token


def _outputs(lines: list[str], echo: bool = True) -> None:
    """Print `key=value` lines, and append them to $GITHUB_OUTPUT when the workflow gives one."""
    if echo:
        print("\n".join(lines))
    if os.environ.get("GITHUB_OUTPUT"):
        with open(os.environ["GITHUB_OUTPUT"], "a", encoding="utf-8") as handle:
            handle.write("\n".join(lines) + "\n")


def handle_context(args: argparse.Namespace) -> ExitCode:
    from evals.github.event import check, read_payload, read_pull_request_event

    path = args.event or (
        Path(os.environ["GITHUB_EVENT_PATH"]) if os.environ.get("GITHUB_EVENT_PATH") else None
    )
    if path is None:
        raise BadInputError("no event payload: pass --event or set GITHUB_EVENT_PATH")
    data = read_payload(path)
    if "comment" in data and "issue" in data:
        return continue_context(data, path)
    ctx = read_pull_request_event(path)
    check(
        ctx,
        require_label=args.require_label,
        refuse_fork=args.refuse_fork,
        require_default_base=args.require_default_base,
    )
    _outputs([f"{key}={value}" for key, value in ctx.outputs().items()])
    return ExitCode.PASS


def continue_context(data: dict[str, object], path: Path) -> ExitCode:
    """An `issue_comment` event: a `/evals continue` comment, checked against the PR, its author and
    the last verdict (evals/github/continuation.py); a refusal is exit 2 with the reason shown."""
    from evals.core.untrusted import console_line
    from evals.github.continuation import Refused, continue_context, read_comment_event
    from evals.github.pr_gate import expected_scenarios
    from evals.report.job_summary import append_job_summary

    event = read_comment_event(data, path)
    root = Path.cwd()
    try:
        found = continue_context(
            event, root, expected_scenarios(root), _token(), os.environ.get("GITHUB_API_URL") or API_URL
        )
    except Refused as exc:
        reason = console_line(str(exc))
        print(f"::error title=Agent evals - not continued::{reason}")
        append_job_summary(f"## Agent evals: `/evals continue` refused\n\n{reason}\n")
        _outputs([f"refused={reason}"], echo=False)  # the workflow's `refusal` job replies on the PR
        raise
    _outputs([f"{key}={value}" for key, value in found.outputs().items()])
    return ExitCode.PASS


def handle_reply_refused(args: argparse.Namespace) -> ExitCode:
    from evals.core.untrusted import console_line
    from evals.github.comment import post_reply
    from evals.github.continuation import read_comment_event, refusal_reply
    from evals.github.event import read_payload
    from evals.github.status import run_url

    path = args.event or (
        Path(os.environ["GITHUB_EVENT_PATH"]) if os.environ.get("GITHUB_EVENT_PATH") else None
    )
    if path is None:
        raise BadInputError("no event payload: pass --event or set GITHUB_EVENT_PATH")
    if not args.reason.strip():
        raise BadInputError("--reason is empty: nothing was refused, so there is nothing to answer")
    event = read_comment_event(read_payload(path), path)
    if event.issue.pull_request is None:
        raise BadInputError(f"#{event.issue.number} is an issue, not a pull request: no reply")
    body = refusal_reply(args.reason.strip(), event.comment.user.login, run_url())
    repo, number = event.repository.full_name, event.issue.number
    result = post_reply(repo, number, body, _token(), os.environ.get("GITHUB_API_URL"))
    if result.action == "forbidden":
        why = console_line(result.message)
        print(f"::warning title=Agent evals - no reply::GitHub refused the reply (403: {why})")
        return ExitCode.PASS
    print(f"replied on #{number}: {result.url}")
    return ExitCode.PASS


def handle_take_agent(args: argparse.Namespace) -> ExitCode:
    from evals.core.config import load_config
    from evals.github.pr_head import take_agent

    root = Path.cwd()
    if not args.head.is_dir():  # a missing head would take "nothing" and delete this checkout's agent/
        raise BadInputError(f"--head {args.head}: no such directory (the PR head's checkout)")
    spec = args.agent or os.environ.get("EVALS_AGENT") or load_config(root)[0].agent
    for name in take_agent(root, args.head, spec):
        print(f"agent under test: {name} from the PR head")
    return ExitCode.PASS


def handle_verdict(args: argparse.Namespace) -> ExitCode:
    """Always exit 0 once the verdict is known: the status must be posted whatever it says; the
    workflow's last step fails with the verdict's exit code."""
    from evals.github.pr_gate import gate

    result = gate(args.run, args.head, Path.cwd())
    _outputs([f"{key}={value}" for key, value in result.outputs().items()])
    return ExitCode.PASS


def handle_status(args: argparse.Namespace) -> ExitCode:
    from evals.github.status import STATUS_CONTEXT, post_status, run_url

    repo = os.environ.get("GITHUB_REPOSITORY", "")
    if not REPO_NAME.match(repo):
        raise BadInputError(f"GITHUB_REPOSITORY {repo!r}: expected OWNER/NAME")
    state = post_status(repo, args.sha, args.state, args.description, run_url())
    print(f"{STATUS_CONTEXT}: {state} on {args.sha[:12]}")
    return ExitCode.PASS


def handle_comment(args: argparse.Namespace) -> ExitCode:
    from evals.github.comment import job_summary_url, missing_report, upsert_comment
    from evals.records.rundir import RunDir

    if not REPO_NAME.match(args.repo):
        raise BadInputError(f"--repo {args.repo!r}: expected OWNER/NAME")
    if args.pr < 1:
        raise BadInputError("--pr must be a positive pull request number")
    rd = RunDir(args.run)
    report = rd.read_report()
    if report is None and args.missing_is_error:
        report = missing_report()
    if report is None:
        raise BadInputError(f"{rd.report_path}: no report; run or compare first")
    token = os.environ.get("GITHUB_TOKEN", "")
    if not token:
        raise BadInputError("GITHUB_TOKEN is not set: the comment needs a token with pull-requests: write")
    result = upsert_comment(args.repo, args.pr, report, token, os.environ.get("GITHUB_API_URL"))
    if result.action == "forbidden":
        where = job_summary_url() or "this run's job summary"
        print(
            "::warning title=Agent evals - no PR comment::"
            f"GitHub refused the comment (403: {result.message}); "
            "the token is read-only here (e.g. a PR from a fork). "
            f"The report is in the job summary: {where}"
        )
        return ExitCode.PASS
    extra = f", removed {result.removed_duplicates} duplicate(s)" if result.removed_duplicates else ""
    print(f"PR comment {result.action}: {result.url}{extra}")
    sys.stdout.flush()
    return ExitCode.PASS


def handle_unlabel(args: argparse.Namespace) -> ExitCode:
    from evals.github.label import remove_label

    repo = os.environ.get("GITHUB_REPOSITORY", "")
    removed = remove_label(repo, args.pr, args.label, _token(), os.environ.get("GITHUB_API_URL"))
    if removed:
        print(f"Removed the {args.label} label from PR #{args.pr}: label it again to evaluate new commits")
    else:
        print(f"PR #{args.pr} no longer has the {args.label} label")
    return ExitCode.PASS
