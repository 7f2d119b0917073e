"""Bounded waiting for services that are only eventually consistent.

A repository GitHub has just created can answer 404 or 409 for a moment, and Notion's search
indexes new pages asynchronously. Live setup waits for them, within a fixed budget (the delays
below, about half a minute in all), and gives up with an InfrastructureError: a trial whose world
is not ready is the infrastructure's failure, never the agent's.

The waiting goes through the module attribute `sleep`, so tests replace it and never wait.
(Retries of Composio's own 429/5xx/timeouts are the composio SDK's, see composio_api.py.)
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import TypeVar

from evals.errors import InfrastructureError

T = TypeVar("T")
DELAYS: tuple[float, ...] = (0.5, 1.0, 2.0, 4.0, 8.0, 8.0, 8.0)
sleep: Callable[[float], None] = time.sleep


def until(attempt: Callable[[], T | None], what: str, delays: Sequence[float] = DELAYS) -> T:
    """Call `attempt` until it returns something other than None, sleeping `delays` in between."""
    for delay in [*delays, None]:
        found = attempt()
        if found is not None:
            return found
        if delay is None:
            break
        sleep(delay)
    raise InfrastructureError(f"gave up waiting for {what} after {sum(delays):g} s")


def retrying(
    call: Callable[[], T], transient: Callable[[Exception], bool], what: str, delays: Sequence[float] = DELAYS
) -> T:
    """`call`, again after each transient failure (as `transient` judges it), within the budget."""
    last: Exception | None = None

    def attempt() -> T | None:
        nonlocal last
        try:
            return call()
        except Exception as exc:
            if not transient(exc):
                raise
            last = exc
            return None

    try:
        return until(attempt, what, delays)
    except InfrastructureError as exc:
        raise InfrastructureError(f"{exc}: {last}") from last
