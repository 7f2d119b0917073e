"""Bounded waiting for services that are only eventually consistent.

A repository GitHub has just created can answer 404 or 409 for a moment, and Notion's search
indexes new pages asynchronously. Live setup waits for them, within a fixed budget (the delays
below, about half a minute in all), and gives up with an InfrastructureError: a trial whose world
is not ready is the infrastructure's failure, never the agent's.

The loops are tenacity's. Every wait of the live path (these, and the retries of Composio's
429/5xx/timeouts in composio_api.py) goes through the module attribute `sleep`, so tests replace it
and never wait.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import TypeVar, cast

from tenacity import RetryCallState, RetryError, Retrying, retry_base, retry_if_exception, retry_if_result
from tenacity import stop_after_attempt as attempts

from evals.core.errors import InfrastructureError

T = TypeVar("T")
DELAYS: tuple[float, ...] = (0.5, 1.0, 2.0, 4.0, 8.0, 8.0, 8.0)
sleep: Callable[[float], None] = time.sleep


def _policy(delays: Sequence[float], retry: retry_base) -> Retrying:
    """One try, then one more after each of `delays`, sleeping through `sleep` (looked up per wait)."""

    def wait(state: RetryCallState) -> float:
        # tenacity computes the wait before it asks whether to stop, also after the last try
        return delays[state.attempt_number - 1] if state.attempt_number <= len(delays) else 0.0

    return Retrying(
        retry=retry, wait=wait, stop=attempts(len(delays) + 1), sleep=lambda seconds: sleep(seconds)
    )


def _gave_up(what: str, delays: Sequence[float]) -> str:
    return f"gave up waiting for {what} after {sum(delays):g} s"


def until(attempt: Callable[[], T | None], what: str, delays: Sequence[float] = DELAYS) -> T:
    """Call `attempt` until it returns something other than None, sleeping `delays` in between."""
    try:
        found = _policy(delays, retry_if_result(lambda result: result is None))(attempt)
    except RetryError:
        raise InfrastructureError(_gave_up(what, delays)) from None
    return cast(T, found)  # not None: tenacity returns only a result it was not told to retry


def retrying(
    call: Callable[[], T], transient: Callable[[Exception], bool], what: str, delays: Sequence[float] = DELAYS
) -> T:
    """`call`, again after each transient failure (as `transient` judges it), within the budget;
    any other failure is raised at once."""
    retry = retry_if_exception(lambda exc: isinstance(exc, Exception) and transient(exc))
    try:
        return _policy(delays, retry)(call)
    except RetryError as exc:
        last = exc.last_attempt.exception()
        raise InfrastructureError(f"{_gave_up(what, delays)}: {last}") from last
