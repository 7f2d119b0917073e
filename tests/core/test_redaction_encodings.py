"""Planted secrets in every encoding, through every path a value takes into a run directory, are
found nowhere in it, nor on the console or in the job summary.

The encodings searched for are computed here, independently of evals.core.redact: as written,
URL-encoded, hex, and standard and URL-safe base64 of the secret starting at byte 0, 1 and 2 of a
blob (an 8-character window wholly inside the secret's bits).
"""

from __future__ import annotations

import base64
import json
import os
from pathlib import Path
from urllib.parse import quote, quote_plus

import pytest

from evals.agents import AgentPrompts
from evals.cli import main
from evals.core.errors import InfrastructureError
from evals.core.redact import redact, redact_text
from evals.world.toolset import Toolset
from tests.support.agents import trial_of

PLANTED = {
    "GITHUB_TOKEN": "ghp_Pl4ntedGithubToken0123456789ab",
    "NOTION_TOKEN": "secret_pl4ntedNotionToken98765",
    "COMPOSIO_API_KEY": "cmp-pl4nted-key/with+slash=eq",
    "ANTHROPIC_API_KEY": "sk-ant-pl4nted-anthropic-key-000",
    "DB_PASSWORD": "p@ss w0rd&more?chars#here",
    "DEPLOY_SECRET": "deploy-secret-value-4242-xyz",
    "AWS_SECRET_ACCESS_KEY": "wJalrXUtnFEMI/K7MDENG/bPxRfiCY",
    "SERVICE_CREDENTIAL": "cred:üñíçødé-valué-123",
}


def b64_forms(raw: bytes) -> list[str]:
    forms = []
    for offset in range(3):
        window = base64.b64encode(b"A" * offset + raw).decode()[4:12]
        forms += [window, window.replace("+", "-").replace("/", "_")]
    return forms


def forms_of(secret: str) -> list[str]:
    raw = secret.encode()
    return [secret, quote(secret, safe=""), quote_plus(secret), raw.hex(), raw.hex().upper(), *b64_forms(raw)]


def leak_text() -> str:
    """Every planted value, written out by an agent in every encoding, inside ordinary text."""
    parts = []
    for secret in PLANTED.values():
        raw = secret.encode()
        parts += [f"plain {secret}", f"url={quote(secret, safe='')}", f"q={quote_plus(secret)}"]
        parts += [f"hex {raw.hex()}", f"HEX {raw.hex().upper()}"]
        for prefix in (b"", b"a", b"ab"):
            parts.append("b64 " + base64.b64encode(prefix + raw).decode())
            parts.append("b64url " + base64.urlsafe_b64encode(prefix + raw).decode())
    return "\n".join(parts)


class Leaker:
    """Writes the secrets through each path: tool arguments (the base64 `content` of a file commit,
    a commit message, an email body), tool results (the file read back, the email fetched), its
    final summary, and by trial an agent crash (1) or an infrastructure error (2)."""

    async def __call__(self, prompts: AgentPrompts, toolset: Toolset) -> str:
        trial = trial_of(prompts)
        text = leak_text()
        repo = {"owner": "acme-ai-labs", "repo": f"demo-repo-{trial}"}
        content = base64.b64encode(text.encode()).decode()
        await toolset.call(
            "GITHUB_CREATE_OR_UPDATE_FILE_CONTENTS",
            {**repo, "path": "leak.txt", "message": text, "content": content},
        )
        await toolset.call("GITHUB_GET_REPOSITORY_CONTENT", {**repo, "path": "leak.txt"})
        await toolset.call(
            "GMAIL_SEND_EMAIL", {"recipient_email": "ops@example.com", "subject": "keys", "body": text}
        )
        await toolset.call("GMAIL_FETCH_EMAILS", {"max_results": 5})
        if trial == 1:
            raise RuntimeError(f"agent crashed: {text}")
        if trial == 2:
            raise InfrastructureError(f"GET https://api.example/v1?token={text} failed")
        return text


def test_no_planted_secret_in_any_encoding_leaves_a_trace(
    project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    for name, value in PLANTED.items():
        monkeypatch.setenv(name, value)
    job_summary = project / "job-summary.md"
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(job_summary))
    out = project / "runs" / "leaky"
    main(["run", "--agent", "tests.core.test_redaction_encodings:Leaker", "--trials", "3", "--out", str(out)])
    printed = capsys.readouterr()

    files = [p for p in out.rglob("*") if p.is_file()]
    assert len(files) >= 8 and job_summary.is_file()
    blobs = {str(p.relative_to(out)): p.read_bytes() for p in files}
    blobs["<console>"] = (printed.out + printed.err).encode()
    blobs["<job summary>"] = job_summary.read_bytes()
    leaks = [
        (where, name, form)
        for name, secret in PLANTED.items()
        for form in forms_of(secret)
        for where, data in blobs.items()
        if form.encode() in data
    ]
    assert leaks == []

    # The values really went through each path, and were replaced rather than dropped.
    trials = out / "trials" / "trial-run"
    calls = {c["tool"]: c for c in json.loads((trials / "0" / "transcript.json").read_text())["tool_calls"]}
    commit = calls["GITHUB_CREATE_OR_UPDATE_FILE_CONTENTS"]["args"]
    assert base64.b64decode(commit["content"]).decode().count("[REDACTED]") >= len(PLANTED)  # still base64
    read_back = calls["GITHUB_GET_REPOSITORY_CONTENT"]["result"]["data"]["content"]
    assert base64.b64decode(read_back).decode().splitlines()[:2] == ["plain [REDACTED]", "url=[REDACTED]"]
    assert "[REDACTED]" in calls["GMAIL_SEND_EMAIL"]["args"]["body"]
    assert "[REDACTED]" in json.loads((trials / "0" / "transcript.json").read_text())["final_text"]
    assert "[REDACTED]" in (trials / "0" / "world.json").read_text()
    assert "agent crashed: plain [REDACTED]" in (trials / "1" / "transcript.json").read_text()
    errored = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    assert any("token=plain [REDACTED]" in (r.get("error") or "") for r in errored)


def test_base64_content_is_stored_as_base64_of_the_redacted_text() -> None:
    secret = "ghp_Pl4ntedGithubToken0123456789ab"
    text = f"config:\n  token: {secret}\n"
    for encode in (base64.b64encode, base64.urlsafe_b64encode):
        stored = redact({"content": encode(text.encode()).decode()}, [secret])["content"]
        decoded = base64.b64decode(stored, altchars=b"-_" if encode is base64.urlsafe_b64encode else None)
        assert decoded.decode() == "config:\n  token: [REDACTED]\n"


def test_text_without_secrets_is_unchanged_and_redaction_is_a_no_op_without_any() -> None:
    words = "Authorization header AbCdEfGhIjKlMnOp and some ordinary prose"
    assert redact_text(words, ["ghp_Pl4ntedGithubToken0123456789ab"]) == words
    assert redact({"a": [words]}, []) == {"a": [words]}
    assert os.environ.get("GITHUB_TOKEN") is None
