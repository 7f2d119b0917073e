from datetime import datetime

from retention.purge import cutoff, stored_ip
from retention.settings import RETENTION_DAYS


def test_cutoff_is_retention_days_back():
    now = datetime(2025, 1, 31)
    assert (now - cutoff(now)).days == RETENTION_DAYS


def test_last_octet_is_zeroed():
    assert stored_ip("198.51.100.23") == "198.51.100.0"
