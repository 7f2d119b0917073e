"""The issue-comment fake (tests/support/fakes/github_issues.py) plus the PR's labels and commit statuses,
for the PR workflow's dry run: its verdict job posts the `agent-evals` commit status on the head SHA
(`POST /repos/{owner}/{repo}/statuses/{sha}`, answered in GitHub's documented shape: 201 with the
status; 422 for a state other than error, failure, pending or success), the sticky comment, and
then removes the `run-evals` label."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import unquote

from tests.support.fakes.github_issues import FakeGitHubIssues

STATES = ("error", "failure", "pending", "success")


class FakeGitHubPR(FakeGitHubIssues):
    def __init__(self, owner: str, repo: str, pulls: set[int], token: str) -> None:
        super().__init__(owner, repo, pulls, token)
        self.labels: dict[int, list[str]] = {number: [] for number in pulls}
        self.statuses: dict[str, list[dict[str, Any]]] = {}

    def __enter__(self) -> FakeGitHubPR:
        super().__enter__()
        return self

    def label(self, number: int, name: str) -> None:
        with self.lock:
            if name not in self.labels[number]:
                self.labels[number].append(name)

    def status(self, sha: str, context: str) -> dict[str, Any] | None:
        """The latest status for `context` on `sha`, as GitHub's combined status would show it."""
        found = [s for s in self.statuses.get(sha, []) if s["context"] == context]
        return found[-1] if found else None

    def create_status(self, sha: str, body: dict[str, Any]) -> tuple[int, Any, dict[str, str]]:
        if self.state.read_only:
            return 403, {"message": "Resource not accessible by integration"}, {}
        if body.get("state") not in STATES:
            return (
                422,
                {"message": "Validation Failed", "errors": [{"field": "state", "code": "invalid"}]},
                {},
            )
        number = sum(len(v) for v in self.statuses.values()) + 1
        full = f"{self.state.owner}/{self.state.repo}"
        status = {
            "url": f"{self.url}/repos/{full}/statuses/{sha}",
            "avatar_url": "https://avatars.githubusercontent.com/in/15368?v=4",
            "id": number,
            "node_id": f"SC_{number}",
            "state": body["state"],
            "description": body.get("description"),
            "target_url": body.get("target_url"),
            "context": body.get("context", "default"),
            "created_at": "2026-11-30T00:00:00Z",
            "updated_at": "2026-11-30T00:00:00Z",
            "creator": self.user_json(self.state.login, "Bot"),
        }
        self.statuses.setdefault(sha, []).append(status)
        return 201, status, {}

    def handle(
        self, method: str, path: str, query: dict[str, list[str]], body: Any
    ) -> tuple[int, Any, dict[str, str]]:
        base = re.escape(f"/repos/{self.state.owner}/{self.state.repo}")
        if (m := re.fullmatch(base + r"/statuses/([0-9a-f]{40})", path)) and method == "POST":
            self.state.requests.append((method, path))
            return self.create_status(m[1], body or {})
        if m := re.fullmatch(base + r"/issues/(\d+)/labels/(.+)", path):
            self.state.requests.append((method, path))
            number, name = int(m[1]), unquote(m[2])
            if method != "DELETE" or number not in self.labels:
                return 404, {"message": "Not Found"}, {}
            if name not in self.labels[number]:
                return 404, {"message": "Label does not exist"}, {}
            self.labels[number].remove(name)
            return 200, [{"name": n} for n in self.labels[number]], {}
        return super().handle(method, path, query, body)
