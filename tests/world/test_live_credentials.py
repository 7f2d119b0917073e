"""Live mode refuses to start on missing or wrong credentials: exit 2, naming the key, before any
run directory or remote resource exists."""

from __future__ import annotations

from pathlib import Path

import pytest

from evals.cli import main
from tests.support.fakes import FakeServices

RUN = ["run", "--world", "live", "--scenario", "trial-run", "--agent", "replay:reference"]


def nothing_created(project: Path, services: FakeServices) -> bool:
    writes = [s for f in (services.github, services.notion) for s in f.served if s.method != "GET"]
    return not (project / "runs").exists() and not services.universe.world.repos and not writes


def test_missing_keys_are_named_and_nothing_is_contacted(
    project: Path, services: FakeServices, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("NOTION_TOKEN")
    monkeypatch.delenv("COMPOSIO_GMAIL_ACCOUNT")
    assert main([*RUN, "--out", str(project / "runs" / "x")]) == 2
    err = capsys.readouterr().err
    assert "NOTION_TOKEN: missing" in err and "COMPOSIO_GMAIL_ACCOUNT: missing" in err
    assert nothing_created(project, services)
    assert not services.github.served and not services.notion.served and not services.composio.served


def test_a_malformed_persona_mapping_is_bad_input(
    project: Path, services: FakeServices, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("LIVE_PERSONAS", '{"dev": {"address": "not-an-address", "account": "ca_1"}}')
    assert main([*RUN]) == 2
    assert "LIVE_PERSONAS.dev.address" in capsys.readouterr().err
    assert nothing_created(project, services)


@pytest.mark.parametrize(
    ("key", "named"),
    [
        ("GITHUB_TOKEN", "GITHUB_TOKEN was refused"),
        ("NOTION_TOKEN", "NOTION_TOKEN was refused"),
        ("COMPOSIO_API_KEY", "COMPOSIO_API_KEY was refused"),
    ],
)
def test_a_refused_token_exits_2_before_anything_is_created(
    project: Path,
    services: FakeServices,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    key: str,
    named: str,
) -> None:
    monkeypatch.setenv(key, "wrong-token")
    assert main([*RUN]) == 2
    assert named in capsys.readouterr().err
    assert nothing_created(project, services)


def test_a_notion_parent_the_integration_cannot_see_is_named(
    project: Path, services: FakeServices, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("NOTION_PARENT_PAGE_ID", "0" * 32)
    assert main([*RUN]) == 2
    assert "NOTION_PARENT_PAGE_ID" in capsys.readouterr().err
    assert nothing_created(project, services)


def test_a_persona_without_a_real_mailbox_is_named_by_seed_inbox(
    project: Path, services: FakeServices, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("LIVE_PERSONAS", '{"cto": {"address": "cto@inbox.example", "account": "ca_2"}}')
    assert main(["seed-inbox", "--scenario", "trial-run"]) == 2
    assert "LIVE_PERSONAS has no entry for dev" in capsys.readouterr().err
    assert services.universe.world.mailbox.messages == []


def test_a_gmail_account_composio_does_not_know_is_named(
    project: Path, services: FakeServices, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("COMPOSIO_GMAIL_ACCOUNT", "ca_nobody")
    assert main([*RUN]) == 2
    assert "COMPOSIO_GMAIL_ACCOUNT" in capsys.readouterr().err
    assert nothing_created(project, services)


def test_each_stage_asks_only_for_its_own_keys(
    project: Path, services: FakeServices, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The workflows give each step exactly its keys: seeding the inbox has no GitHub or Notion
    token, cleaning up has no Composio key, and each still runs."""
    with monkeypatch.context() as seed_step:
        for key in ("GITHUB_TOKEN", "NOTION_TOKEN", "GITHUB_OWNER", "NOTION_PARENT_PAGE_ID"):
            seed_step.delenv(key)
        assert main(["seed-inbox", "--scenario", "trial-run"]) == 0
    with monkeypatch.context() as cleanup_step:
        for key in ("COMPOSIO_API_KEY", "COMPOSIO_USER_ID", "COMPOSIO_GMAIL_ACCOUNT", "LIVE_PERSONAS"):
            cleanup_step.delenv(key)
        assert main(["janitor", "--yes"]) == 0
    monkeypatch.delenv("COMPOSIO_API_KEY")
    assert main(["seed-inbox", "--scenario", "trial-run"]) == 2
    assert "COMPOSIO_API_KEY: missing" in capsys.readouterr().err
