"""The model judge: one Anthropic Messages API call per judged part.

A failed, truncated or undecided call is a verdict that leaves the part unscored, never 0. The SDK
retries 429/5xx itself and reads ANTHROPIC_API_KEY and ANTHROPIC_BASE_URL when the client is first
built, on the first call, so making a judge costs nothing until it is asked.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any

from evals.grade.judge._judgement import Judgement
from evals.grade.judge._prompt import SYSTEM
from evals.grade.judge._protocol import JudgeRequest
from evals.grade.judge._reply import parse_reply

if TYPE_CHECKING:
    from evals.core.config import JudgeConfig

# API version 2026-10-21 (what anthropic>=2 sends) rejects every sampling parameter, and the SDK no
# longer takes `temperature`. A judge should be as repeatable as it can be, so when a temperature is
# configured it goes in the body and the request is pinned to the last API version that accepts it.
SAMPLING_API_VERSION = "2023-06-01"


def decide_together(
    decide: Callable[[JudgeRequest], Judgement], requests: list[JudgeRequest], workers: int
) -> list[Judgement]:
    """Decide a trial's parts (a Nightshift trial has ~8) at once, in order, on up to `workers` threads."""
    if len(requests) <= 1:
        return [decide(r) for r in requests]
    with ThreadPoolExecutor(max_workers=min(workers, len(requests))) as pool:
        return list(pool.map(decide, requests))


class ModelJudge:
    """Asks `model`; at most `concurrency` calls in flight across every trial sharing this judge."""

    def __init__(
        self,
        model: str,
        max_tokens: int = 1024,
        *,
        concurrency: int = 4,
        max_retries: int = 2,
        timeout_s: float = 60.0,
        temperature: float | None = 0.0,
    ) -> None:
        self.model = model
        self.max_tokens = max_tokens
        self.concurrency = max(1, concurrency)
        self.max_retries = max_retries
        self.timeout_s = timeout_s
        self.temperature = temperature
        self._client: Any = None
        self._client_lock = threading.Lock()
        # Bounds model calls across every trial sharing this judge, not just within one trial.
        self._slots = threading.BoundedSemaphore(self.concurrency)

    @classmethod
    def from_config(cls, config: JudgeConfig) -> ModelJudge:
        return cls(
            config.model,
            config.max_tokens,
            concurrency=config.concurrency,
            max_retries=config.max_retries,
            timeout_s=config.timeout_s,
            temperature=config.temperature,
        )

    def decide_all(self, requests: list[JudgeRequest]) -> list[Judgement]:
        return decide_together(self.decide, requests, self.concurrency)

    def _client_instance(self) -> Any:
        import anthropic  # imported on the first call: commands that never ask a model start faster

        with self._client_lock:
            if self._client is None:
                # The SDK reads ANTHROPIC_API_KEY and ANTHROPIC_BASE_URL and retries 429/5xx itself.
                self._client = anthropic.Anthropic(max_retries=self.max_retries, timeout=self.timeout_s)
            return self._client

    def decide(self, request: JudgeRequest) -> Judgement:
        """Ask the model about one part (thread-safe; waits for a free slot)."""
        import anthropic

        meta: dict[str, Any] = {
            "source": "model",
            "model": self.model,
            "prompt_version": request.prompt.version,
        }
        sampling: dict[str, Any] = {}
        if self.temperature is not None:
            sampling = {
                "extra_body": {"temperature": self.temperature},
                "extra_headers": {"anthropic-version": SAMPLING_API_VERSION},
            }
        with self._slots:
            try:
                reply = self._client_instance().messages.create(
                    model=self.model,
                    max_tokens=self.max_tokens,
                    system=SYSTEM,
                    messages=[{"role": "user", "content": request.text}],
                    **sampling,
                )
            except anthropic.APIError as exc:
                return Judgement(
                    status="error", critique=f"judge call failed: {type(exc).__name__}: {exc}", **meta
                )
        usage = {
            "input_tokens": int(getattr(reply.usage, "input_tokens", 0) or 0),
            "output_tokens": int(getattr(reply.usage, "output_tokens", 0) or 0),
        }
        if reply.stop_reason not in ("end_turn", "stop_sequence"):
            return Judgement(
                status="error",
                critique=f"judge reply stopped early: {reply.stop_reason}",
                usage=usage,
                **meta,
            )
        text = "".join(getattr(block, "text", "") for block in reply.content)
        status, score, critique = parse_reply(text, request.points)
        return Judgement(status=status, score=score, critique=critique, usage=usage, **meta)
