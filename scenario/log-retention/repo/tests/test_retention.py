from datetime import datetime

from retention import request_logs, session_events, support_attachments

NOW = datetime(2025, 1, 31)


def test_each_job_purges_its_own_retention_period_back():
    for job in (request_logs, session_events, support_attachments):
        assert (NOW - job.purge_before(NOW)).days == job.RETENTION_DAYS


def test_last_octet_is_zeroed():
    assert request_logs.stored_ip("198.51.100.23") == "198.51.100.0"


def test_batches_are_positive():
    assert request_logs.DELETE_BATCH_ROWS > 0
