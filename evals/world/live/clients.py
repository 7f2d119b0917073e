"""PyGithub and notion-client built from the live config, and the up-front credential checks.

Base URLs come from the config, so tests point the very same clients at local fakes.
"""

from __future__ import annotations

import httpx
from github import Auth, BadCredentialsException, Github, GithubException, UnknownObjectException
from notion_client import Client
from notion_client.errors import APIResponseError, RequestTimeoutError

from evals.core.errors import BadInputError, InfrastructureError
from evals.world.live.config import GitHubConfig, NotionConfig

NOTION_VERSION = "2025-09-03"  # the Notion API version every request sends (Notion-Version)


def github_client(config: GitHubConfig) -> Github:
    kwargs: dict[str, object] = {
        "auth": Auth.Token(config.github_token),
        "seconds_between_requests": None,
        "seconds_between_writes": config.github_write_interval or None,
    }
    if config.github_api_url:
        kwargs["base_url"] = config.github_api_url.rstrip("/")
    return Github(**kwargs)  # type: ignore[arg-type]


def notion_client(config: NotionConfig) -> Client:
    """notion-client at the pinned Notion API version (databases hold data sources from 2025-09-03:
    an unpinned client would follow whatever version its release defaults to)."""
    if config.notion_api_url:
        url = config.notion_api_url.rstrip("/")
        return Client(auth=config.notion_token, base_url=url, notion_version=NOTION_VERSION)
    return Client(auth=config.notion_token, notion_version=NOTION_VERSION)


def check_github(gh: Github, owner: str) -> None:
    try:
        login = gh.get_user().login
        if login.lower() != owner.lower():
            gh.get_organization(owner).login  # noqa: B018  (fetches the organisation)
    except BadCredentialsException as exc:
        raise BadInputError("GITHUB_TOKEN was refused by GitHub (401)") from exc
    except UnknownObjectException as exc:
        raise BadInputError(
            f"GITHUB_OWNER {owner!r}: not the token's user nor a visible organisation"
        ) from exc
    except GithubException as exc:
        raise InfrastructureError(f"GitHub check failed: {exc.status} {exc.data}") from exc
    except OSError as exc:
        raise InfrastructureError(f"GitHub unreachable: {exc}") from exc


def check_notion(notion: Client, parent: str) -> None:
    try:
        notion.pages.retrieve(page_id=parent)
    except APIResponseError as exc:
        if exc.status == 401:
            raise BadInputError("NOTION_TOKEN was refused by Notion (401)") from exc
        if exc.status in (403, 404):
            raise BadInputError(
                f"NOTION_PARENT_PAGE_ID {parent}: not found or not shared with the integration ({exc.status})"
            ) from exc
        raise InfrastructureError(f"Notion check failed: {exc.status} {exc}") from exc
    except (RequestTimeoutError, httpx.HTTPError, OSError) as exc:
        raise InfrastructureError(f"Notion unreachable: {exc}") from exc
