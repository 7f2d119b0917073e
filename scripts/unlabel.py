"""Remove the `run-evals` label from the PR once its evals ran (PyGithub, over GITHUB_API_URL).

Why: the PR workflow triggers only on `labeled`, so removing the label means a later push is not
evaluated until someone has looked at it and labels it again; secrets never run on unreviewed code.
A label already gone (removed by hand, or by a rerun of this job) is not an error.
Inputs (env): GITHUB_TOKEN, GITHUB_REPOSITORY, PR_NUMBER, EVALS_LABEL (default run-evals),
GITHUB_API_URL (default https://api.github.com).
"""

from __future__ import annotations

import os
import sys

from github import Auth, Github, GithubException


def main() -> int:
    label = os.environ.get("EVALS_LABEL", "run-evals")
    number = int(os.environ["PR_NUMBER"])
    api = os.environ.get("GITHUB_API_URL", "https://api.github.com")
    gh = Github(base_url=api, auth=Auth.Token(os.environ["GITHUB_TOKEN"]))
    issue = gh.get_repo(os.environ["GITHUB_REPOSITORY"], lazy=True).get_issue(number)
    try:
        issue.remove_from_labels(label)
    except GithubException as exc:
        if exc.status != 404:
            raise
        print(f"PR #{number} no longer has the {label} label")
        return 0
    print(f"Removed the {label} label from PR #{number}: label it again to evaluate new commits")
    return 0


if __name__ == "__main__":
    sys.exit(main())
