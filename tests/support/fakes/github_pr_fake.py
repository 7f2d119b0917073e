"""The issue-comment fake (tests/support/fakes/github_issues.py) plus the PR's labels and commit statuses,
for the PR workflow's dry run: its verdict job posts the `agent-evals` commit status on the head SHA
(`POST /repos/{owner}/{repo}/statuses/{sha}`, answered in GitHub's documented shape: 201 with the
status; 422 for a state other than error, failure, pending or success), the sticky comment, and
then removes the `run-evals` label. For `/evals continue` it also answers a pull request
(`GET /repos/{owner}/{repo}/pulls/{number}`: the fields of the real `labeled` payload's
`pull_request`, head SHA as `heads` says) and a user's permission
(`GET /repos/{owner}/{repo}/collaborators/{user}/permission`: `permission` and `role_name`, as
documented; `none` for a user not in `permissions`). And the workflow runs a continuation is
checked against (`GET /repos/{owner}/{repo}/actions/runs/{run_id}` and its `/artifacts` list, in
the documented `workflow-run` and `artifact` shapes: `path`, `event`, `head_branch`, `head_sha`,
`status`, `conclusion`; `name`, `expired`, and the run under `workflow_run`), as `record_run` sets
them; any other run id answers 404, as GitHub does for a run of another repository."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import unquote

from tests.support.fakes.github_issues import FakeGitHubIssues
from tests.support.paths import FIXTURES

LABELED = FIXTURES / "webhooks" / "pull_request.labeled.json"

STATES = ("error", "failure", "pending", "success")


@dataclass
class WorkflowRun:
    """What a test says about one Actions run; the fake renders it in GitHub's shapes."""

    id: int
    path: str  # the workflow file, e.g. .github/workflows/evals-pr.yml
    event: str
    head_branch: str
    head_sha: str
    conclusion: str | None  # None while it runs
    artifacts: list[str] = field(default_factory=list)
    repository: str = ""  # OWNER/NAME; blank: the fake's own


class FakeGitHubPR(FakeGitHubIssues):
    def __init__(self, owner: str, repo: str, pulls: set[int], token: str) -> None:
        super().__init__(owner, repo, pulls, token)
        self.labels: dict[int, list[str]] = {number: [] for number in pulls}
        self.statuses: dict[str, list[dict[str, Any]]] = {}
        self.heads: dict[int, str] = {}  # PR number -> head SHA (default: the labelled payload's)
        self.permissions: dict[str, str] = {}  # login -> admin | maintain | write | triage | read
        self.runs: dict[int, WorkflowRun] = {}  # Actions runs by id (record_run)

    def __enter__(self) -> FakeGitHubPR:
        super().__enter__()
        return self

    def record_run(self, run: WorkflowRun) -> WorkflowRun:
        with self.lock:
            self.runs[run.id] = run
        return run

    def repo_lite(self, full: str) -> dict[str, Any]:
        """A `minimal-repository` as a workflow run embeds it (`repository`, `head_repository`)."""
        owner, name = full.split("/", 1)
        return {
            "id": 1 if full == f"{self.state.owner}/{self.state.repo}" else 2,
            "node_id": f"R_{full}",
            "name": name,
            "full_name": full,
            "owner": self.user_json(owner, "Organization"),
            "private": False,
            "html_url": f"https://github.com/{full}",
            "url": f"{self.url}/repos/{full}",
            "fork": False,
        }

    def run_json(self, run: WorkflowRun) -> dict[str, Any]:
        """A `workflow-run` as `GET /actions/runs/{run_id}` answers it."""
        full = run.repository or f"{self.state.owner}/{self.state.repo}"
        api = f"{self.url}/repos/{full}/actions/runs/{run.id}"
        return {
            "id": run.id,
            "name": "evals-pr",
            "node_id": f"WFR_{run.id}",
            "check_suite_id": run.id + 1,
            "check_suite_node_id": f"CS_{run.id}",
            "head_branch": run.head_branch,
            "head_sha": run.head_sha,
            "path": run.path,
            "display_title": "evals-pr",
            "run_number": run.id % 1000,
            "run_attempt": 1,
            "event": run.event,
            "status": "in_progress" if run.conclusion is None else "completed",
            "conclusion": run.conclusion,
            "workflow_id": 161335,
            "url": api,
            "html_url": f"https://github.com/{full}/actions/runs/{run.id}",
            "pull_requests": [],
            "created_at": "2026-11-30T00:00:00Z",
            "updated_at": "2026-11-30T00:10:00Z",
            "run_started_at": "2026-11-30T00:00:00Z",
            "actor": self.user_json("Codertocat", "User"),
            "triggering_actor": self.user_json("Codertocat", "User"),
            "jobs_url": f"{api}/jobs",
            "logs_url": f"{api}/logs",
            "check_suite_url": f"{self.url}/repos/{full}/check-suites/{run.id + 1}",
            "artifacts_url": f"{api}/artifacts",
            "cancel_url": f"{api}/cancel",
            "rerun_url": f"{api}/rerun",
            "previous_attempt_url": None,
            "workflow_url": f"{self.url}/repos/{full}/actions/workflows/161335",
            "head_commit": {
                "id": run.head_sha,
                "tree_id": run.head_sha,
                "message": "Merge",
                "timestamp": "2026-11-30T00:00:00Z",
                "author": {"name": "Codertocat", "email": "codertocat@example.com"},
                "committer": {"name": "Codertocat", "email": "codertocat@example.com"},
            },
            "repository": self.repo_lite(full),
            "head_repository": self.repo_lite(full),
        }

    def artifacts_json(self, run: WorkflowRun, query: dict[str, list[str]]) -> dict[str, Any]:
        """`GET /actions/runs/{run_id}/artifacts`: `total_count` and a page of `artifact`s."""
        full = run.repository or f"{self.state.owner}/{self.state.repo}"
        per_page = int(query.get("per_page", ["30"])[0])
        page = int(query.get("page", ["1"])[0])
        items = []
        for index, name in enumerate(run.artifacts):
            number = run.id * 100 + index
            items.append(
                {
                    "id": number,
                    "node_id": f"MDg6QXJ0aWZhY3Q{number}",
                    "name": name,
                    "size_in_bytes": 1024,
                    "url": f"{self.url}/repos/{full}/actions/artifacts/{number}",
                    "archive_download_url": f"{self.url}/repos/{full}/actions/artifacts/{number}/zip",
                    "expired": False,
                    "digest": None,
                    "created_at": "2026-11-30T00:05:00Z",
                    "expires_at": "2026-12-14T00:05:00Z",
                    "updated_at": "2026-11-30T00:05:00Z",
                    "workflow_run": {
                        "id": run.id,
                        "repository_id": 1,
                        "head_repository_id": 1,
                        "head_branch": run.head_branch,
                        "head_sha": run.head_sha,
                    },
                }
            )
        chunk = items[(page - 1) * per_page : page * per_page]
        return {"total_count": len(items), "artifacts": chunk}

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
        if (m := re.fullmatch(base + r"/actions/runs/(\d+)(/artifacts)?", path)) and method == "GET":
            self.state.requests.append((method, path))
            run = self.runs.get(int(m[1]))
            if run is None or (run.repository and run.repository != f"{self.state.owner}/{self.state.repo}"):
                return 404, {"message": "Not Found", "status": "404"}, {}
            return 200, (self.artifacts_json(run, query) if m[2] else self.run_json(run)), {}
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
