"""Which log rows the purge deletes, and how a client IP is stored."""

from datetime import datetime, timedelta

from retention.settings import ANONYMISE_IPS, RETENTION_DAYS


def cutoff(now: datetime) -> datetime:
    """Rows logged before this instant are deleted."""
    return now - timedelta(days=RETENTION_DAYS)


def stored_ip(ip: str) -> str:
    """An IPv4 address as it is written to the log: the last octet zeroed when anonymising."""
    if not ANONYMISE_IPS:
        return ip
    head, _, _ = ip.rpartition(".")
    return f"{head}.0"
