"""A small stateful fake of GitHub's issue-comment endpoints, served on 127.0.0.1 for real PyGithub.

Only what the sticky PR comment uses: get a repository and an issue (a PR is an issue), list its
comments (paginated like GitHub, with a Link header), create, edit and delete a comment. It checks
the token, and `read_only = True` makes every write answer 403 the way GitHub answers a fork PR's
token ("Resource not accessible by integration").
"""

from __future__ import annotations

import json
import re
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlparse

FORBIDDEN = "Resource not accessible by integration"
USER_DOCS = "https://docs.github.com/rest/users/users#get-the-authenticated-user"


@dataclass
class Comment:
    id: int
    issue: int
    body: str
    user: str
    user_type: str = "User"


@dataclass
class IssueState:
    owner: str
    repo: str
    pulls: set[int]
    token: str
    login: str = "github-actions[bot]"
    token_is_user: bool = False
    read_only: bool = False
    comments: list[Comment] = field(default_factory=list)
    requests: list[tuple[str, str]] = field(default_factory=list)
    next_id: int = 1000
    server_error: int | None = None  # answer every request with this 5xx (GitHub having a bad day)


class FakeGitHubIssues:
    """Start with `with FakeGitHubIssues(...) as gh:`; `gh.url` is the API base URL."""

    def __init__(self, owner: str, repo: str, pulls: set[int], token: str) -> None:
        self.state = IssueState(owner, repo, pulls, token)
        self.lock = threading.RLock()
        handler = type("BoundHandler", (_Handler,), {"fake": self})
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.thread = threading.Thread(
            target=self.server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )

    @property
    def url(self) -> str:
        host, port = self.server.server_address[:2]
        return f"http://{host!s}:{port}"

    def __enter__(self) -> FakeGitHubIssues:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join()

    def add_comment(
        self, issue: int, body: str, user: str = "octocat", user_type: str | None = None
    ) -> Comment:
        """A comment by `user`; its type is "Bot" for a `[bot]` login (GitHub's apps), else "User"."""
        kind = user_type or ("Bot" if user.endswith("[bot]") else "User")
        with self.lock:
            comment = Comment(self.state.next_id, issue, body, user, kind)
            self.state.next_id += 1
            self.state.comments.append(comment)
            return comment

    def comments_on(self, issue: int) -> list[Comment]:
        return [c for c in self.state.comments if c.issue == issue]

    # --- JSON shapes (the fields PyGithub reads) -------------------------------------------------

    def repo_json(self) -> dict[str, Any]:
        s = self.state
        full = f"{s.owner}/{s.repo}"
        return {
            "id": 1,
            "name": s.repo,
            "full_name": full,
            "owner": {"login": s.owner, "id": 2, "type": "Organization"},
            "url": f"{self.url}/repos/{full}",
            "html_url": f"https://github.com/{full}",
            "private": False,
        }

    def issue_json(self, number: int) -> dict[str, Any]:
        full = f"{self.state.owner}/{self.state.repo}"
        return {
            "id": 10_000 + number,
            "number": number,
            "title": f"PR {number}",
            "state": "open",
            "url": f"{self.url}/repos/{full}/issues/{number}",
            "comments_url": f"{self.url}/repos/{full}/issues/{number}/comments",
            "html_url": f"https://github.com/{full}/pull/{number}",
            "pull_request": {"url": f"{self.url}/repos/{full}/pulls/{number}"},
            "user": {"login": "octocat", "id": 3},
        }

    def comment_json(self, c: Comment) -> dict[str, Any]:
        full = f"{self.state.owner}/{self.state.repo}"
        return {
            "id": c.id,
            "body": c.body,
            "url": f"{self.url}/repos/{full}/issues/comments/{c.id}",
            "html_url": f"https://github.com/{full}/pull/{c.issue}#issuecomment-{c.id}",
            "issue_url": f"{self.url}/repos/{full}/issues/{c.issue}",
            "user": self.user_json(c.user, c.user_type),
            "author_association": "NONE" if c.user_type == "Bot" else "MEMBER",
            "created_at": "2026-11-30T00:00:00Z",
            "updated_at": "2026-11-30T00:00:00Z",
        }

    def user_json(self, login: str, kind: str) -> dict[str, Any]:
        """A simple user as GitHub embeds it (login, id, type, url...); ids are stable per login."""
        return {
            "login": login,
            "id": 41898282 if login == "github-actions[bot]" else 5000 + sum(map(ord, login)),
            "node_id": f"U_{login}",
            "url": f"{self.url}/users/{login}",
            "html_url": f"https://github.com/{login}",
            "type": kind,
            "site_admin": False,
        }

    # --- routing ---------------------------------------------------------------------------------

    def handle(
        self, method: str, path: str, query: dict[str, list[str]], body: Any
    ) -> tuple[int, Any, dict[str, str]]:
        s = self.state
        base = f"/repos/{s.owner}/{s.repo}"
        self.state.requests.append((method, path))
        if s.server_error is not None:
            return s.server_error, {"message": "Server Error"}, {}
        if path == base and method == "GET":
            return 200, self.repo_json(), {}
        if path == "/user" and method == "GET":
            if not s.token_is_user:  # an installation token has no user
                return 403, {"message": FORBIDDEN, "documentation_url": USER_DOCS, "status": "403"}, {}
            return 200, self.user_json(s.login, "User"), {}
        if m := re.fullmatch(re.escape(base) + r"/issues/(\d+)", path):
            number = int(m[1])
            if number not in s.pulls:
                return 404, {"message": "Not Found"}, {}
            return 200, self.issue_json(number), {}
        if m := re.fullmatch(re.escape(base) + r"/issues/(\d+)/comments", path):
            number = int(m[1])
            if number not in s.pulls:
                return 404, {"message": "Not Found"}, {}
            if method == "GET":
                return self.list_comments(number, query, path)
            if method == "POST":
                if s.read_only:
                    return 403, {"message": FORBIDDEN}, {}
                return 201, self.comment_json(self.add_comment(number, body["body"], s.login)), {}
        if m := re.fullmatch(re.escape(base) + r"/issues/comments/(\d+)", path):
            found = next((c for c in s.comments if c.id == int(m[1])), None)
            if found is None:
                return 404, {"message": "Not Found"}, {}
            if method in ("PATCH", "DELETE") and s.read_only:
                return 403, {"message": FORBIDDEN}, {}
            if method == "PATCH":
                found.body = body["body"]
                return 200, self.comment_json(found), {}
            if method == "DELETE":
                s.comments.remove(found)
                return 204, None, {}
            return 200, self.comment_json(found), {}
        return 404, {"message": "Not Found"}, {}

    def list_comments(
        self, number: int, query: dict[str, list[str]], path: str
    ) -> tuple[int, Any, dict[str, str]]:
        per_page = int(query.get("per_page", ["30"])[0])
        page = int(query.get("page", ["1"])[0])
        items = self.comments_on(number)
        chunk = items[(page - 1) * per_page : page * per_page]
        headers = {}
        if page * per_page < len(items):
            headers["Link"] = f'<{self.url}{path}?per_page={per_page}&page={page + 1}>; rel="next"'
        return 200, [self.comment_json(c) for c in chunk], headers


class _Handler(BaseHTTPRequestHandler):
    fake: FakeGitHubIssues

    def log_message(self, format: str, *args: Any) -> None:  # quiet test output
        del format, args

    def _serve(self, method: str) -> None:
        auth = self.headers.get("Authorization", "")
        if auth not in (f"token {self.fake.state.token}", f"Bearer {self.fake.state.token}"):
            self._send(401, {"message": "Bad credentials"}, {})
            return
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        body = json.loads(raw) if raw else None
        parsed = urlparse(self.path)
        with self.fake.lock:
            status, payload, headers = self.fake.handle(method, parsed.path, parse_qs(parsed.query), body)
        self._send(status, payload, headers)

    def _send(self, status: int, payload: Any, headers: dict[str, str]) -> None:
        data = b"" if payload is None else json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        for key, value in headers.items():
            self.send_header(key, value)
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self) -> None:
        self._serve("GET")

    def do_POST(self) -> None:
        self._serve("POST")

    def do_PATCH(self) -> None:
        self._serve("PATCH")

    def do_DELETE(self) -> None:
        self._serve("DELETE")
