"""The agent's tools in live mode: Composio's own, for the sandbox catalogue's slugs.

The scenario's prompts and replays speak of the scenario's world (`acme-ai-labs/demo-repo-0`,
`sam.rivera@acme.example`); this toolset points those names at the trial's real resources (its
repo, the real persona mailboxes) before a call goes out, so one prompt or replay works on both
backends. Results are Composio's, untouched, in the `{data, successful, error}` envelope.
"""

from __future__ import annotations

import asyncio
from typing import Any

from evals.world.live.composio_api import ComposioApi
from evals.world.toolset import Envelope


class Aliases:
    """Scenario names -> real ones: repo owner/name for GitHub tools, persona addresses anywhere."""

    def __init__(self, repo: tuple[str, str], real_repo: tuple[str, str], addresses: dict[str, str]) -> None:
        self.repo = (repo[0].lower(), repo[1].lower())
        self.real_repo = real_repo
        self.addresses = {k.lower(): v for k, v in addresses.items() if k.lower() != v.lower()}

    def apply(self, slug: str, args: dict[str, Any]) -> dict[str, Any]:
        out = {k: self._text(v) for k, v in args.items()}
        owner, repo = out.get("owner"), out.get("repo")
        if (
            slug.startswith("GITHUB_")
            and isinstance(owner, str)
            and isinstance(repo, str)
            and (owner.lower(), repo.lower()) == self.repo
        ):
            out["owner"], out["repo"] = self.real_repo
        return out

    def _text(self, value: Any) -> Any:
        if isinstance(value, str):
            for fake, real in self.addresses.items():
                if fake in value.lower():
                    value = _replace_ci(value, fake, real)
            return value
        if isinstance(value, list):
            return [self._text(v) for v in value]
        if isinstance(value, dict):
            return {k: self._text(v) for k, v in value.items()}
        return value


def _replace_ci(text: str, old: str, new: str) -> str:
    lower, out, start = text.lower(), [], 0
    while (found := lower.find(old, start)) != -1:
        out.append(text[start:found] + new)
        start = found + len(old)
    return "".join(out) + text[start:]


class ComposioToolset:
    def __init__(self, api: ComposioApi, schemas: list[dict[str, Any]], aliases: Aliases) -> None:
        self.api = api
        self._schemas = schemas
        self.aliases = aliases
        self.slugs = {s["name"] for s in schemas}

    def schemas(self) -> list[dict[str, Any]]:
        return self._schemas

    async def call(self, slug: str, args: dict[str, Any]) -> Envelope:
        if slug not in self.slugs:
            return {"data": {}, "successful": False, "error": f"Unknown tool {slug!r}"}
        real = self.aliases.apply(slug, args if isinstance(args, dict) else {})
        return await asyncio.to_thread(self.api.execute, slug, real)
