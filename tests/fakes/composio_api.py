"""A fake Composio backend for the composio SDK: serves the sandbox catalogue as Composio tools
and executes them on the shared sandbox world.

Calls made as the agent's connected accounts run the sandbox tool itself. A persona's connected
account (used only by `seed-inbox`) can send mail, which lands in the agent's inbox as an inbound
message from that persona, threaded by subject as Gmail would thread a reply.
"""

from __future__ import annotations

from typing import Any

from evals.tools.base import Tool
from evals.tools.catalogue import build
from evals.tools.toolset import SandboxToolset
from evals.world.model import Message
from tests.fakes import FakeServer, Handler, HttpError, Request, Universe

HARNESS = {"GMAIL_ADD_LABEL_TO_EMAIL"}
CATALOGUE = build()


def subject_root(subject: str) -> str:
    text = subject.strip()
    while text.lower().startswith(("re:", "fwd:", "fw:")):
        text = text.split(":", 1)[1].strip()
    return text.lower()


class FakeComposio(FakeServer):
    def __init__(
        self, universe: Universe, api_key: str, personas: dict[str, str], versions: dict[str, str]
    ) -> None:
        """`personas`: connected account id -> the address that account sends from."""
        self.api_key = api_key
        self.personas = personas
        self.versions = versions
        self.executed: list[dict[str, Any]] = []
        self.agent_accounts = {"ca_agent_gmail"}
        routes: list[tuple[str, str, Handler]] = [
            ("GET", r"/api/v3\.1/tools", self.list_tools),
            ("POST", r"/api/v3\.1/tools/execute/(?P<slug>[A-Z0-9_]+)", self.execute),
            ("GET", r"/api/v3\.1/tools/(?P<slug>[A-Z0-9_]+)", self.get_tool),
        ]
        super().__init__(universe, routes)
        self.denied = {"error": {"message": "Invalid API key", "code": 401}}

    def authorised(self, request: Request) -> bool:
        return request.headers.get("x-api-key") == self.api_key

    def item(self, tool: Tool) -> dict[str, Any]:
        version = self.versions.get(tool.toolkit, "00000000_00")
        return {
            "slug": tool.slug,
            "name": tool.slug.replace("_", " ").title(),
            "description": tool.description,
            "human_description": None,
            "input_parameters": tool.params.model_json_schema(),
            "output_parameters": {},
            "available_versions": [version],
            "version": version,
            "deprecated": {
                "available_versions": [version],
                "displayName": tool.slug,
                "is_deprecated": False,
                "toolkit": {"logo": ""},
                "version": version,
            },
            "is_deprecated": False,
            "no_auth": False,
            "scopes": [],
            "tags": [],
            "toolkit": {"logo": "", "name": tool.toolkit.title(), "slug": tool.toolkit},
        }

    def harness_item(self, slug: str) -> dict[str, Any]:
        """Tools the harness uses for resets, outside the agent's (sandbox) catalogue."""
        item = self.item(CATALOGUE["GMAIL_MOVE_TO_TRASH"])
        item.update(
            {"slug": slug, "name": slug.title(), "description": "Add and remove labels on a message."}
        )
        item["input_parameters"] = {
            "type": "object",
            "properties": {
                "message_id": {"type": "string"},
                "add_label_ids": {"type": "array", "items": {"type": "string"}},
                "remove_label_ids": {"type": "array", "items": {"type": "string"}},
            },
            "required": ["message_id"],
        }
        return item

    def add_label(self, args: dict[str, Any]) -> dict[str, Any]:
        for message in self.universe.world.mailbox.messages:
            if message.id == args.get("message_id"):
                removed = set(args.get("remove_label_ids") or [])
                labels = [label for label in message.labels if label not in removed]
                labels += [label for label in args.get("add_label_ids") or [] if label not in labels]
                message.labels = labels
                self.universe.world.tick()
                return {"data": {"id": message.id, "labelIds": labels}, "successful": True, "error": None}
        return {
            "data": {},
            "successful": False,
            "error": f"Requested entity was not found: {args.get('message_id')}",
        }

    def list_tools(self, request: Request) -> tuple[int, Any]:
        slugs = [s for s in request.query.get("tool_slugs", "").split(",") if s]
        items = [self.item(CATALOGUE[s]) for s in slugs if s in CATALOGUE]
        return 200, {
            "items": items,
            "current_page": 1,
            "total_items": len(items),
            "total_pages": 1,
            "next_cursor": None,
        }

    def get_tool(self, request: Request) -> tuple[int, Any]:
        if request.params["slug"] in HARNESS:
            return 200, self.harness_item(request.params["slug"])
        tool = CATALOGUE.get(request.params["slug"])
        if tool is None:
            raise HttpError(404, {"error": {"message": "Tool not found"}})
        return 200, self.item(tool)

    def execute(self, request: Request) -> tuple[int, Any]:
        slug = request.params["slug"]
        body = request.body or {}
        self.executed.append({"slug": slug, **body})
        if slug not in CATALOGUE and slug not in HARNESS:
            raise HttpError(404, {"error": {"message": "Tool not found"}})
        args = body.get("arguments") or {}
        account = body.get("connected_account_id")
        sender = self.personas.get(str(account))
        if account is not None and sender is None and account not in self.agent_accounts:
            raise HttpError(
                400, {"error": {"message": f"Connected account {account} not found", "code": 1803}}
            )
        if sender is not None:
            result = self.persona_send(sender, slug, args)
        elif slug == "GMAIL_ADD_LABEL_TO_EMAIL":
            result = self.add_label(args)
        else:
            result = SandboxToolset(self.universe.world).execute(slug, args)
        data = result["data"]
        return 200, {
            "data": data if isinstance(data, dict) else {"details": data},
            "error": result["error"],
            "successful": result["successful"],
            "log_id": f"log_{len(self.executed)}",
        }

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
        world.mailbox.messages.append(message)
        return {
            "data": {"response_data": {"id": message.id, "threadId": message.thread_id}},
            "successful": True,
            "error": None,
        }
