"""The issue-comment fake (tests/fakes/github_issues.py) plus the PR's labels, for the PR workflow's
dry run: its report job posts the sticky comment and then removes the `run-evals` label."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import unquote

from tests.fakes.github_issues import FakeGitHubIssues


class FakeGitHubPR(FakeGitHubIssues):
    def __init__(self, owner: str, repo: str, pulls: set[int], token: str) -> None:
        super().__init__(owner, repo, pulls, token)
        self.labels: dict[int, list[str]] = {number: [] for number in pulls}

    def __enter__(self) -> FakeGitHubPR:
        super().__enter__()
        return self

    def label(self, number: int, name: str) -> None:
        with self.lock:
            if name not in self.labels[number]:
                self.labels[number].append(name)

    def handle(
        self, method: str, path: str, query: dict[str, list[str]], body: Any
    ) -> tuple[int, Any, dict[str, str]]:
        base = re.escape(f"/repos/{self.state.owner}/{self.state.repo}")
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
