"""Send transactional email through the HTTP mail API."""

import json
import os
import urllib.request

MAIL_API_URL = os.environ["MAIL_API_URL"]
MAIL_API_KEY = os.environ["MAIL_API_KEY"]
MAIL_FROM = os.environ.get("MAIL_FROM", "no-reply@example.com")


def send(to: str, subject: str, text: str) -> int:
    """POST one message; returns the HTTP status."""
    body = json.dumps({"from": MAIL_FROM, "to": to, "subject": subject, "text": text}).encode()
    request = urllib.request.Request(
        MAIL_API_URL, data=body, headers={"Authorization": f"Bearer {MAIL_API_KEY}"}, method="POST"
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        return int(response.status)
