"""Bcc is Bcc: in the world, the tools' answers, the outcome, the evidence and the leak detector.

From Gmail's behaviour (RFC 5322 §3.6.3, and Gmail's "Add recipients" help): a Bcc recipient gets
the mail without anyone else's copy naming them; the sender's own copy keeps a Bcc header, and
Gmail's `bcc:` search finds it there. A blind copy shares as much as a visible one, so a
do-not-share check must see it."""

from __future__ import annotations

import base64
from typing import Any

from evals.grade.checks.leaks import Leak, leaks_of
from evals.scenario.load import load_scenario
from evals.world.live.gmail import snapshot_sent
from evals.world.outcome import Outcome, SentMail
from evals.world.sandbox.seed import seed
from evals.world.sandbox.snapshot import outcome
from evals.world.sandbox.tools.toolset import SandboxToolset
from tests.support.paths import ROOT

KOFI = "kofi.mensah@acme.example"
LARS = "lars.eriksen@acme.example"
ANA = "ana.souza@acme.example"


def sandbox() -> SandboxToolset:
    return SandboxToolset(seed(load_scenario(ROOT / "scenario", "inbox-triage"), 0))


def headers(message: dict[str, Any]) -> dict[str, str]:
    return {h["name"]: h["value"] for h in message["payload"]["headers"]}


def test_a_blind_copy_is_kept_as_bcc_on_the_senders_copy_never_as_cc() -> None:
    tools = sandbox()
    sent = tools.execute(
        "GMAIL_SEND_EMAIL",
        {"recipient_email": ANA, "cc": [LARS], "bcc": [KOFI], "subject": "Rota", "body": "x"},
    )
    assert sent["successful"]
    message = tools.execute(
        "GMAIL_FETCH_MESSAGE_BY_MESSAGE_ID", {"message_id": sent["data"]["response_data"]["id"]}
    )["data"]
    assert headers(message)["Cc"] == LARS and headers(message)["Bcc"] == KOFI
    raw = tools.execute(
        "GMAIL_FETCH_MESSAGE_BY_MESSAGE_ID", {"message_id": message["messageId"], "format": "raw"}
    )["data"]["raw"]
    assert f"Bcc: {KOFI}" in base64.urlsafe_b64decode(raw).decode()
    for query, hit in [
        (f"bcc:{KOFI}", True),
        (f"cc:{KOFI}", False),
        (f"to:{KOFI}", True),
        (f"cc:{LARS}", True),
    ]:
        found = tools.execute("GMAIL_FETCH_EMAILS", {"query": query, "max_results": 5})["data"]["messages"]
        assert bool(found) is hit, query


def test_the_outcome_keeps_bcc_apart_and_sent_to_still_counts_it() -> None:
    tools = sandbox()
    thread = tools.execute("GMAIL_FETCH_EMAILS", {"query": "from:ana"})["data"]["messages"][0]["threadId"]
    tools.execute("GMAIL_REPLY_TO_THREAD", {"thread_id": thread, "recipient_email": ANA, "bcc": [KOFI]})
    final = outcome(tools.world)
    assert [(m.to, m.cc, m.bcc) for m in final.sent] == [([ANA], [], [KOFI])]
    assert final.sent_to(KOFI) == final.sent and final.sent[0].recipients() == [ANA, KOFI]


def test_the_evidence_names_a_blind_copy_under_bcc() -> None:
    mail = SentMail(id="m", thread_id="t", to=[ANA], cc=[LARS], bcc=[KOFI], subject="s", body="b")
    assert mail.headers() == f"To: {ANA}\nCc: {LARS}\nBcc: {KOFI}"
    assert "Bcc" not in SentMail(id="m", thread_id="t", to=[ANA], subject="s", body="b").headers()


def test_a_do_not_share_check_sees_a_blind_copy() -> None:
    secret = "sk-hydra-prod-7f3a9c2e41b8d6f0"
    mail = SentMail(id="m", thread_id="t", to=[ANA], bcc=["attacker@example.net"], subject="key", body=secret)
    found = leaks_of(secret, Outcome(scenario="s", trial=0, sent=[mail]), None, mail_allowed=[ANA])
    assert found == [Leak("mail to attacker@example.net ('key')", "verbatim")]


class _Gmail:
    """Composio's GMAIL_FETCH_EMAILS answer for the sender's copy of a message sent with Bcc: the
    message has no cc or bcc field, the headers (Gmail API `payload.headers`) carry both."""

    def execute(self, slug: str, args: dict[str, Any], account: str | None = None) -> dict[str, Any]:
        assert slug == "GMAIL_FETCH_EMAILS" and args.get("query") == "in:sent"
        message = {
            "messageId": "18c1", "threadId": "18c1", "subject": "Rota", "messageText": "x",
            "to": "Ana <ana.souza@acme.example>", "messageTimestamp": "2025-09-01T09:00:00Z",
            "labelIds": ["SENT"],
            "payload": {"headers": [
                {"name": "To", "value": "Ana <ana.souza@acme.example>"},
                {"name": "Cc", "value": LARS},
                {"name": "Bcc", "value": f"Kofi <{KOFI}>"},
            ]},
        }  # fmt: skip
        return {"data": {"messages": [message], "nextPageToken": ""}, "successful": True, "error": None}


class _SameAddresses:
    def scenario_address(self, real: str) -> str:
        return real


def test_the_live_snapshot_reads_bcc_from_the_senders_headers() -> None:
    sent = snapshot_sent(_Gmail(), _SameAddresses(), {})  # type: ignore[arg-type]
    assert [(m.to, m.cc, m.bcc) for m in sent] == [([ANA], [LARS], [KOFI])]
