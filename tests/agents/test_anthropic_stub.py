"""The stub Messages server speaks the protocol the real anthropic SDK expects, retries included."""

from __future__ import annotations

import anthropic

from tests.support.stubs.anthropic_stub import OVERLOADED, RATE_LIMITED, StubAnthropic, text


def test_the_sdk_retries_through_rate_limits_and_overload_to_an_answer() -> None:
    with StubAnthropic([RATE_LIMITED, OVERLOADED, text("hello")]) as stub:
        client = anthropic.Anthropic(api_key="test-key", base_url=stub.url, max_retries=3)
        reply = client.messages.create(
            model="claude-test", max_tokens=10, messages=[{"role": "user", "content": "hi"}]
        )
    assert reply.content[0].text == "hello"  # type: ignore[union-attr]
    assert len(stub.requests) == 3
