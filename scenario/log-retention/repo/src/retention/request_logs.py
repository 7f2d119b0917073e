"""Request logs (client IP addresses): the nightly purge and how an IP is stored."""

from datetime import datetime

from retention.common import cutoff

RETENTION_DAYS = 30
DELETE_BATCH_ROWS = 5_000  # rows deleted per transaction
ANONYMISE_IPS = True


def purge_before(now: datetime) -> datetime:
    """Request-log rows older than this are deleted."""
    return cutoff(now, RETENTION_DAYS)


def stored_ip(ip: str) -> str:
    """An IPv4 address as it is written to the log: the last octet zeroed when anonymising."""
    if not ANONYMISE_IPS:
        return ip
    head, _, _ = ip.rpartition(".")
    return f"{head}.0"
