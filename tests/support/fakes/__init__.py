"""Local stand-ins for GitHub, Notion and Composio on 127.0.0.1, all over one universe.

The real client libraries (PyGithub, notion-client, the composio SDK) talk to these over HTTP;
only their base URLs differ from live use. The fake Composio's GitHub and Notion tools call the
fake GitHub and Notion over HTTP, so a pull request the agent opens through (fake) Composio is what
the snapshot reads back through (fake) GitHub. Each fake answers in its real service's documented
shapes (GitHub's OpenAPI description, the Notion API's objects, Composio's tool schemas), never by
running the sandbox's tools.
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qs, urlsplit

from evals.world.live.config import DEFAULT_TOOLKIT_VERSIONS
from evals.world.sandbox.model import Mailbox, World

if TYPE_CHECKING:
    from tests.support.fakes.composio_api import FakeComposio
    from tests.support.fakes.github_api import FakeGitHub
    from tests.support.fakes.notion_api import FakeNotion


class HttpError(Exception):
    def __init__(self, status: int, body: Any, headers: dict[str, str] | None = None) -> None:
        super().__init__(f"HTTP {status}")
        self.status = status
        self.body = body
        self.headers = headers or {}


@dataclass
class Universe:
    """The state behind every fake: one sandbox World (repos, Notion pages, the agent's mailbox)."""

    world: World
    lock: threading.RLock = field(default_factory=threading.RLock)

    @classmethod
    def empty(cls, agent_address: str, start_time: str = "2025-07-10T09:00:00Z") -> Universe:
        world = World(
            scenario="fake-services",
            trial=0,
            start_time=start_time,
            agent_address=agent_address,
            mailbox=Mailbox(owner=agent_address),
        )
        return cls(world)


@dataclass
class Request:
    method: str
    path: str
    query: dict[str, str]
    headers: dict[str, str]
    body: Any
    params: dict[str, str]


Handler = Callable[[Request], tuple[int, Any]]


@dataclass
class Served:
    method: str
    route: str
    path: str
    status: int
    body: Any


class FakeServer:
    """A tiny JSON-over-HTTP server: routes are (METHOD, path regex, handler) tried in order."""

    def __init__(
        self, universe: Universe, routes: list[tuple[str, str, Handler]], locked: bool = True
    ) -> None:
        """`locked`: handlers run holding the universe's lock (a server whose handlers call another
        fake over HTTP takes the lock itself, around its own state only)."""
        self.universe = universe
        self.routes = [(m, p, re.compile(p + r"/?$"), h) for m, p, h in routes]
        self.locked = locked
        self.served: list[Served] = []
        self.before: Callable[[Request], None] | None = None  # test hook, e.g. to hold a request
        self.denied: Any = {"message": "Bad credentials"}  # body of a 401
        self._httpd: ThreadingHTTPServer | None = None

    def authorised(self, request: Request) -> bool:
        return True

    @property
    def url(self) -> str:
        if self._httpd is None:
            raise RuntimeError("server not started")
        host, port = self._httpd.server_address[:2]
        return f"http://{host!s}:{port}"

    def start(self) -> FakeServer:
        fake = self

        class _Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: Any) -> None:
                return None

            def _dispatch(self) -> None:
                fake.dispatch(self)

            do_GET = do_POST = do_PATCH = do_DELETE = do_PUT = _dispatch

        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
        self._httpd.daemon_threads = True
        threading.Thread(
            target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        ).start()
        return self

    def stop(self) -> None:
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()

    def dispatch(self, h: BaseHTTPRequestHandler) -> None:
        parts = urlsplit(h.path)
        length = int(h.headers.get("Content-Length") or 0)
        raw = h.rfile.read(length) if length else b""
        try:
            body = json.loads(raw) if raw else None
        except json.JSONDecodeError:
            body = None
        query = {k: v[-1] for k, v in parse_qs(parts.query).items()}
        headers = {k.lower(): v for k, v in h.headers.items()}
        status, payload, route, extra = 404, {"message": "Not Found"}, "", {}
        for method, pattern, regex, handler in self.routes:
            match = regex.match(parts.path)
            if method == h.command and match:
                request = Request(h.command, parts.path, query, headers, body, match.groupdict())
                route = pattern
                try:
                    if self.before is not None:
                        self.before(request)
                    if not self.authorised(request):
                        raise HttpError(401, self.denied)
                    if self.locked:
                        with self.universe.lock:
                            status, payload = handler(request)
                    else:
                        status, payload = handler(request)
                except HttpError as exc:
                    status, payload, extra = exc.status, exc.body, exc.headers
                break
        self.served.append(Served(h.command, route, parts.path, status, payload))
        data = b"" if status == 204 else json.dumps(payload).encode()
        h.send_response(status)
        h.send_header("Content-Type", "application/json; charset=utf-8")
        h.send_header("Content-Length", str(len(data)))
        for name, value in extra.items():
            h.send_header(name, value)
        h.end_headers()
        h.wfile.write(data)


AGENT_ADDRESS = "evals-agent@inbox.example"
# The personas of the scenarios the live tests seed (trial-run, nightshift, reply-facts), each
# played by a mailbox on an example domain.
PERSONAS = {
    pid: (f"{pid}.persona@inbox.example", f"ca_persona_{pid}")
    for pid in ("dev", "alex", "marcus", "priya", "dana", "leo")
}
TOOLKIT_VERSIONS = dict(DEFAULT_TOOLKIT_VERSIONS)


@dataclass
class FakeServices:
    """GitHub, Notion and Composio fakes over one universe, plus the live-mode environment for them."""

    universe: Universe
    github: FakeGitHub
    notion: FakeNotion
    composio: FakeComposio
    parent_page: str

    @classmethod
    def start(cls) -> FakeServices:
        from tests.support.fakes.composio_api import FakeComposio
        from tests.support.fakes.github_api import FakeGitHub
        from tests.support.fakes.notion_api import FakeNotion

        universe = Universe.empty(AGENT_ADDRESS)
        github = FakeGitHub(universe, token="ghp-fake", login="evals-bot", orgs=["acme-evals"])
        notion = FakeNotion(universe, token="ntn-fake")
        github.start()
        notion.start()
        parent = notion.add_root("Agent evals sandbox")
        accounts = {account: address for address, account in PERSONAS.values()}
        composio = FakeComposio(universe, "ck-fake", accounts, TOOLKIT_VERSIONS, github, notion)
        composio.start()
        return cls(universe, github, notion, composio, parent)

    def stop(self) -> None:
        for server in (self.github, self.notion, self.composio):
            server.stop()

    def env(self) -> dict[str, str]:
        """Every key live mode reads, pointing at these fakes (placeholder tokens, example addresses)."""
        personas = {
            pid: {"address": address, "account": account} for pid, (address, account) in PERSONAS.items()
        }
        return {
            "GITHUB_TOKEN": "ghp-fake",
            "GITHUB_OWNER": "acme-evals",
            "GITHUB_API_URL": self.github.url,
            "GITHUB_WRITE_INTERVAL": "0",
            "NOTION_TOKEN": "ntn-fake",
            "NOTION_PARENT_PAGE_ID": self.parent_page,
            "NOTION_API_URL": self.notion.url,
            "COMPOSIO_API_KEY": "ck-fake",
            "COMPOSIO_BASE_URL": self.composio.url,
            "COMPOSIO_USER_ID": "evals-user",
            "COMPOSIO_GMAIL_ACCOUNT": "ca_agent_gmail",
            "COMPOSIO_TOOLKIT_VERSIONS": json.dumps(TOOLKIT_VERSIONS),
            "LIVE_AGENT_ADDRESS": AGENT_ADDRESS,
            "LIVE_PERSONAS": json.dumps(personas),
        }
