"""Gmail tools on the Nightshift mailbox: queries, paging, threads, replies, sending and trash."""

from __future__ import annotations

import base64
from typing import Any

import pytest

from evals.scenario.load import load_scenario
from evals.scenario.model import Scenario
from evals.world.sandbox.seed import seed
from evals.world.sandbox.snapshot import outcome
from evals.world.sandbox.tools.toolset import SandboxToolset
from tests.support.paths import ROOT

ALEX = "alex.mercer@acme.example"


@pytest.fixture(scope="module")
def scenario() -> Scenario:
    return load_scenario(ROOT / "scenario", "nightshift")


@pytest.fixture
def tools(scenario: Scenario) -> SandboxToolset:
    return SandboxToolset(seed(scenario, 0))


def test_the_inbox_pages_through_all_twelve_emails_newest_first(tools: SandboxToolset) -> None:
    first = tools.execute("GMAIL_FETCH_EMAILS", {"query": "in:inbox", "max_results": 5})
    assert first["successful"] and first["data"]["resultSizeEstimate"] == 12
    seen = [m["subject"] for m in first["data"]["messages"]]
    token = first["data"]["nextPageToken"]
    while token:
        page = tools.execute(
            "GMAIL_FETCH_EMAILS", {"query": "in:inbox", "max_results": 5, "page_token": token}
        )
        seen += [m["subject"] for m in page["data"]["messages"]]
        token = page["data"]["nextPageToken"]
    assert len(seen) == 12
    assert seen[0] == "API docs for the demo" and seen[-1] == "URGENT: Hydra is down in prod"


def test_a_query_by_sender_finds_only_that_persona(tools: SandboxToolset) -> None:
    found = tools.execute("GMAIL_FETCH_EMAILS", {"query": f"from:{ALEX}", "max_results": 20})
    assert len(found["data"]["messages"]) == 4
    assert {m["sender"] for m in found["data"]["messages"]} == {ALEX}
    words = tools.execute("GMAIL_FETCH_EMAILS", {"query": '"flip the flag"', "max_results": 20})
    assert [m["subject"] for m in words["data"]["messages"]] == [
        "Re: Recommendation Engine v2 for the investor demo?"
    ]


def test_a_bad_page_token_or_max_results_is_an_error(tools: SandboxToolset) -> None:
    assert not tools.execute("GMAIL_FETCH_EMAILS", {"page_token": "abc"})["successful"]
    assert not tools.execute("GMAIL_FETCH_EMAILS", {"max_results": 0})["successful"]
    assert not tools.execute("GMAIL_FETCH_EMAILS", {"query": '"unclosed'})["successful"]


def test_fetch_message_by_id_and_a_missing_id(tools: SandboxToolset) -> None:
    listed = tools.execute("GMAIL_FETCH_EMAILS", {"query": "subject:K8s", "max_results": 1})
    message_id = listed["data"]["messages"][0]["messageId"]
    got = tools.execute("GMAIL_FETCH_MESSAGE_BY_MESSAGE_ID", {"message_id": message_id})
    assert got["successful"] and "replicas should be 5" in got["data"]["messageText"]
    missing = tools.execute("GMAIL_FETCH_MESSAGE_BY_MESSAGE_ID", {"message_id": "nope"})
    assert not missing["successful"] and "not found" in missing["error"]
    assert not tools.execute("GMAIL_FETCH_MESSAGE_BY_MESSAGE_ID", {})["successful"]


def test_a_thread_holds_marcus_first_mail_and_his_correction_in_order(tools: SandboxToolset) -> None:
    hit = tools.execute("GMAIL_FETCH_EMAILS", {"query": "Correction", "max_results": 1})
    thread = tools.execute(
        "GMAIL_FETCH_MESSAGE_BY_THREAD_ID", {"thread_id": hit["data"]["messages"][0]["threadId"]}
    )
    bodies = [m["messageText"] for m in thread["data"]["messages"]]
    assert len(bodies) == 2 and "redis_pool.py" in bodies[0] and "2048" in bodies[1]
    assert not tools.execute("GMAIL_FETCH_MESSAGE_BY_THREAD_ID", {"thread_id": "nope"})["successful"]


def test_list_threads_counts_conversations_not_messages(tools: SandboxToolset) -> None:
    listed = tools.execute("GMAIL_LIST_THREADS", {"max_results": 50})
    assert listed["successful"] and len(listed["data"]["threads"]) == 8
    assert set(listed["data"]) == {"threads"}, "no next_page_token on the last page"
    assert all(set(t) == {"id", "snippet", "historyId"} for t in listed["data"]["threads"])
    first = tools.execute("GMAIL_LIST_THREADS", {"max_results": 5})["data"]
    rest = tools.execute("GMAIL_LIST_THREADS", {"max_results": 5, "page_token": first["next_page_token"]})
    assert len(first["threads"]) + len(rest["data"]["threads"]) == 8
    priya = tools.execute("GMAIL_LIST_THREADS", {"query": "from:priya.sharma@acme.example"})
    assert len(priya["data"]["threads"]) == 2


def test_a_reply_joins_the_thread_and_shows_in_the_outcome(tools: SandboxToolset) -> None:
    hit = tools.execute("GMAIL_FETCH_EMAILS", {"query": "subject:URGENT", "max_results": 1})
    thread_id = hit["data"]["messages"][0]["threadId"]
    sent = tools.execute(
        "GMAIL_REPLY_TO_THREAD", {"thread_id": thread_id, "recipient_email": ALEX, "message_body": "- On it"}
    )
    assert sent["successful"] and sent["data"]["response_data"]["threadId"] == thread_id
    snap = outcome(tools.world)
    assert [m.thread_seed_ids for m in snap.sent] == [["e1", "e11"]]
    assert snap.sent[0].subject.startswith("Re: ")
    bad = tools.execute(
        "GMAIL_REPLY_TO_THREAD", {"thread_id": thread_id, "recipient_email": "alex", "message_body": "x"}
    )
    assert not bad["successful"] and "Invalid To header" in bad["error"]


def test_send_email_starts_a_new_thread(tools: SandboxToolset) -> None:
    sent = tools.execute(
        "GMAIL_SEND_EMAIL",
        {"recipient_email": ALEX, "subject": "Status", "body": "Done.", "cc": ["x@acme.example"]},
    )
    assert sent["successful"]
    snap = outcome(tools.world)
    assert snap.sent[0].thread_seed_ids == [] and snap.sent[0].cc == ["x@acme.example"]
    assert not tools.execute("GMAIL_SEND_EMAIL", {"subject": "no recipient", "body": "x"})["successful"]


def test_send_email_wants_a_recipient_and_a_subject_or_a_body_as_the_pinned_docs_say(
    tools: SandboxToolset,
) -> None:
    """20260721_00: no parameter is required, but "at least one of 'to' (or 'recipient_email'), 'cc',
    or 'bcc'" and "at least one of subject or body"; `to` is an alias; from_email a verified alias."""
    sent = tools.execute("GMAIL_SEND_EMAIL", {"recipient_email": ALEX, "body": "See the PR."})
    assert sent["successful"]
    assert outcome(tools.world).sent[0].subject == ""
    assert tools.execute("GMAIL_SEND_EMAIL", {"to": ALEX, "subject": "Subject only"})["successful"]
    assert tools.execute("GMAIL_SEND_EMAIL", {"cc": [ALEX], "body": "cc only"})["successful"]
    mine = tools.world.agent_address
    assert tools.execute("GMAIL_SEND_EMAIL", {"to": ALEX, "body": "x", "from_email": mine})["successful"]
    refused = {
        "no recipient": {"subject": "x", "body": "y"},
        "no subject or body": {"recipient_email": ALEX},
        "an alias not verified": {"to": ALEX, "body": "x", "from_email": "ceo@acme.example"},
        "an attachment the sandbox has no file for": {"to": ALEX, "body": "x", "attachment": "report.pdf"},
        "an unknown parameter": {"to": ALEX, "body": "x", "reply_to": ALEX},
    }
    for name, args in refused.items():
        assert not tools.execute("GMAIL_SEND_EMAIL", args)["successful"], name
    assert [m.to for m in outcome(tools.world).sent] == [[ALEX], [ALEX], [], [ALEX]]


def test_a_reply_needs_only_the_thread_and_a_recipient(tools: SandboxToolset) -> None:
    """20260721_00: thread_id is the one required parameter; a recipient (recipient_email, cc or
    bcc) is still needed; the body may be left out; msg-f:/thread-f: prefixes are stripped."""
    thread = tools.execute("GMAIL_FETCH_EMAILS", {"query": "subject:K8s"})["data"]["messages"][0]["threadId"]
    assert not tools.execute("GMAIL_REPLY_TO_THREAD", {"thread_id": thread})["successful"]
    reply = tools.execute("GMAIL_REPLY_TO_THREAD", {"thread_id": f"thread-f:{thread}", "cc": [ALEX]})
    assert reply["successful"] and reply["data"]["response_data"]["threadId"] == thread
    sent = outcome(tools.world).sent[0]
    assert sent.body == "" and sent.cc == [ALEX] and sent.thread_id == thread


def test_listing_threads_verbose_gives_their_messages(tools: SandboxToolset) -> None:
    light = tools.execute("GMAIL_LIST_THREADS", {"max_results": 2})["data"]["threads"]
    assert [set(t) for t in light] == [{"id", "snippet", "historyId"}] * 2
    full = tools.execute("GMAIL_LIST_THREADS", {"max_results": 2, "verbose": True})["data"]["threads"]
    assert all(t["messages"] and t["messages"][0]["threadId"] == t["id"] for t in full)


def test_a_message_in_raw_form_is_its_rfc_2822_text(tools: SandboxToolset) -> None:
    first = tools.execute("GMAIL_FETCH_EMAILS", {})["data"]["messages"][0]
    got = tools.execute(
        "GMAIL_FETCH_MESSAGE_BY_MESSAGE_ID", {"message_id": first["messageId"], "format": "raw"}
    )
    text = base64.urlsafe_b64decode(got["data"]["raw"]).decode()
    assert f"Subject: {first['subject']}" in text and text.endswith(first["messageText"])
    assert not tools.execute(
        "GMAIL_FETCH_MESSAGE_BY_MESSAGE_ID", {"message_id": first["messageId"], "format": "html"}
    )["successful"]


def test_trash_hides_a_message_from_the_inbox_but_not_from_in_trash(tools: SandboxToolset) -> None:
    hit = tools.execute("GMAIL_FETCH_EMAILS", {"query": "subject:K8s", "max_results": 1})
    message_id = hit["data"]["messages"][0]["messageId"]
    trashed = tools.execute("GMAIL_MOVE_TO_TRASH", {"message_id": message_id})
    assert trashed["successful"] and "TRASH" in trashed["data"]["email"]["labelIds"]
    assert tools.execute("GMAIL_FETCH_EMAILS", {"query": "subject:K8s"})["data"]["messages"] == []
    assert len(tools.execute("GMAIL_FETCH_EMAILS", {"query": "in:trash"})["data"]["messages"]) == 1
    assert not tools.execute("GMAIL_MOVE_TO_TRASH", {"message_id": "nope"})["successful"]


def test_newer_fetch_options_ids_only_and_verbose(tools: SandboxToolset) -> None:
    ids = tools.execute("GMAIL_FETCH_EMAILS", {"max_results": 3, "ids_only": True})
    assert [set(m) for m in ids["data"]["messages"]] == [{"messageId", "threadId"}] * 3
    light = tools.execute("GMAIL_FETCH_EMAILS", {"max_results": 1, "verbose": False})
    assert light["data"]["messages"][0]["messageText"] is None
    assert light["data"]["messages"][0]["payload"] is None
    assert not tools.execute("GMAIL_FETCH_EMAILS", {"ids_only": "sometimes"})["successful"]


def header(message: dict[str, Any], name: str) -> str:
    return next(h["value"] for h in message["payload"]["headers"] if h["name"] == name)


def test_messages_carry_the_payload_with_headers_and_the_body_parts(tools: SandboxToolset) -> None:
    """Composio's message: no `cc` key; Cc, Date, Message-ID are headers; the body is in parts."""
    sent = tools.execute(
        "GMAIL_SEND_EMAIL",
        {"recipient_email": ALEX, "subject": "Status", "body": "Done.", "cc": ["x@acme.example"]},
    )
    got = tools.execute(
        "GMAIL_FETCH_MESSAGE_BY_MESSAGE_ID", {"message_id": sent["data"]["response_data"]["id"]}
    )["data"]
    assert "cc" not in got and header(got, "Cc") == "x@acme.example" and header(got, "To") == ALEX
    plain = next(p for p in got["payload"]["parts"] if p["mimeType"] == "text/plain")
    assert base64.urlsafe_b64decode(plain["body"]["data"] + "==").decode() == "Done."
    assert got["messageText"] == "Done." and got["preview"]["body"] == "Done."
    headers_only = tools.execute("GMAIL_FETCH_EMAILS", {"query": "in:sent", "include_payload": False})
    message = headers_only["data"]["messages"][0]
    assert header(message, "Subject") == "Status" and "parts" not in message["payload"]
    assert message["messageText"] is None
    minimal = tools.execute(
        "GMAIL_FETCH_MESSAGE_BY_MESSAGE_ID", {"message_id": got["messageId"], "format": "minimal"}
    )
    assert minimal["data"]["payload"] is None


def test_the_last_page_has_an_empty_next_page_token(tools: SandboxToolset) -> None:
    everything = tools.execute("GMAIL_FETCH_EMAILS", {"max_results": 100})
    assert everything["data"]["nextPageToken"] == "", "Composio's field is a string: empty at the end"
