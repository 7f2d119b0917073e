"""The Composio SDK, configured for this project: pinned toolkit versions, the configured user and
connected accounts, no telemetry, and every result as the `{data, successful, error}` envelope.

`base_url` (COMPOSIO_BASE_URL) lets the same code talk to a local fake in tests.
"""

from __future__ import annotations

from typing import Any

import httpx
from composio import Composio
from composio.exceptions import ComposioError
from composio_client import APIConnectionError, APIStatusError

from evals.errors import BadInputError, InfrastructureError
from evals.live.config import LiveConfig
from evals.tools.base import Envelope


def toolkit_of(slug: str) -> str:
    return slug.split("_", 1)[0].lower()


class ComposioApi:
    def __init__(self, config: LiveConfig) -> None:
        self.config = config
        kwargs: dict[str, Any] = {
            "api_key": config.composio_api_key,
            "toolkit_versions": dict(config.composio_toolkit_versions),
            "allow_tracking": False,
        }
        if config.composio_base_url:
            kwargs["base_url"] = config.composio_base_url
        self.sdk = Composio(**kwargs)

    def tool_schemas(self, slugs: list[str]) -> list[dict[str, Any]]:
        """Anthropic tool definitions for the slugs, fetched from Composio at the pinned versions."""
        try:
            tools = self.sdk.tools.get_raw_composio_tools(tools=slugs)
        except APIStatusError as exc:
            raise _status_error(exc, "listing tools") from exc
        except (APIConnectionError, httpx.HTTPError) as exc:
            raise InfrastructureError(f"Composio unreachable while listing tools: {exc}") from exc
        found = {t.slug: t for t in tools}
        missing = [s for s in slugs if s not in found]
        if missing:
            raise BadInputError(f"Composio has no tool {', '.join(missing)} at the pinned toolkit versions")
        return [
            {"name": s, "description": found[s].description, "input_schema": found[s].input_parameters}
            for s in slugs
        ]

    def execute(self, slug: str, args: dict[str, Any], account: str | None = None) -> Envelope:
        """Run a tool as the configured user; a refusal is an error envelope, an outage is raised."""
        toolkit = toolkit_of(slug)
        try:
            result = self.sdk.tools.execute(
                slug,
                args,
                user_id=self.config.composio_user_id,
                connected_account_id=account or self.config.accounts().get(toolkit),
                version=self.config.composio_toolkit_versions.get(toolkit),
            )
        except APIStatusError as exc:
            if exc.status_code in (401, 403) or exc.status_code >= 500:
                raise _status_error(exc, slug) from exc
            return {"data": {}, "successful": False, "error": _message(exc)}
        except (APIConnectionError, httpx.HTTPError, TimeoutError) as exc:
            raise InfrastructureError(f"Composio unreachable while running {slug}: {exc}") from exc
        except ComposioError as exc:  # the SDK refused the call (unknown tool, bad arguments)
            return {"data": {}, "successful": False, "error": f"{type(exc).__name__}: {str(exc)[:300]}"}
        return {
            "data": result.get("data", {}),
            "successful": bool(result.get("successful")),
            "error": result.get("error"),
        }

    def check(self) -> None:
        """Fail fast on a wrong key, user or Gmail account: two cheap read-only requests."""
        self.tool_schemas(["GMAIL_FETCH_EMAILS"])
        probe = self.execute(
            "GMAIL_FETCH_EMAILS", {"query": "in:sent", "max_results": 1, "include_payload": False}
        )
        if not probe["successful"]:
            raise BadInputError(
                "COMPOSIO_GMAIL_ACCOUNT / COMPOSIO_USER_ID: Composio could not read the agent's Gmail "
                f"({probe['error']})"
            )


def _message(exc: APIStatusError) -> str:
    return f"HTTP {exc.status_code}: {str(exc)[:300]}"


def _status_error(exc: APIStatusError, doing: str) -> Exception:
    if exc.status_code in (401, 403):
        return BadInputError(f"COMPOSIO_API_KEY was refused ({exc.status_code}) while {doing}")
    return InfrastructureError(f"Composio failed while {doing}: {_message(exc)}")
