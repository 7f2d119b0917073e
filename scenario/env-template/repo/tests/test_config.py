import importlib

import pytest

VALUES = {
    "NOTIFIER_DB_URL": "postgresql://db.test/notifier",
    "NOTIFIER_REDIS_URL": "redis://cache.test:6379/0",
    "NOTIFIER_SMTP_HOST": "smtp.test",
    "NOTIFIER_SLACK_TOKEN": "test-only",
}


@pytest.fixture
def config(monkeypatch):
    for name, value in VALUES.items():
        monkeypatch.setenv(name, value)
    import app.config

    return importlib.reload(app.config)


def test_settings_come_from_the_environment(config):
    assert (config.DB_URL, config.REDIS_URL, config.SMTP_HOST, config.SLACK_TOKEN) == tuple(VALUES.values())


def test_the_smtp_host_defaults_to_localhost(config, monkeypatch):
    monkeypatch.delenv("NOTIFIER_SMTP_HOST")
    assert importlib.reload(config).SMTP_HOST == "localhost"
