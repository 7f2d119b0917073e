"""What every retention job shares: the cutoff before which rows are deleted."""

from datetime import datetime, timedelta


def cutoff(now: datetime, days: int) -> datetime:
    """Rows logged before this instant are deleted."""
    return now - timedelta(days=days)
