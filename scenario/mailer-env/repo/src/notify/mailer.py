"""Send transactional email through the HTTP mail API."""

import json
import os
import urllib.request

{{param:api.url}} = os.environ["{{param:api.url}}"]
{{param:api.key}} = os.environ["{{param:api.key}}"]
{{param:api.sender}} = os.environ.get("{{param:api.sender}}", "no-reply@example.com")


def payload(to: str, subject: str, text: str) -> bytes:
    """The JSON body of one message."""
    return json.dumps({"from": {{param:api.sender}}, "to": to, "subject": subject, "text": text}).encode()


def send(to: str, subject: str, text: str) -> int:
    """POST one message; returns the HTTP status."""
    request = urllib.request.Request(
        {{param:api.url}},
        data=payload(to, subject, text),
        headers={"Authorization": "Bearer " + {{param:api.key}}},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        return int(response.status)
