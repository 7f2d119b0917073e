"""A fake Composio backend for the composio SDK, built from Composio's own schemas.

Tools are served with the input and output schemas of tests/fixtures/composio/tools.json (extracted
from Composio's public dumps), never the sandbox's. A call's arguments are validated against that
input schema, as Composio validates them; GitHub tools call the fake GitHub and Notion tools the
fake Notion over HTTP, as Composio calls the real services, and Gmail tools work on the universe's
mailbox; every successful result is checked against the tool's output schema, and whatever does
not fit is recorded in `problems` (tests assert it stays empty).

A persona's connected account (used only by `seed-inbox`) can send mail, which lands in the agent's
inbox as an inbound message from that persona, threaded by subject as Gmail threads a reply. Gmail
delivers within seconds, not at once: with `delivery_lag = N` such a mail stays out of the agent's
mailbox for the agent's next N Gmail calls (`deliver_now()` ends the wait).

Faults for the live path's robustness tests: `fail_next(n, status, retry_after)` answers the next
n executions with that status (e.g. 429 with Retry-After).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from jsonschema import Draft202012Validator  # type: ignore[import-untyped]

from evals.world.sandbox.model import Message
from tests.support.composio_fixtures import composio_tools, output_problems
from tests.support.fakes import FakeServer, Handler, HttpError, Request, Universe
from tests.support.fakes.composio_github import ComposioGitHub, GitHubFailed
from tests.support.fakes.composio_gmail import ComposioGmail, GmailFailed
from tests.support.fakes.composio_notion import ComposioNotion, NotionFailed

if TYPE_CHECKING:
    from tests.support.fakes.github_api import FakeGitHub
    from tests.support.fakes.notion_api import FakeNotion

FAILED = (GitHubFailed, NotionFailed, GmailFailed)


def subject_root(subject: str) -> str:
    text = subject.strip()
    while text.lower().startswith(("re:", "fwd:", "fw:")):
        text = text.split(":", 1)[1].strip()
    return text.lower()


class FakeComposio(FakeServer):
    def __init__(
        self,
        universe: Universe,
        api_key: str,
        personas: dict[str, str],
        versions: dict[str, str],
        github: FakeGitHub,
        notion: FakeNotion,
    ) -> None:
        """`personas`: connected account id -> the address that account sends from."""
        self.api_key = api_key
        self.personas = personas
        self.versions = versions
        self.executed: list[dict[str, Any]] = []
        self.problems: list[str] = []
        self.faults: list[tuple[int, dict[str, str]]] = []
        self.agent_accounts = {"ca_agent_gmail"}
        self.delivery_lag = 0  # fault: the agent's Gmail calls a persona's mail stays undelivered for
        self.in_transit: list[tuple[int, Message]] = []  # (calls still to wait, message)
        self.tools = composio_tools()
        self.github = ComposioGitHub(github.url, github.token)
        self.notion = ComposioNotion(notion.url, notion.token)
        self.gmail = ComposioGmail(universe)
        routes: list[tuple[str, str, Handler]] = [
            ("GET", r"/api/v3\.1/tools", self.list_tools),
            ("POST", r"/api/v3\.1/tools/execute/(?P<slug>[A-Z0-9_]+)", self.execute),
            ("GET", r"/api/v3\.1/tools/(?P<slug>[A-Z0-9_]+)", self.get_tool),
        ]
        super().__init__(universe, routes, locked=False)  # its tools call the other fakes over HTTP
        self.denied = {"error": {"message": "Invalid API key", "code": 401}}

    def authorised(self, request: Request) -> bool:
        return request.headers.get("x-api-key") == self.api_key

    def fail_next(self, times: int, status: int, retry_after: str | None = None) -> None:
        headers = {"Retry-After": retry_after} if retry_after is not None else {}
        self.faults += [(status, headers)] * times

    def item(self, slug: str) -> dict[str, Any]:
        tool = self.tools[slug]
        version = self.versions.get(tool["toolkit"], "00000000_00")
        return {
            "slug": slug,
            "name": slug.replace("_", " ").title(),
            "description": f"{slug.replace('_', ' ').capitalize()} (fake Composio).",
            "human_description": None,
            "input_parameters": tool["input"],
            "output_parameters": tool["output"],
            "available_versions": [version],
            "version": version,
            "deprecated": {
                "available_versions": [version],
                "displayName": slug,
                "is_deprecated": False,
                "toolkit": {"logo": ""},
                "version": version,
            },
            "is_deprecated": False,
            "no_auth": False,
            "scopes": [],
            "tags": [],
            "toolkit": {"logo": "", "name": tool["toolkit"].title(), "slug": tool["toolkit"]},
        }

    def list_tools(self, request: Request) -> tuple[int, Any]:
        slugs = [s for s in request.query.get("tool_slugs", "").split(",") if s]
        items = [self.item(s) for s in slugs if s in self.tools]
        return 200, {
            "items": items,
            "current_page": 1,
            "total_items": len(items),
            "total_pages": 1,
            "next_cursor": None,
        }

    def get_tool(self, request: Request) -> tuple[int, Any]:
        if request.params["slug"] not in self.tools:
            raise HttpError(404, {"error": {"message": "Tool not found"}})
        return 200, self.item(request.params["slug"])

    def execute(self, request: Request) -> tuple[int, Any]:
        slug = request.params["slug"]
        body = request.body or {}
        with self.universe.lock:
            self.executed.append({"slug": slug, **body})
            if self.faults:
                status, headers = self.faults.pop(0)
                raise HttpError(
                    status, {"error": {"message": f"fake fault {status}", "code": status}}, headers
                )
        if slug not in self.tools:
            raise HttpError(404, {"error": {"message": "Tool not found"}})
        args = body.get("arguments") or {}
        account = body.get("connected_account_id")
        sender = self.personas.get(str(account))
        if account is not None and sender is None and account not in self.agent_accounts:
            raise HttpError(
                400, {"error": {"message": f"Connected account {account} not found", "code": 1803}}
            )
        errors = sorted(Draft202012Validator(self.tools[slug]["input"]).iter_errors(args), key=str)
        if errors:
            where = "/".join(map(str, errors[0].absolute_path)) or "arguments"
            raise HttpError(
                400, {"error": {"message": f"Invalid request data provided: {where}: {errors[0].message}"}}
            )
        if sender is not None:
            with self.universe.lock:
                result = self.persona_send(sender, slug, args)
        else:
            result = self.run(slug, args)
        if result["successful"]:
            self.problems += output_problems(slug, result)
        return 200, {**result, "log_id": f"log_{len(self.executed)}"}

    def run(self, slug: str, args: dict[str, Any]) -> dict[str, Any]:
        toolkit = self.tools[slug]["toolkit"]
        try:
            if toolkit == "github":
                data = self.github.run(slug, args)
            elif toolkit == "notion":
                data = self.notion.run(slug, args)
            else:
                with self.universe.lock:
                    self.deliver_due()
                    data = self.gmail.run(slug, args)
        except FAILED as exc:
            return {"data": {}, "error": str(exc), "successful": False}
        return {"data": data, "error": None, "successful": True}

    def deliver_due(self) -> None:
        """One more Gmail call of the agent's: deliver what has waited long enough."""
        waiting = []
        for calls, message in self.in_transit:
            if calls > 0:
                waiting.append((calls - 1, message))
            else:
                self.universe.world.mailbox.messages.append(message)
        self.in_transit = waiting

    def deliver_now(self) -> None:
        with self.universe.lock:
            self.in_transit = [(0, message) for _, message in self.in_transit]
            self.deliver_due()

    def persona_send(self, sender: str, slug: str, args: dict[str, Any]) -> dict[str, Any]:
        """A persona's mailbox only sends (seed-inbox): deliver it into the agent's inbox."""
        if slug != "GMAIL_SEND_EMAIL":
            return {"data": {}, "successful": False, "error": f"persona accounts only send mail, not {slug}"}
        world = self.universe.world
        subject = str(args.get("subject", ""))
        thread = next(
            (m.thread_id for m in world.mailbox.messages if subject_root(m.subject) == subject_root(subject)),
            None,
        )
        stamp = world.tick()
        message = Message(
            id=world.make_id("inbound", world.clock),
            thread_id=thread or world.make_id("thread-inbound", world.clock),
            sender=sender,
            to=[str(args.get("recipient_email", ""))],
            subject=subject,
            body=str(args.get("body", "")),
            labels=["INBOX", "UNREAD"],
            timestamp=stamp,
        )
        if self.delivery_lag:
            self.in_transit.append((self.delivery_lag, message))
        else:
            world.mailbox.messages.append(message)
        return {
            "data": {"response_data": {"id": message.id, "threadId": message.thread_id}},
            "successful": True,
            "error": None,
        }
