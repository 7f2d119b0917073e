"""Keep secrets out of every file a run writes, and out of the console and the job summary.

Known secret values (environment variables whose names say KEY, TOKEN, SECRET, PASSWORD or
CREDENTIAL) are replaced wherever they appear, in every form an agent or a tool contract is likely
to give them: as written, URL-encoded, hex, and standard or URL-safe base64 at each of the three
byte alignments (a secret in the middle of a base64 blob encodes differently depending on where it
starts; only the characters wholly inside the secret are matched). `GITHUB_CREATE_OR_UPDATE_FILE_CONTENTS`
takes its `content` base64 by contract, so a whole string that is base64 of text is decoded, redacted
and encoded again: the stored value stays valid base64, of the redacted text.

The scenario's planted fake secret is data the grader must see, so it is not an environment value
and is left alone.
"""

from __future__ import annotations

import base64
import binascii
import functools
import html
import os
import re
from typing import Any
from urllib.parse import quote, quote_plus

SECRET_NAME = re.compile(r"(KEY|TOKEN|SECRET|PASSWORD|CREDENTIAL)", re.IGNORECASE)
MIN_LENGTH = 8
MARK = "[REDACTED]"
# A whole string worth decoding: base64 (either alphabet) of at least one secret's length.
_BASE64_STRING = re.compile(r"[A-Za-z0-9+/_\-\s]{12,}={0,2}")


def known_secrets(environ: dict[str, str] | None = None) -> list[str]:
    env = os.environ if environ is None else environ
    values = {v for k, v in env.items() if SECRET_NAME.search(k) and len(v) >= MIN_LENGTH}
    return sorted(values, key=len, reverse=True)


def _base64_cores(raw: bytes) -> set[str]:
    """The base64 characters that depend only on `raw`, wherever in a blob it starts (offset 0/1/2),
    in the standard and the URL-safe alphabet."""
    cores = set()
    for offset in range(3):
        encoded = base64.b64encode(b"\0" * offset + raw).decode("ascii")
        start = -(-8 * offset // 6)  # first character with no bit of the prefix
        end = 8 * (offset + len(raw)) // 6  # past the last character with no bit of what follows
        core = encoded[start:end]
        cores.add(core)
        cores.add(core.replace("+", "-").replace("/", "_"))
    return cores


def encodings(secret: str) -> set[str]:
    """Every form of `secret` that is redacted: as is, URL-encoded, hex, base64 (see above), each
    also of the secret HTML-escaped, because a mail body reaches the agent as base64 of HTML."""
    forms: set[str] = set()
    for text in {secret, html.escape(secret), html.escape(secret, quote=False)}:
        raw = text.encode("utf-8")
        forms |= {text, quote(text, safe=""), quote_plus(text), raw.hex(), raw.hex().upper()}
        forms |= _base64_cores(raw)
    return {f for f in forms if len(f) >= MIN_LENGTH}


@functools.lru_cache(maxsize=8)
def _pattern(secrets: tuple[str, ...]) -> re.Pattern[str] | None:
    forms = sorted({f for s in secrets for f in encodings(s)}, key=len, reverse=True)
    if not forms:
        return None
    return re.compile("|".join(re.escape(f) for f in forms))


def _redact_base64(text: str, pattern: re.Pattern[str]) -> str | None:
    """A whole base64 string of UTF-8 text whose decoded text holds a secret: the same encoding of
    the redacted text. None when `text` is not such a string."""
    compact = re.sub(r"\s+", "", text)
    urlsafe = "-" in compact or "_" in compact
    try:
        decoded = base64.b64decode(compact + "=" * (-len(compact) % 4), altchars=b"-_" if urlsafe else None)
        plain = decoded.decode("utf-8")
    except (binascii.Error, ValueError):
        return None
    redacted = pattern.sub(MARK, plain)
    if redacted == plain:
        return None
    encode = base64.urlsafe_b64encode if urlsafe else base64.b64encode
    return encode(redacted.encode("utf-8")).decode("ascii")


def _redact(text: str, pattern: re.Pattern[str]) -> str:
    if len(text) >= 12 and _BASE64_STRING.fullmatch(text):
        recoded = _redact_base64(text, pattern)
        if recoded is not None:
            return recoded
    return pattern.sub(MARK, text)


def redact_text(text: str, secrets: list[str] | None = None) -> str:
    pattern = _pattern(tuple(known_secrets() if secrets is None else secrets))
    return text if pattern is None else _redact(text, pattern)


def redact(value: Any, secrets: list[str] | None = None) -> Any:
    """Redact every string (keys included) inside a JSON-able value."""
    pattern = _pattern(tuple(known_secrets() if secrets is None else secrets))
    return value if pattern is None else _walk(value, pattern)


def _walk(value: Any, pattern: re.Pattern[str]) -> Any:
    if isinstance(value, str):
        return _redact(value, pattern)
    if isinstance(value, dict):
        return {_walk(k, pattern): _walk(v, pattern) for k, v in value.items()}
    if isinstance(value, list):
        return [_walk(v, pattern) for v in value]
    return value
