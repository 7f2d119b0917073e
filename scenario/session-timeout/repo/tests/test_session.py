from datetime import datetime, timedelta

from auth import session, settings


def test_a_session_expires_after_the_idle_timeout():
    seen = datetime(2025, 10, 13, 9, 0)
    assert session.expires_at(seen) - seen == timedelta(minutes=settings.SESSION_TTL_MIN)


def test_login_attempts_are_limited():
    assert 0 < settings.MAX_LOGIN_ATTEMPTS <= 10
