"""The judge cache: a model judge's verdicts on disk, so a re-grade asks nothing it asked before.

The key is the part, the prompt's declared version, the model, the temperature, the evidence hash
and the hash of the exact request text (system prompt included): an edited prompt, even one whose
version was not bumped, another model or different evidence always misses. Scored and unknown
verdicts are stored; errors are not, so a failed call is asked again next time. A hit is served as
source `cache` with no usage: it cost nothing.
"""

from __future__ import annotations

import json
import threading
from pathlib import Path

from pydantic import ValidationError

from evals.core.jsonio import digest, sha256_text, write_json
from evals.grade.judge._judgement import Judgement
from evals.grade.judge._model import ModelJudge, decide_together
from evals.grade.judge._prompt import SYSTEM
from evals.grade.judge._protocol import JudgeRequest


class CachedJudge:
    """A model judge behind an on-disk cache in `cache_dir`."""

    def __init__(self, inner: ModelJudge, cache_dir: Path) -> None:
        self.inner = inner
        self.cache_dir = cache_dir
        self._locks_lock = threading.Lock()
        self._key_locks: dict[str, threading.Lock] = {}

    @property
    def model(self) -> str:
        return self.inner.model

    def decide_all(self, requests: list[JudgeRequest]) -> list[Judgement]:
        return decide_together(self.decide, requests, self.inner.concurrency)

    def cache_key(self, request: JudgeRequest) -> dict[str, str]:
        temperature = self.inner.temperature
        return {
            "part": request.part,
            "prompt_version": request.prompt.version,
            "model": self.inner.model,
            "temperature": "default" if temperature is None else f"{temperature:g}",
            "evidence_sha256": request.evidence_sha,
            "request_sha256": sha256_text(f"{SYSTEM}\n\n{request.text}"),
        }

    def decide(self, request: JudgeRequest) -> Judgement:
        """The cached verdict when this exact question was answered before, else the model's."""
        key = self.cache_key(request)
        path = self.cache_dir / f"{digest(key)}.json"
        with self._lock_for(path.name):  # trials with identical evidence ask once; the rest read the cache
            if path.is_file():
                cached = _read(key, path)
                if cached is not None:
                    return cached
            verdict = self.inner.decide(request)
            if verdict.status in ("scored", "unknown"):
                write_json(path, {"key": key, "verdict": verdict.model_dump(mode="json")})
            return verdict

    def _lock_for(self, name: str) -> threading.Lock:
        with self._locks_lock:
            return self._key_locks.setdefault(name, threading.Lock())


def _read(key: dict[str, str], path: Path) -> Judgement | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if data.get("key") != key:
            return None
        return Judgement.model_validate({**data["verdict"], "source": "cache", "usage": {}})
    except (OSError, json.JSONDecodeError, ValidationError, TypeError, KeyError, AttributeError):
        return None  # unreadable or foreign entry: ask again and overwrite it
