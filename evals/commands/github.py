"""`github …`: the steps of the PR workflow, run from the base checkout (docs/github.md, docs/security.md).

    github context      read the event payload: PR number, label, fork, SHAs (for $GITHUB_OUTPUT)
    github take-agent   replace this checkout's agent under test by the PR head's
    github verdict      the PR's verdict by this checkout's definition, from the trials' records
    github status       post the required `agent-evals` commit status on the head SHA
    github comment      post the run's report as the PR's one sticky comment
    github unlabel      remove the `run-evals` label once the evals ran
    github reply-refused  answer a refused `/evals continue` on its PR (where the person asked)

Each needs only the environment the workflow gives it (GITHUB_EVENT_PATH, GITHUB_TOKEN,
GITHUB_REPOSITORY, GITHUB_API_URL, GITHUB_OUTPUT); each step is a function of evals/github/steps.py.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from evals.core.errors import ExitCode


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


def handle_context(args: argparse.Namespace) -> ExitCode:
    from evals.github.steps import context

    context(
        args.event,
        require_label=args.require_label,
        refuse_fork=args.refuse_fork,
        require_default_base=args.require_default_base,
    )
    return ExitCode.PASS


def handle_reply_refused(args: argparse.Namespace) -> ExitCode:
    from evals.github.steps import reply_refused

    reply_refused(args.event, args.reason)
    return ExitCode.PASS


def handle_take_agent(args: argparse.Namespace) -> ExitCode:
    from evals.github.steps import take_agent

    take_agent(Path.cwd(), args.head, args.agent)
    return ExitCode.PASS


def handle_verdict(args: argparse.Namespace) -> ExitCode:
    """Always exit 0 once the verdict is known: the status must be posted whatever it says; the
    workflow's last step fails with the verdict's exit code."""
    from evals.github.steps import verdict

    verdict(args.run, args.head, Path.cwd())
    return ExitCode.PASS


def handle_status(args: argparse.Namespace) -> ExitCode:
    from evals.github.steps import status

    status(args.sha, args.state, args.description)
    return ExitCode.PASS


def handle_comment(args: argparse.Namespace) -> ExitCode:
    from evals.github.steps import comment

    comment(args.run, args.repo, args.pr, args.missing_is_error)
    return ExitCode.PASS


def handle_unlabel(args: argparse.Namespace) -> ExitCode:
    from evals.github.steps import unlabel

    unlabel(args.pr, args.label)
    return ExitCode.PASS
