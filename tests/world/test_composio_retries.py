"""Which Composio failures the live path retries, how long it waits, and how it gives up.

Each call goes through the real composio SDK to the fake Composio, which answers the injected
status (and Retry-After) first. The waits are recorded instead of slept; nothing here reads the
clock. The end-to-end runs (a rate-limited trial still scoring full marks) are in
test_live_robustness.py.
"""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from evals.core.errors import BadInputError, InfrastructureError
from evals.world.live.composio_api import ComposioApi
from evals.world.live.config import load_live_config
from tests.support.fakes import FakeServices

READ = ("GMAIL_FETCH_EMAILS", {"query": "in:inbox", "max_results": 5})
WRITE = ("GMAIL_SEND_EMAIL", {"recipient_email": "someone@inbox.example", "subject": "Hi", "body": "Hello"})


@pytest.fixture
def slept(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    waits: list[float] = []
    monkeypatch.setattr("evals.world.live.polling.sleep", waits.append)
    return waits


def attempts(services: FakeServices, slug: str) -> int:
    return sum(e["slug"] == slug for e in services.composio.executed)


def sent(services: FakeServices) -> int:
    return sum("SENT" in m.labels for m in services.universe.world.mailbox.messages)


def test_without_retry_after_the_waits_back_off_and_the_give_up_names_service_tool_and_retries(
    services: FakeServices, slept: list[float]
) -> None:
    services.composio.fail_next(50, 503)
    with pytest.raises(InfrastructureError) as raised:
        ComposioApi(load_live_config()).execute(*READ)
    assert slept == [0.5, 1.0, 2.0, 4.0, 8.0]
    assert str(raised.value).startswith(
        "Composio failed while running GMAIL_FETCH_EMAILS after 5 retries: HTTP 503"
    )
    assert attempts(services, "GMAIL_FETCH_EMAILS") == 6, "one try and five retries"


def test_retry_after_is_honoured_and_one_longer_than_a_minute_is_not_waited_for(
    services: FakeServices, slept: list[float]
) -> None:
    api = ComposioApi(load_live_config())
    services.composio.fail_next(1, 429, "60")
    assert api.execute(*READ)["successful"]
    assert slept == [60.0], "the longest wait the budget allows"
    services.composio.fail_next(1, 429, "61")
    with pytest.raises(InfrastructureError, match=r"running GMAIL_FETCH_EMAILS: HTTP 429"):
        api.execute(*READ)
    assert slept == [60.0], "no wait at all for a limit that outlasts the budget"


def test_retry_after_as_an_http_date_already_past_is_retried_at_once(
    services: FakeServices, slept: list[float]
) -> None:
    services.composio.fail_next(1, 429, "Wed, 21 Oct 2015 07:28:00 GMT")
    assert ComposioApi(load_live_config()).execute(*READ)["successful"]
    assert slept == [0.0]


def test_a_write_is_retried_only_when_the_service_refused_it(
    services: FakeServices, slept: list[float]
) -> None:
    api = ComposioApi(load_live_config())
    services.composio.fail_next(1, 429, "3")
    assert api.execute(*WRITE)["successful"]
    assert slept == [3.0] and sent(services) == 1, "a 429 was never run: sent once, after the wait"
    services.composio.fail_next(1, 500)
    with pytest.raises(InfrastructureError, match=r"running GMAIL_SEND_EMAIL: HTTP 500"):
        api.execute(*WRITE)
    assert slept == [3.0], "a 500 may have sent it: not repeated"
    assert attempts(services, "GMAIL_SEND_EMAIL") == 3


@pytest.mark.parametrize("status", [400, 404, 422])
def test_a_refused_call_is_the_agents_error_envelope_and_not_retried(
    services: FakeServices, slept: list[float], status: int
) -> None:
    services.composio.fail_next(1, status)
    result = ComposioApi(load_live_config()).execute(*READ)
    assert not result["successful"] and str(result["error"]).startswith(f"HTTP {status}")
    assert slept == [] and attempts(services, "GMAIL_FETCH_EMAILS") == 1


def test_a_refused_key_is_bad_input_and_not_retried(services: FakeServices, slept: list[float]) -> None:
    services.composio.fail_next(1, 401)
    with pytest.raises(BadInputError, match="COMPOSIO_API_KEY was refused"):
        ComposioApi(load_live_config()).execute(*READ)
    assert slept == []


class FailsOnce(httpx.BaseTransport):
    """A transport whose first execution of `slug` fails with `error`; the rest reach the fake."""

    def __init__(self, slug: str, error: type[httpx.TransportError]) -> None:
        self.inner = httpx.HTTPTransport()
        self.slug, self.error, self.failed = slug, error, 0

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        if not self.failed and request.url.path.endswith(f"/tools/execute/{self.slug}"):
            self.failed += 1
            raise self.error("injected", request=request)
        return self.inner.handle_request(request)


def execute_through(transport: FailsOnce, call: tuple[str, dict[str, Any]]) -> Any:
    return ComposioApi(load_live_config(), http_client=httpx.Client(transport=transport)).execute(*call)


def test_a_write_whose_connection_never_opened_is_retried_but_one_that_timed_out_is_not(
    services: FakeServices, slept: list[float]
) -> None:
    assert execute_through(FailsOnce("GMAIL_SEND_EMAIL", httpx.ConnectError), WRITE)["successful"]
    assert len(slept) == 1 and sent(services) == 1
    with pytest.raises(InfrastructureError, match="Composio unreachable while running GMAIL_SEND_EMAIL"):
        execute_through(FailsOnce("GMAIL_SEND_EMAIL", httpx.ReadTimeout), WRITE)
    assert len(slept) == 1, "a timed-out write may have run: not repeated"
