"""The issue-comment fake (tests/support/fakes/github_issues.py) plus the PR's labels and commit statuses,
for the PR workflow's dry run: its verdict job posts the `agent-evals` commit status on the head SHA
(`POST /repos/{owner}/{repo}/statuses/{sha}`, answered in GitHub's documented shape: 201 with the
status; 422 for a state other than error, failure, pending or success), the sticky comment, and
then removes the `run-evals` label. For `/evals continue` it also answers a pull request
(`GET /repos/{owner}/{repo}/pulls/{number}`: the fields of the real `labeled` payload's
`pull_request`, head SHA as `heads` says) and a user's permission
(`GET /repos/{owner}/{repo}/collaborators/{user}/permission`: `permission` and `role_name`, as
documented; `none` for a user not in `permissions`)."""

from __future__ import annotations

import json
import re
from typing import Any
from urllib.parse import unquote

from tests.support.fakes.github_issues import FakeGitHubIssues
from tests.support.paths import FIXTURES

LABELED = FIXTURES / "webhooks" / "pull_request.labeled.json"

STATES = ("error", "failure", "pending", "success")


class FakeGitHubPR(FakeGitHubIssues):
    def __init__(self, owner: str, repo: str, pulls: set[int], token: str) -> None:
        super().__init__(owner, repo, pulls, token)
        self.labels: dict[int, list[str]] = {number: [] for number in pulls}
        self.statuses: dict[str, list[dict[str, Any]]] = {}
        self.heads: dict[int, str] = {}  # PR number -> head SHA (default: the labelled payload's)
        self.permissions: dict[str, str] = {}  # login -> admin | maintain | write | triage | read

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

    def pull_json(self, number: int) -> dict[str, Any]:
        """The PR as `GET /pulls/{number}` answers it: the labelled payload's pull request, re-homed."""
        pull: dict[str, Any] = json.loads(LABELED.read_text(encoding="utf-8"))["pull_request"]
        full = f"{self.state.owner}/{self.state.repo}"
        pull["number"] = number
        pull["url"] = f"{self.url}/repos/{full}/pulls/{number}"
        for side in ("head", "base"):
            pull[side]["repo"] = {**pull[side]["repo"], "full_name": full, "name": self.state.repo}
        pull["head"]["sha"] = self.heads.get(number, pull["head"]["sha"])
        return pull

    def permission_json(self, login: str) -> dict[str, Any]:
        role = self.permissions.get(login, "none")
        legacy = {"maintain": "write", "triage": "read"}.get(role, role)
        return {"permission": legacy, "role_name": role, "user": self.user_json(login, "User")}

    def handle(
        self, method: str, path: str, query: dict[str, list[str]], body: Any
    ) -> tuple[int, Any, dict[str, str]]:
        base = re.escape(f"/repos/{self.state.owner}/{self.state.repo}")
        if (m := re.fullmatch(base + r"/pulls/(\d+)", path)) and method == "GET":
            self.state.requests.append((method, path))
            if int(m[1]) not in self.state.pulls:
                return 404, {"message": "Not Found"}, {}
            return 200, self.pull_json(int(m[1])), {}
        if (m := re.fullmatch(base + r"/collaborators/([^/]+)/permission", path)) and method == "GET":
            self.state.requests.append((method, path))
            return 200, self.permission_json(unquote(m[1])), {}
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
