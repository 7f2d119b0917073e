"""A stub Anthropic Messages API on 127.0.0.1 that answers from a script.

Tests drive the real anthropic SDK against it (ANTHROPIC_BASE_URL), so the code under test is the
code that runs live. Each POST /v1/messages takes the next scripted reply; a reply is either a
(status, body) pair or a callable that receives the request body and returns one. Every request is
recorded for assertions. Error replies carry `retry-after-ms: 1` so SDK retries are instant.

Replies are shaped as the Messages API documents them (platform.claude.com: handling-stop-reasons,
refusals-and-fallback, errors): every message has `stop_details` (null but for a refusal, which
carries `{type: refusal, category, explanation}` and usually no content), error bodies have a
top-level `request_id`, thinking blocks carry a `signature`. `sonnet_5_5()` wraps a reply function
with the 400s Claude Sonnet 5.5 is documented to answer (sampling parameters, forced tool choice,
thinking disabled or with a budget, assistant prefill), in the documented words.
"""

from __future__ import annotations

import itertools
import json
import threading
from collections.abc import Callable, Iterable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

Reply = tuple[int, dict[str, Any]]
Scripted = Reply | Callable[[dict[str, Any]], Reply]

_ids = itertools.count(1)


def usage(
    input_tokens: int = 100, output_tokens: int = 20, cache_read: int = 0, cache_write: int = 0
) -> dict[str, int]:
    return {
        "input_tokens": input_tokens,
        "output_tokens": output_tokens,
        "cache_read_input_tokens": cache_read,
        "cache_creation_input_tokens": cache_write,
    }


def message(
    content: list[dict[str, Any]],
    stop_reason: str = "end_turn",
    model: str = "claude-test",
    stop_details: dict[str, Any] | None = None,
    **usage_kw: int,
) -> Reply:
    return 200, {
        "id": f"msg_{next(_ids)}",
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": content,
        "stop_reason": stop_reason,
        "stop_sequence": None,
        "stop_details": stop_details,
        "usage": usage(**usage_kw),
    }


def thinking(body: str = "", signature: str = "sig-stub") -> dict[str, Any]:
    """A thinking block as returned (empty text when display is omitted, Sonnet 5.5's default)."""
    return {"type": "thinking", "thinking": body, "signature": signature}


def refusal(category: str | None = "cyber", explanation: str | None = "declined by the stub") -> Reply:
    """A refusal before any output: HTTP 200, no content, `stop_details` saying why."""
    details = {"type": "refusal", "category": category, "explanation": explanation}
    return message([], stop_reason="refusal", stop_details=details, output_tokens=0)


def pause_turn(*content: dict[str, Any]) -> Reply:
    """A server tool's loop paused: the client sends the assistant content back to continue."""
    blocks = list(content) or [
        {"type": "server_tool_use", "id": f"srvtoolu_{next(_ids)}", "name": "web_search", "input": {}}
    ]
    return message(blocks, stop_reason="pause_turn")


def text(body: str, **kw: Any) -> Reply:
    return message([{"type": "text", "text": body}], **kw)


def tool_uses(*calls: tuple[str, dict[str, Any]], preface: str = "", **kw: Any) -> Reply:
    content: list[dict[str, Any]] = [{"type": "text", "text": preface}] if preface else []
    content += [
        {"type": "tool_use", "id": f"toolu_{next(_ids)}", "name": name, "input": args} for name, args in calls
    ]
    return message(content, stop_reason="tool_use", **kw)


def error(status: int, kind: str = "api_error", detail: str = "stub error") -> Reply:
    return status, {
        "type": "error",
        "error": {"type": kind, "message": detail},
        "request_id": f"req_{next(_ids)}",
    }


def invalid(detail: str) -> Reply:
    return error(400, "invalid_request_error", detail)


# Claude Sonnet 5.5's documented 400s (migration guide), and the one observed for sampling on API
# version 2026-10-21 (the docs give no text for it).
SAMPLING_REJECTED = "temperature: Extra inputs are not permitted"
TOOL_CHOICE_REJECTED = 'tool_choice: type "tool" and "any" are not supported for this model.'
THINKING_DISABLED_REJECTED = (
    'To turn thinking off on this model, send "thinking": {"type": "between_tools"} instead of '
    '{"type": "disabled"}. The model does not think before responding.'
)
THINKING_BUDGET_REJECTED = (
    '"thinking.type.enabled" is not supported for this model. Use "thinking.type.adaptive" and '
    '"output_config.effort" to control thinking behavior.'
)
PREFILL_REJECTED = (
    "This model does not support assistant message prefill. The conversation must end with a user message."
)


def sonnet_5_5(inner: Callable[[dict[str, Any]], Reply]) -> Callable[[dict[str, Any]], Reply]:
    """Answer as Claude Sonnet 5.5 does: a request with a setting it refuses gets its 400; a
    conversation ending in an assistant turn is refused unless it continues a paused server tool."""

    def reply(body: dict[str, Any]) -> Reply:
        if any(key in body for key in ("temperature", "top_p", "top_k")):
            return invalid(SAMPLING_REJECTED)
        if (body.get("tool_choice") or {}).get("type") in ("any", "tool"):
            return invalid(TOOL_CHOICE_REJECTED)
        kind = (body.get("thinking") or {}).get("type")
        if kind == "disabled":
            return invalid(THINKING_DISABLED_REJECTED)
        if kind == "enabled":
            return invalid(THINKING_BUDGET_REJECTED)
        last = (body.get("messages") or [{}])[-1]
        paused = any(b.get("type") == "server_tool_use" for b in last.get("content") or [])
        if last.get("role") == "assistant" and not paused:
            return invalid(PREFILL_REJECTED)
        return inner(body)

    return reply


RATE_LIMITED = error(429, "rate_limit_error", "rate limited")
OVERLOADED = error(529, "overloaded_error", "overloaded")
SERVER_ERROR = error(500, "api_error", "internal error")


class StubAnthropic:
    """Context manager: `with StubAnthropic([...]) as stub: os.environ["ANTHROPIC_BASE_URL"] = stub.url`."""

    def __init__(self, script: Iterable[Scripted] = (), default: Scripted | None = None) -> None:
        self.script: list[Scripted] = list(script)
        self.default = default
        self.requests: list[dict[str, Any]] = []
        self.headers: list[dict[str, str]] = []  # headers[i] (lower-cased names) came with requests[i]
        self.lock = threading.Lock()
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        host, port = self.server.server_address[:2]
        return f"http://{host!s}:{port}"

    def __enter__(self) -> StubAnthropic:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()

    def next_reply(self, body: dict[str, Any], headers: dict[str, str] | None = None) -> Reply:
        with self.lock:
            self.requests.append(body)
            self.headers.append(headers or {})
            item = self.script.pop(0) if self.script else self.default
        if item is None:
            return error(500, "api_error", "stub script exhausted")
        return item(body) if callable(item) else item

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        stub = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                return None

            def do_POST(self) -> None:
                length = int(self.headers.get("content-length", "0"))
                body = json.loads(self.rfile.read(length) or b"{}")
                headers = {k.lower(): v for k, v in self.headers.items()}
                status, payload = stub.next_reply(body, headers)
                data = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                self.send_header("request-id", f"req_{next(_ids)}")
                if status >= 400:
                    self.send_header("retry-after-ms", "1")
                    self.send_header("x-should-retry", "true" if status in (429, 500, 529) else "false")
                self.end_headers()
                self.wfile.write(data)

        return Handler
