import importlib
import json
import sys


def load(monkeypatch):
    monkeypatch.setenv("{{param:api.url}}", "http://mail.invalid/send")
    monkeypatch.setenv("{{param:api.key}}", "test-key")
    monkeypatch.delenv("{{param:api.sender}}", raising=False)
    sys.modules.pop("notify.mailer", None)
    return importlib.import_module("notify.mailer")


def test_payload_uses_the_default_sender(monkeypatch):
    mailer = load(monkeypatch)
    body = json.loads(mailer.payload("a@example.com", "Hi", "Hello"))
    assert body == {"from": "no-reply@example.com", "to": "a@example.com", "subject": "Hi", "text": "Hello"}
