"""A stand-in `redis` package for behaviour probes: it counts clients and pools, reaches no server.

The agent's code imports `redis` as it would in production; this package goes first on the probe's
`sys.path`, so the probe can ask "how many pools were made, and with what `max_connections`?"
without a Redis server, and a per-batch connection shows up as a count, not as a hung socket.

Each pool also leaves a connected socket pair open and each client a pipe, as a real client's
connection lingers on the server: the grader counts them from /proc, outside the process, so a
count the code under test rewrites in here is not the only record of what it made. Nothing keeps a
Python object for them (the descriptors are detached), so the memory the probe traces is unchanged.
"""

from __future__ import annotations

import os
import socket
import weakref
from typing import Any

from . import exceptions
from .exceptions import ConnectionError, RedisError, TimeoutError

__all__ = [
    "BlockingConnectionPool",
    "ConnectionError",
    "ConnectionPool",
    "Redis",
    "RedisError",
    "StrictRedis",
    "TimeoutError",
    "exceptions",
]

COUNTS = {"clients": 0, "pools": 0}
POOLS: weakref.WeakSet[ConnectionPool] = weakref.WeakSet()
CLIENTS: weakref.WeakSet[Redis] = weakref.WeakSet()


class ConnectionPool:
    def __init__(self, *args: Any, max_connections: int | None = None, **kwargs: Any) -> None:
        self.max_connections = max_connections
        self.kwargs = kwargs
        self.implicit = False
        COUNTS["pools"] += 1
        POOLS.add(self)
        _leave_open(socket.socketpair())

    @classmethod
    def from_url(cls, url: str, **kwargs: Any) -> ConnectionPool:
        return cls(url=url, **kwargs)

    def disconnect(self, *args: Any, **kwargs: Any) -> None:
        return None

    def close(self) -> None:
        return None


class BlockingConnectionPool(ConnectionPool):
    pass


def _leave_open(pair: tuple[socket.socket, socket.socket]) -> None:
    for end in pair:
        end.detach()  # the descriptor stays open with no object holding it


def _reply(*args: Any, **kwargs: Any) -> Any:
    return None


class Pipeline:
    def __enter__(self) -> Pipeline:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def execute(self, *args: Any, **kwargs: Any) -> list[Any]:
        return []

    def __getattr__(self, name: str) -> Any:
        return lambda *a, **k: self


class Redis:
    """Any command succeeds and returns None; `connection_pool` is real, like redis-py's."""

    def __init__(
        self,
        *args: Any,
        connection_pool: ConnectionPool | None = None,
        max_connections: int | None = None,
        **kwargs: Any,
    ) -> None:
        if connection_pool is None:
            connection_pool = ConnectionPool(max_connections=max_connections, **kwargs)
            connection_pool.implicit = True
        self.connection_pool = connection_pool
        COUNTS["clients"] += 1
        CLIENTS.add(self)
        os.pipe()  # both ends stay open: the grader counts pipes

    @classmethod
    def from_url(cls, url: str, **kwargs: Any) -> Redis:
        return cls(url=url, **kwargs)

    @classmethod
    def from_pool(cls, connection_pool: ConnectionPool) -> Redis:
        return cls(connection_pool=connection_pool)

    def pipeline(self, *args: Any, **kwargs: Any) -> Pipeline:
        return Pipeline()

    def ping(self) -> bool:
        return True

    def close(self) -> None:
        return None

    def __enter__(self) -> Redis:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        return _reply


StrictRedis = Redis


def from_url(url: str, **kwargs: Any) -> Redis:
    return Redis.from_url(url, **kwargs)
