"""The Composio SDK, configured for this project: pinned toolkit versions, the configured user and
connected accounts, no telemetry, and every result as the `{data, successful, error}` envelope.

Retries. The SDK retries its reads (listing tools) itself, but sends every tool execution without
retries, because an execution may be a write and Composio does not deduplicate them. This module
retries executions where that is safe (see `retryable`): a 429 (refused, so never run) after the
Retry-After it asks for; a 503 or a connection that never opened; and, for a tool that only reads
(FETCH, LIST, GET, SEARCH, RETRIEVE), also 408, other 5xx and timeouts. Once the retries are spent
the call raises InfrastructureError: a rate limit or an outage is never the agent's fault, so it
never reaches the agent as an ordinary tool failure. The loop is tenacity's (`retrying`); its waits
go through `polling.sleep`, which tests replace so that they never wait.

`base_url` (COMPOSIO_BASE_URL) lets the same code talk to a local fake in tests.
"""

from __future__ import annotations

import email.utils
import time
from typing import Any

import httpx
from composio import Composio
from composio.exceptions import ComposioError
from composio_client import APIConnectionError, APIStatusError, APITimeoutError
from tenacity import RetryCallState, Retrying, retry_if_exception, stop_after_attempt
from tenacity.stop import stop_base

from evals.core.errors import BadInputError, InfrastructureError
from evals.world.live import polling
from evals.world.live.config import ComposioConfig, ComposioKeys
from evals.world.toolset import Envelope

MAX_RETRIES = 5  # per request; without Retry-After the waits are 0.5, 1, 2, 4 and 8 s
MAX_WAIT_S = 60.0  # a longer Retry-After is not waited for: the trial is an infrastructure error
TIMEOUT_S = 120  # per request: a tool execution may wait on a slow service
TRANSIENT = {408, 409, 429}  # with 5xx: still failing after the retries, they are an outage
READS = ("FETCH", "LIST", "GET", "SEARCH", "RETRIEVE")


def reads_only(slug: str) -> bool:
    """A tool whose name says it only reads (GMAIL_FETCH_EMAILS, NOTION_SEARCH_NOTION_PAGE...)."""
    return slug.split("_", 1)[-1].startswith(READS)


def retryable(exc: Exception, reads: bool) -> bool:
    """Whether running the call again cannot repeat an effect: the service refused it (429, 503) or
    never got it (no connection), or the tool only reads."""
    if isinstance(exc, APIStatusError):
        return exc.status_code in (429, 503) or (reads and (exc.status_code == 408 or exc.status_code >= 500))
    if isinstance(exc, APITimeoutError):
        return reads
    return isinstance(exc, APIConnectionError) and (reads or isinstance(exc.__cause__, httpx.ConnectError))


def wait_for(exc: Exception, retry: int) -> float:
    """Retry-After (seconds or an HTTP date) when the answer has one, else 0.5 s doubling up to 8 s."""
    response = getattr(exc, "response", None)
    value = response.headers.get("retry-after") if isinstance(response, httpx.Response) else None
    if value:
        try:
            return max(0.0, float(value))
        except ValueError:
            when = email.utils.parsedate_to_datetime(value)
            return max(0.0, float(when.timestamp()) - time.time())
    return min(0.5 * 2.0**retry, 8.0)


class WaitTooLong(stop_base):
    """Stop when the coming wait (tenacity computes it before asking whether to stop) is over
    MAX_WAIT_S: a rate limit that long is an outage for this trial."""

    def __call__(self, retry_state: RetryCallState) -> bool:
        return retry_state.upcoming_sleep > MAX_WAIT_S


def retrying(slug: str) -> Retrying:
    """The retry policy for one execution of `slug`: retry what `retryable` allows, at most
    MAX_RETRIES times, waiting `wait_for`; stop at once when the wait asked for is over MAX_WAIT_S.
    The last error is re-raised as it came (`execute` turns it into an envelope or an outage)."""
    reads = reads_only(slug)

    def wait(state: RetryCallState) -> float:
        failure = state.outcome.exception() if state.outcome is not None else None
        return wait_for(failure, state.attempt_number - 1) if isinstance(failure, Exception) else 0.0

    return Retrying(
        retry=retry_if_exception(lambda exc: isinstance(exc, Exception) and retryable(exc, reads)),
        wait=wait,
        stop=stop_after_attempt(MAX_RETRIES + 1) | WaitTooLong(),
        sleep=lambda seconds: polling.sleep(seconds),  # looked up per wait, so tests can replace it
        reraise=True,
    )


def toolkit_of(slug: str) -> str:
    return slug.split("_", 1)[0].lower()


def make_sdk(keys: ComposioKeys, http_client: httpx.Client | None = None) -> Composio[Any, Any]:
    """The SDK for this project: the pinned toolkit versions, no telemetry; `http_client` is the
    transport it sends through (tests inject faults with one)."""
    kwargs: dict[str, Any] = {
        "api_key": keys.composio_api_key,
        "toolkit_versions": dict(keys.composio_toolkit_versions),
        "allow_tracking": False,
        "max_retries": MAX_RETRIES,  # the SDK's own, for its reads (executions are ours, below)
        "timeout": TIMEOUT_S,
    }
    if keys.composio_base_url:
        kwargs["base_url"] = keys.composio_base_url
    if http_client is not None:
        kwargs["http_client"] = http_client
    return Composio(**kwargs)


def raw_tools(sdk: Composio[Any, Any], slugs: list[str]) -> dict[str, Any]:
    """Composio's tool records (slug, description, input and output schemas, version) at the
    pinned toolkit versions, by slug; a slug Composio does not have is bad input."""
    try:
        tools = sdk.tools.get_raw_composio_tools(tools=slugs)
    except APIStatusError as exc:
        raise _status_error(exc, "listing tools") from exc  # the SDK has retried this read
    except (APIConnectionError, httpx.HTTPError) as exc:
        raise InfrastructureError(f"Composio unreachable while listing tools: {exc}") from exc
    found = {t.slug: t for t in tools}
    missing = [s for s in slugs if s not in found]
    if missing:
        raise BadInputError(f"Composio has no tool {', '.join(missing)} at the pinned toolkit versions")
    return found


class ComposioApi:
    def __init__(self, config: ComposioConfig, http_client: httpx.Client | None = None) -> None:
        self.config = config
        self.sdk = make_sdk(config, http_client)

    def tool_schemas(self, slugs: list[str]) -> list[dict[str, Any]]:
        """Anthropic tool definitions for the slugs, fetched from Composio at the pinned versions."""
        found = raw_tools(self.sdk, slugs)
        return [
            {"name": s, "description": found[s].description, "input_schema": found[s].input_parameters}
            for s in slugs
        ]

    def execute(self, slug: str, args: dict[str, Any], account: str | None = None) -> Envelope:
        """Run a tool as the configured user; a refusal is an error envelope, an outage is raised."""
        toolkit = toolkit_of(slug)
        policy = retrying(slug)
        try:
            result = policy(
                self.sdk.tools.execute,
                slug,
                args,
                user_id=self.config.composio_user_id,
                connected_account_id=account or self.config.accounts().get(toolkit),
                version=self.config.composio_toolkit_versions.get(toolkit),
            )
        except (APIStatusError, APIConnectionError) as exc:
            return self._failed(slug, exc, policy.statistics["attempt_number"] - 1)
        except ComposioError as exc:  # the SDK refused the call (unknown tool, bad arguments)
            return {"data": {}, "successful": False, "error": f"{type(exc).__name__}: {str(exc)[:300]}"}
        return {
            "data": result.get("data", {}),
            "successful": bool(result.get("successful")),
            "error": result.get("error"),
        }

    def _failed(self, slug: str, exc: Exception, retries: int) -> Envelope:
        """A call that will not succeed: the agent's error envelope, or an outage raised."""
        tried = f" after {retries} retries" if retries else ""
        if isinstance(exc, APIStatusError):
            if exc.status_code in (401, 403) or exc.status_code in TRANSIENT or exc.status_code >= 500:
                raise _status_error(exc, f"running {slug}{tried}") from exc
            return {"data": {}, "successful": False, "error": _message(exc)}
        raise InfrastructureError(f"Composio unreachable while running {slug}{tried}: {exc}") from exc

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
