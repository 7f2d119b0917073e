"""A tour of every tool the agent has, on the trial-run world: one call or more per tool, each
argument taken from an earlier result the way an agent would take it.

Runs on any toolset (the sandbox, or Composio's tools live or over the test fakes), so the results
of the same calls can be compared shape by shape: `evals tools check --outputs` tours the live
world and the sandbox and names every field the sandbox gives that Composio does not; the tests
hold the sandbox and the fakes to Composio's output schemas and to each other. Every call must
succeed: the first failure stops the tour (`TourStopped`), and is the finding.
"""

from __future__ import annotations

import base64
from dataclasses import dataclass
from typing import Any

from evals.world.toolset import Envelope, Toolset

SPEC = "Moderation Classifier Threshold Spec"


class TourStopped(Exception):
    """A call of the tour failed: later calls need its result."""


@dataclass
class Call:
    slug: str
    args: dict[str, Any]
    result: Envelope


class Tour:
    def __init__(self, toolset: Toolset, owner: str, repo: str, persona: str) -> None:
        self.toolset = toolset
        self.repo = {"owner": owner, "repo": repo}
        self.persona = persona
        self.calls: list[Call] = []

    async def call(self, slug: str, **args: Any) -> Any:
        result = await self.toolset.call(slug, args)
        self.calls.append(Call(slug, args, result))
        if not result.get("successful"):
            raise TourStopped(f"{slug}({args}) failed: {result.get('error')}")
        return result["data"]

    async def run(self) -> list[Call]:
        await self.github()
        await self.gmail()
        await self.notion()
        return self.calls

    async def github(self) -> None:
        r = self.repo
        await self.call("GITHUB_LIST_BRANCHES", **r)
        main = await self.call("GITHUB_GET_A_BRANCH", **r, branch="main")
        folder = await self.call("GITHUB_GET_REPOSITORY_CONTENT", **r, path="src/moderation")
        await self.call("GITHUB_GET_A_TREE", **r, tree_sha="main")
        await self.call("GITHUB_GET_A_TREE", **r, tree_sha=main["commit"]["sha"], recursive="1")
        assert folder["type"] == "dir"
        source = await self.call("GITHUB_GET_REPOSITORY_CONTENT", **r, path="src/moderation/classifier.py")
        text = base64.b64decode(source["content"]).decode().replace("0.70", "0.85")
        await self.call("GITHUB_CREATE_A_REFERENCE", **r, ref="refs/heads/tour", sha=main["commit"]["sha"])
        await self.call(
            "GITHUB_CREATE_OR_UPDATE_FILE_CONTENTS",
            **r,
            path="src/moderation/classifier.py",
            message="fix: threshold 0.85 (#131)",
            content=base64.b64encode(text.encode()).decode(),
            sha=source["sha"],
            branch="tour",
        )
        pr = await self.call(
            "GITHUB_CREATE_A_PULL_REQUEST", **r, head="tour", base="main", title="fix: threshold", body="#131"
        )
        await self.call("GITHUB_LIST_PULL_REQUESTS", **r, state="all")
        await self.call("GITHUB_GET_A_PULL_REQUEST", **r, pull_number=pr["number"])
        await self.call("GITHUB_LIST_PULL_REQUESTS_FILES", **r, pull_number=pr["number"])
        await self.call("GITHUB_COMPARE_TWO_COMMITS", **r, basehead="main...tour")
        await self.call("GITHUB_LIST_COMMITS", **r, sha="tour", per_page=5)

    async def gmail(self) -> None:
        inbox = await self.call("GMAIL_FETCH_EMAILS", query="in:inbox", max_results=10)
        first = inbox["messages"][0]
        await self.call("GMAIL_FETCH_EMAILS", query="in:inbox", max_results=10, include_payload=False)
        await self.call("GMAIL_FETCH_MESSAGE_BY_MESSAGE_ID", message_id=first["messageId"])
        await self.call("GMAIL_FETCH_MESSAGE_BY_THREAD_ID", thread_id=first["threadId"])
        await self.call("GMAIL_LIST_THREADS", max_results=5)
        await self.call("GMAIL_LIST_THREADS", max_results=2, verbose=True)
        await self.call(
            "GMAIL_REPLY_TO_THREAD",
            thread_id=first["threadId"],
            recipient_email=self.persona,
            message_body="On it.",
            cc=[self.persona],
        )
        sent = await self.call(
            "GMAIL_SEND_EMAIL", recipient_email=self.persona, subject="Tour", body="Hello."
        )
        await self.call("GMAIL_FETCH_EMAILS", query="in:sent", max_results=10)
        await self.call("GMAIL_MOVE_TO_TRASH", message_id=sent["response_data"]["id"])

    async def notion(self) -> None:
        found = await self.call("NOTION_SEARCH_NOTION_PAGE", query=SPEC)
        spec = found["results"][0]["id"]
        await self.call("NOTION_RETRIEVE_PAGE", page_id=spec)
        blocks = await self.call("NOTION_FETCH_BLOCK_CONTENTS", block_id=spec)
        decision = next(b for b in blocks["results"] if "0.85" in str(b))
        await self.call(
            "NOTION_UPDATE_BLOCK",
            block_id=decision["id"],
            block_type="paragraph",
            content="The flagging threshold is 0.85.",
        )
        text = [{"type": "text", "text": {"content": "The flagging threshold is 0.85."}}]
        added = await self.call(
            "NOTION_APPEND_TEXT_BLOCKS",
            block_id=spec,
            after=decision["id"],
            children=[{"type": "paragraph", "paragraph": {"rich_text": text}}],
        )
        await self.call(
            "NOTION_APPEND_TASK_BLOCKS",
            block_id=spec,
            children=[{"type": "to_do", "to_do": {"rich_text": text, "checked": False}}],
        )
        cells = [[{"type": "text", "text": {"content": c}}] for c in ("a", "b")]
        await self.call(
            "NOTION_APPEND_TABLE_BLOCKS",
            block_id=spec,
            tables=[{"table_width": 2, "has_column_header": True, "rows": [{"cells": cells}]}],
        )
        await self.call("NOTION_DELETE_BLOCK", block_id=added["results"][0]["id"])
        page = await self.call("NOTION_CREATE_NOTION_PAGE", parent_id=spec, title="Tour notes")
        await self.call("NOTION_UPDATE_PAGE", page_id=page["id"], properties={"title": {"title": text}})
        await self.call("NOTION_ARCHIVE_NOTION_PAGE", page_id=page["id"])
        await self.board(text)

    async def board(self, text: list[dict[str, Any]]) -> None:
        """The Sprint 4 board: found from its page, read and written with the database tools."""
        sprint = await self.call("NOTION_SEARCH_NOTION_PAGE", query="Sprint 4", filter_value="page")
        blocks = await self.call("NOTION_FETCH_BLOCK_CONTENTS", block_id=sprint["results"][0]["id"])
        board = next(b for b in blocks["results"] if b["type"] == "child_database")
        await self.call("NOTION_SEARCH_NOTION_PAGE", query="Tickets", filter_value="database")
        await self.call("NOTION_FETCH_DATABASE", database_id=board["id"])
        rows = await self.call(
            "NOTION_QUERY_DATABASE",
            database_id=board["id"],
            sorts=[{"property_name": "Ticket", "ascending": True}],
        )
        row = next(r for r in rows["results"] if "#131" in str(r["properties"]))
        await self.call("NOTION_FETCH_ROW", page_id=row["id"])
        status = [{"name": "Status", "type": "select", "value": "Done"}]
        await self.call("NOTION_UPDATE_ROW_DATABASE", row_id=row["id"], properties=status)
        await self.call("NOTION_UPDATE_PAGE", page_id=row["id"], properties={"Notes": {"rich_text": text}})
        await self.call(
            "NOTION_INSERT_ROW_DATABASE",
            database_id=board["id"],
            properties=[
                {"name": "Ticket", "type": "title", "value": "#135"},
                {"name": "Status", "type": "select", "value": "To Do"},
            ],
        )
