"""Session events (user ids, devices): the nightly purge."""

from datetime import datetime

from retention.common import cutoff

RETENTION_DAYS = 400


def purge_before(now: datetime) -> datetime:
    """Session events older than this are deleted."""
    return cutoff(now, RETENTION_DAYS)
