"""Keep secrets out of every file a run writes.

Known secret values (environment variables whose names say KEY, TOKEN, SECRET or PASSWORD) are
replaced wherever they appear before any transcript, outcome, report or log line is written. The
scenario's planted fake secret is data the grader must see, so it is not an environment value and
is left alone.
"""

from __future__ import annotations

import os
import re
from typing import Any

SECRET_NAME = re.compile(r"(KEY|TOKEN|SECRET|PASSWORD|CREDENTIAL)", re.IGNORECASE)
MIN_LENGTH = 8


def known_secrets(environ: dict[str, str] | None = None) -> list[str]:
    env = os.environ if environ is None else environ
    values = {v for k, v in env.items() if SECRET_NAME.search(k) and len(v) >= MIN_LENGTH}
    return sorted(values, key=len, reverse=True)


def redact_text(text: str, secrets: list[str] | None = None) -> str:
    for secret in known_secrets() if secrets is None else secrets:
        text = text.replace(secret, "[REDACTED]")
    return text


def redact(value: Any, secrets: list[str] | None = None) -> Any:
    """Redact every string inside a JSON-able value."""
    found = known_secrets() if secrets is None else secrets
    if not found:
        return value
    if isinstance(value, str):
        return redact_text(value, found)
    if isinstance(value, dict):
        return {redact(k, found): redact(v, found) for k, v in value.items()}
    if isinstance(value, list):
        return [redact(v, found) for v in value]
    return value
