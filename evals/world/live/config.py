"""Live-mode settings, read from the environment (and `.env`, which the CLI loads) and validated
up front, so a missing or malformed key exits 2 naming the key before any resource is created.

Real addresses and account ids live here, never in scenario data: a scenario speaks of personas
(`dev`, `cto`) with example addresses; this mapping says which real mailbox plays each persona.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from typing import Any, TypeVar

from pydantic import BaseModel, Field, ValidationError

from evals.core.errors import BadInputError
from evals.core.model import FrozenModel, StrictModel

# Composio toolkit versions the agent's tools are pinned to (override with COMPOSIO_TOOLKIT_VERSIONS).
# Pinning keeps a toolkit release from silently changing what the agent sees between baseline and PR.
# Each is a version whose documentation exists: Composio's Gmail and Notion toolkit pages at these
# versions are what the sandbox's parameters are held to (tests/fixtures/composio/docs/). No dated
# GitHub toolkit page was found; its schemas are the public dump's, taken in January 2026, which
# 20260113_00 is the contemporary version of (`evals tools check` compares them with a key).
DEFAULT_TOOLKIT_VERSIONS = {"github": "20260113_00", "gmail": "20260721_00", "notion": "20260915_00"}


class PersonaAccount(StrictModel):
    """The real mailbox that plays one scenario persona, and its Composio connected account."""

    address: str = Field(pattern=r"^[^@\s]+@[^@\s]+\.[^@\s]+$")
    account: str = Field(min_length=1, description="Composio connected account id of that Gmail")


class GitHubConfig(FrozenModel):
    """What creating, reading and deleting the trial repos needs (`run`, `janitor`)."""

    github_token: str = Field(min_length=1)
    github_owner: str = Field(min_length=1, pattern=r"^[A-Za-z0-9-]+$")
    github_api_url: str | None = None
    github_write_interval: float = Field(default=1.0, ge=0, description="seconds between writes")


class NotionConfig(FrozenModel):
    """What creating, reading and trashing the trial pages needs (`run`, `janitor`)."""

    notion_token: str = Field(min_length=1)
    notion_parent_page: str = Field(min_length=32)
    notion_api_url: str | None = None


class ComposioKeys(FrozenModel):
    """What reading Composio's tool schemas needs (`tools check`): the key and the pinned versions."""

    composio_api_key: str = Field(min_length=1)
    composio_base_url: str | None = None
    composio_toolkit_versions: dict[str, str] = Field(default_factory=lambda: dict(DEFAULT_TOOLKIT_VERSIONS))


class ComposioConfig(ComposioKeys):
    """What the agent's tools and the inbox need (`run`, `seed-inbox`): Composio and the mailboxes."""

    composio_user_id: str = Field(min_length=1)
    composio_gmail_account: str = Field(min_length=1)
    composio_github_account: str | None = None
    composio_notion_account: str | None = None
    agent_address: str = Field(pattern=r"^[^@\s]+@[^@\s]+\.[^@\s]+$")
    personas: dict[str, PersonaAccount] = Field(min_length=1)

    def accounts(self) -> dict[str, str]:
        """Connected account per toolkit the agent acts through (absent: Composio's default)."""
        out = {"gmail": self.composio_gmail_account}
        if self.composio_github_account:
            out["github"] = self.composio_github_account
        if self.composio_notion_account:
            out["notion"] = self.composio_notion_account
        return out


class CleanupConfig(GitHubConfig, NotionConfig):
    """`janitor`: the repos and pages, no Composio."""


class LiveConfig(GitHubConfig, NotionConfig, ComposioConfig):
    """`run --world live`: everything."""


# field -> environment variable; docs/live.md and .env.example list the same keys.
ENV_KEYS = {
    "github_token": "GITHUB_TOKEN",
    "github_owner": "GITHUB_OWNER",
    "github_api_url": "GITHUB_API_URL",
    "github_write_interval": "GITHUB_WRITE_INTERVAL",
    "notion_token": "NOTION_TOKEN",
    "notion_parent_page": "NOTION_PARENT_PAGE_ID",
    "notion_api_url": "NOTION_API_URL",
    "composio_api_key": "COMPOSIO_API_KEY",
    "composio_base_url": "COMPOSIO_BASE_URL",
    "composio_user_id": "COMPOSIO_USER_ID",
    "composio_gmail_account": "COMPOSIO_GMAIL_ACCOUNT",
    "composio_github_account": "COMPOSIO_GITHUB_ACCOUNT",
    "composio_notion_account": "COMPOSIO_NOTION_ACCOUNT",
    "composio_toolkit_versions": "COMPOSIO_TOOLKIT_VERSIONS",
    "agent_address": "LIVE_AGENT_ADDRESS",
    "personas": "LIVE_PERSONAS",
}
JSON_KEYS = {"composio_toolkit_versions", "personas"}


Stage = TypeVar("Stage", bound=BaseModel)


def load_stage_config(model: type[Stage], environ: Mapping[str, str] | None = None) -> Stage:
    """Read and check the keys one stage needs (the fields of `model`), and only those, so a step
    is given exactly its own secrets; every problem is reported at once, by variable name."""
    env = os.environ if environ is None else environ
    raw: dict[str, Any] = {}
    problems: list[str] = []
    for field, key in ENV_KEYS.items():
        value = env.get(key, "").strip()
        if field not in model.model_fields or not value:
            continue
        if field in JSON_KEYS:
            try:
                raw[field] = json.loads(value)
            except json.JSONDecodeError as exc:
                problems.append(f"{key}: not valid JSON ({exc.msg})")
                continue
        else:
            raw[field] = value
    config: Stage | None = None
    try:
        config = model.model_validate(raw)
    except ValidationError as exc:
        for err in exc.errors():
            field = str(err["loc"][0]) if err["loc"] else ""
            key = ENV_KEYS.get(field, field)
            detail = ".".join(str(p) for p in err["loc"][1:])
            why = "missing" if err["type"] == "missing" else err["msg"]
            problems.append(f"{key}{'.' + detail if detail else ''}: {why}")
    if problems or config is None:
        raise BadInputError("--world live: " + "; ".join(sorted(set(problems))) + " (see docs/live.md)")
    return config


def load_live_config(environ: Mapping[str, str] | None = None) -> LiveConfig:
    """Everything `run --world live` needs."""
    return load_stage_config(LiveConfig, environ)


def check_personas(config: ComposioConfig, persona_ids: list[str], scenario: str) -> None:
    """Every persona a scenario mails from must have a real mailbox mapped to it."""
    missing = [p for p in persona_ids if p not in config.personas]
    if missing:
        raise BadInputError(f"--world live: LIVE_PERSONAS has no entry for {', '.join(missing)} ({scenario})")
