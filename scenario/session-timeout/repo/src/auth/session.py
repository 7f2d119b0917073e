"""Idle sessions: when one expires."""

from datetime import datetime, timedelta

from auth.settings import SESSION_TTL_MIN


def expires_at(last_seen: datetime) -> datetime:
    """A session last seen at `last_seen` expires SESSION_TTL_MIN minutes later."""
    return last_seen + timedelta(minutes=SESSION_TTL_MIN)
