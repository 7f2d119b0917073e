"""Turn batches of inference events into results on the Redis results stream."""

import json
import logging
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from hydra.config import settings
from hydra.connectors.redis_client import get_redis_client

logger = logging.getLogger(__name__)

Event = dict[str, Any]
Model = Callable[[str], str]


def echo_model(text: str) -> str:
    """Stand-in model used when no model endpoint is wired in (local runs, tests)."""
    return text.upper()


@dataclass
class BatchConfig:
    batch_size: int = 64
    buffer_size: int = 512
    flush_interval_s: float = 2.0
    stream_key: str = settings.RESULTS_STREAM


@dataclass
class BatchStats:
    batches: int = 0
    events: int = 0
    errors: int = 0
    last_batch_ms: float = 0.0
    error_ids: list[str] = field(default_factory=list)


class StreamProcessor:
    """Runs the model over each batch and publishes one result per event."""

    def __init__(self, config: BatchConfig | None = None, model: Model = echo_model) -> None:
        self.config = config or BatchConfig()
        self.model = model
        self.stats = BatchStats()
        self._batch_buffers: list[bytearray] = []

    def run(self, events: Iterable[Event]) -> BatchStats:
        """Process events in batches of `config.batch_size`."""
        batch: list[Event] = []
        for event in events:
            batch.append(event)
            if len(batch) >= self.config.batch_size:
                self._process_batch(batch)
                batch = []
        if batch:
            self._process_batch(batch)
        return self.stats

    def _process_batch(self, batch: list[Event]) -> list[Event]:
        started = time.perf_counter()
        buf = bytearray(self.config.buffer_size)
        self._batch_buffers.append(buf)
        redis = get_redis_client()

        results: list[Event] = []
        for event in batch:
            try:
                output = self.model(str(event["input"]))
            except Exception:
                logger.exception("model failed for event %s", event.get("id"))
                self.stats.errors += 1
                self.stats.error_ids.append(str(event.get("id")))
                continue
            payload = json.dumps({"id": event["id"], "output": output}).encode()
            # Encode into the batch buffer; a payload larger than the buffer forces a reallocation.
            buf[: len(payload)] = payload
            result = {"id": str(event["id"]), "output": output}
            redis.xadd(self.config.stream_key, result)
            results.append(result)

        self.stats.batches += 1
        self.stats.events += len(batch)
        self.stats.last_batch_ms = (time.perf_counter() - started) * 1000
        if settings.DEBUG:
            logger.debug("batch of %d done in %.1f ms", len(batch), self.stats.last_batch_ms)
        return results
