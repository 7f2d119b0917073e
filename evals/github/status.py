"""The required commit status `agent-evals` on the PR's head SHA: its states and how it is posted.

Branch protection requires this context; the verdict job (no secrets, no agent code) posts it,
after the verdict is computed by the base's definition (evals/github/pr_gate.py).
"""

from __future__ import annotations

import os

STATUS_CONTEXT = "agent-evals"  # the commit status to mark required in branch protection
# Commit status states (GitHub: error, failure, pending, success) for each verdict.
STATES = {
    "pass": "success",
    "inconclusive": "success",
    "regression": "failure",
    "not-comparable": "failure",
    "error": "error",
}
DESCRIPTION_LIMIT = 140  # GitHub's limit for a commit status description


def post_status(repo: str, sha: str, state: str, description: str, target_url: str) -> str:
    """Create the required commit status on `sha` (PyGithub, over GITHUB_API_URL)."""
    from github import Auth, Github

    api = os.environ.get("GITHUB_API_URL", "https://api.github.com")
    gh = Github(base_url=api, auth=Auth.Token(os.environ["GITHUB_TOKEN"]), lazy=True)
    try:
        commit = gh.get_repo(repo).get_commit(sha)
        created = commit.create_status(
            state,
            target_url=target_url or "",
            description=description[:DESCRIPTION_LIMIT],
            context=STATUS_CONTEXT,
        )
        return created.state
    finally:
        gh.close()


def run_url() -> str:
    server, repo, run = (
        os.environ.get(k) for k in ("GITHUB_SERVER_URL", "GITHUB_REPOSITORY", "GITHUB_RUN_ID")
    )
    return f"{server}/{repo}/actions/runs/{run}" if server and repo and run else ""
