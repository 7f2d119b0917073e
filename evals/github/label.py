"""Remove the `run-evals` label once a PR's evals ran (PyGithub, over GITHUB_API_URL).

The PR workflow triggers only on `labeled`, so removing the label means a later push is not
evaluated until someone has looked at it and labels it again: secrets never run on unreviewed
code. A label already gone (removed by hand, or by a rerun of the job) is not an error.
"""

from __future__ import annotations

DEFAULT_API_URL = "https://api.github.com"


def remove_label(repo: str, pr: int, label: str, token: str, api_url: str | None = None) -> bool:
    """Remove `label` from PR `pr`; False when it was not there any more."""
    from github import Auth, Github, GithubException

    gh = Github(base_url=api_url or DEFAULT_API_URL, auth=Auth.Token(token))
    try:
        issue = gh.get_repo(repo, lazy=True).get_issue(pr)
        try:
            issue.remove_from_labels(label)
        except GithubException as exc:
            if exc.status != 404:
                raise
            return False
        return True
    finally:
        gh.close()
