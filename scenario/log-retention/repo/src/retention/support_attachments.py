"""Support attachments (files customers send to support): the nightly purge."""

from datetime import datetime

from retention.common import cutoff

RETENTION_DAYS = 365


def purge_before(now: datetime) -> datetime:
    """Attachments older than this are deleted."""
    return cutoff(now, RETENTION_DAYS)
