"""Test setup: an in-memory stand-in for the `redis` package, so tests need no Redis server.

It is installed before any `hydra` module is imported and implements the small part of the
redis-py API the service uses (clients, connection pools, streams, strings).
"""

import sys
import types
from typing import Any

import pytest

STORE: dict[str, Any] = {}


class ConnectionPool:
    def __init__(self, max_connections: int | None = None, **connection_kwargs: Any) -> None:
        self.max_connections = max_connections
        self.connection_kwargs = connection_kwargs

    @classmethod
    def from_url(cls, url: str, **kwargs: Any) -> "ConnectionPool":
        return cls(url=url, **kwargs)

    def disconnect(self) -> None:
        return None


class StrictRedis:
    instances = 0

    def __init__(self, *args: Any, connection_pool: ConnectionPool | None = None, **kwargs: Any) -> None:
        StrictRedis.instances += 1
        self.connection_pool = connection_pool or ConnectionPool(**kwargs)

    @classmethod
    def from_url(cls, url: str, **kwargs: Any) -> "StrictRedis":
        return cls(connection_pool=ConnectionPool.from_url(url, **kwargs))

    def ping(self) -> bool:
        return True

    def xadd(self, name: str, fields: dict[str, Any], *args: Any, **kwargs: Any) -> str:
        stream = STORE.setdefault(name, [])
        entry_id = f"{len(stream) + 1}-0"
        stream.append((entry_id, {str(k): str(v) for k, v in fields.items()}))
        return entry_id

    def xlen(self, name: str) -> int:
        return len(STORE.get(name, []))

    def xrange(self, name: str, min: str = "-", max: str = "+", count: int | None = None) -> list[Any]:
        entries = list(STORE.get(name, []))
        return entries[:count] if count else entries

    def get(self, name: str) -> Any:
        return STORE.get(name)

    def set(self, name: str, value: Any, *args: Any, **kwargs: Any) -> bool:
        STORE[name] = value
        return True

    def close(self) -> None:
        return None


def _fake_redis() -> types.ModuleType:
    module = types.ModuleType("redis")
    module.StrictRedis = StrictRedis  # type: ignore[attr-defined]
    module.Redis = StrictRedis  # type: ignore[attr-defined]
    module.ConnectionPool = ConnectionPool  # type: ignore[attr-defined]
    module.BlockingConnectionPool = ConnectionPool  # type: ignore[attr-defined]
    module.from_url = StrictRedis.from_url  # type: ignore[attr-defined]
    exceptions = types.ModuleType("redis.exceptions")
    exceptions.RedisError = type("RedisError", (Exception,), {})  # type: ignore[attr-defined]
    exceptions.ConnectionError = type("ConnectionError", (exceptions.RedisError,), {})  # type: ignore[attr-defined]
    exceptions.TimeoutError = type("TimeoutError", (exceptions.RedisError,), {})  # type: ignore[attr-defined]
    for name in ("RedisError", "ConnectionError", "TimeoutError"):
        setattr(module, name, getattr(exceptions, name))
    module.exceptions = exceptions  # type: ignore[attr-defined]
    return module


sys.modules["redis"] = _fake_redis()
sys.modules["redis.exceptions"] = sys.modules["redis"].exceptions


@pytest.fixture(autouse=True)
def empty_redis() -> None:
    STORE.clear()
