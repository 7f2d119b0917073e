"""`comment`: post a run's report as the PR's one sticky comment (edited in place on later runs)."""

from __future__ import annotations

import argparse
import os
import re
import sys
from pathlib import Path

from evals.errors import BadInputError, ExitCode

REPO_NAME = re.compile(r"^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$")


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = sub.add_parser(
        "comment",
        help="post the run's report as one sticky PR comment (token: GITHUB_TOKEN, API: GITHUB_API_URL)",
    )
    parser.add_argument(
        "--run",
        type=Path,
        required=True,
        metavar="DIR",
        help="run directory holding report.md (written under runs/ by `evals run`)",
    )
    parser.add_argument("--repo", required=True, help="OWNER/NAME")
    parser.add_argument("--pr", type=int, required=True, help="pull request number")
    parser.set_defaults(handler=handle)


def handle(args: argparse.Namespace) -> ExitCode:
    from evals.github_comment import job_summary_url, upsert_comment

    if not REPO_NAME.match(args.repo):
        raise BadInputError(f"--repo {args.repo!r}: expected OWNER/NAME")
    if args.pr < 1:
        raise BadInputError("--pr must be a positive pull request number")
    report_path = args.run / "report.md"
    if not report_path.is_file():
        raise BadInputError(f"{report_path}: no report; run or compare first")
    token = os.environ.get("GITHUB_TOKEN", "")
    if not token:
        raise BadInputError("GITHUB_TOKEN is not set: the comment needs a token with pull-requests: write")
    result = upsert_comment(
        args.repo, args.pr, report_path.read_text(encoding="utf-8"), token, os.environ.get("GITHUB_API_URL")
    )
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
