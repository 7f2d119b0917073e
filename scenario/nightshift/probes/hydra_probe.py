"""Runs inside the confinement: import the agent's pipeline code and watch it work, step by step.

The grader's worker (evals/grade/confine/worker.py) imports this module with the head's files and
the stub `redis` on `sys.path` and calls its steps in order, each as `step(spec)`: `prepare`,
`pool`, `batches_first`, `batches_settle`, `batches_warm`, `batches_more`, `batches_traced`. Each
returns what it
measured; deciding pass or fail is the grader's job, so the measurements stay visible as evidence.
Between steps the grader reads the confinement's memory and descriptors from /proc itself (the stub
leaves one descriptor open per pool and per client it makes), so what these steps return is the
code's own account and the grader's reading is the fact. Only the standard library is used: this
file must run under whatever interpreter and tree the confinement hands it.

What it measures, in order: the client factory called `factory_calls` times (pools and clients
made); then `batches` calls of the batch method on one processor: the byte buffers the processor
and its module hold before the first batch, after it and after the last; the factory calls and
clients made by the first batch and by the later ones; and the memory allocated during the last
`traced_batches` batches and still held after them, also read after the first half of those
(`tracemalloc`, started only for them), so the grader can tell memory held once (the last batch's
buffer, in both readings) from memory that keeps growing (more in the second).

It is started once per distinct tree a grade sees, so its own cost is kept small. `asyncio` (about
20 ms of imports) and `inspect` are imported only when a batch returns something that may be
awaitable. Memory is traced through `_tracemalloc`, the C module whose functions `tracemalloc`
re-exports, without that module's `pickle`/`linecache` imports. Tracing makes every allocation
several times dearer, so only the last batches are traced, after all the others have run untraced
(a long warm-up, whose memory the grader reads from outside); the grader estimates the growth over
its window from the two readings, and asks for a run with the whole window traced when it must.
"""

from __future__ import annotations

import _tracemalloc as tracemalloc
import collections
import importlib
import types
from collections.abc import Awaitable, Sized
from typing import Any

BUFFER_TYPES = (bytearray, memoryview)
MIN_BYTES = 256
# Warm-up batches before the grader's outside memory window opens (first allocations, caches).
SETTLE = 10
# What `inspect.isawaitable` may accept (it adds generator-based coroutines): a cheap first test,
# a tuple made once, so checking a batch's result allocates nothing while memory is traced.
MAYBE_AWAITABLE = (Awaitable, types.GeneratorType)


def retained_buffers(roots: list[Any], depth: int = 5) -> int:
    """Byte buffers reachable from `roots` through containers and instance attributes."""
    seen: set[int] = set()
    count = 0
    stack: list[tuple[Any, int]] = [(r, 0) for r in roots]
    while stack:
        obj, level = stack.pop()
        if id(obj) in seen:
            continue
        seen.add(id(obj))
        if isinstance(obj, BUFFER_TYPES) or (isinstance(obj, bytes) and len(obj) >= MIN_BYTES):
            count += 1
            continue
        if level >= depth or isinstance(obj, types.ModuleType | type | types.FunctionType | str | int):
            continue
        children: list[Any] = []
        if isinstance(obj, dict):
            children = list(obj.values())
        elif isinstance(obj, list | tuple | set | frozenset | collections.deque):
            children = list(obj)
        elif hasattr(obj, "__dict__") and not callable(obj):
            children = list(vars(obj).values())
        elif hasattr(obj, "__dict__"):
            children = [v for v in vars(obj).values() if not callable(v)]
        stack.extend((c, level + 1) for c in children)
    return count


def module_state(module: types.ModuleType) -> list[Any]:
    return [
        v
        for k, v in vars(module).items()
        if not k.startswith("__") and not isinstance(v, types.ModuleType | type | types.FunctionType)
    ]


def call(fn: Any, *args: Any) -> Any:
    """`fn(*args)`, run to completion on a fresh event loop when it returns an awaitable."""
    result = fn(*args)
    # `inspect` and `asyncio` are imported only for a result that may be awaitable.
    if isinstance(result, MAYBE_AWAITABLE):
        import inspect

        if inspect.isawaitable(result):
            import asyncio

            return asyncio.run(_await(result))
    return result


async def _await(awaitable: Any) -> Any:
    return await awaitable


def make_processor(module: types.ModuleType, cls_name: str, config_name: str) -> Any:
    cls = getattr(module, cls_name)
    config_cls = getattr(module, config_name, None)
    attempts: list[tuple[tuple[Any, ...], dict[str, Any]]] = [((), {})]
    if config_cls is not None:
        attempts += [((), {"config": config_cls()}), ((config_cls(),), {})]
    errors = []
    for args, kwargs in attempts:
        try:
            return cls(*args, **kwargs)
        except TypeError as exc:
            errors.append(str(exc))
    raise TypeError(f"cannot construct {cls_name}: " + "; ".join(errors))


# What the steps share inside the one worker process: the stub, the counted factory, and the
# batch section once it has started (or the error that stopped it).
STATE: dict[str, Any] = {}


def prepare(spec: dict[str, Any]) -> dict[str, Any]:
    """Import the stub and the client module, and count the factory's calls from now on."""
    redis: Any = importlib.import_module("redis")  # the stub, first on sys.path
    client_module = importlib.import_module(spec["client_module"])
    factory_name = spec["factory"]
    factory = getattr(client_module, factory_name)
    calls = [0]

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls[0] += 1
        return factory(*args, **kwargs)

    setattr(client_module, factory_name, counted)  # before the processor binds the name
    STATE.update(redis=redis, factory=factory, calls=calls)
    return {}


def pool(spec: dict[str, Any]) -> dict[str, Any]:
    """The pool section: the factory called `factory_calls` times."""
    return guarded(lambda: pool_section(STATE["redis"], STATE["factory"], int(spec.get("factory_calls", 5))))


def batches_first(spec: dict[str, Any]) -> dict[str, Any]:
    """Build the processor and run the first batch (the batch section's start)."""

    def begin() -> dict[str, Any]:
        STATE["section"] = BatchSection(spec, STATE["redis"], STATE["calls"])
        return {}

    return _batch_step(begin)


def batches_settle(spec: dict[str, Any]) -> dict[str, Any]:
    """The first untraced warm-up batches (at most SETTLE), then the allocator's free pages back."""
    return _batch_step(lambda: STATE["section"].warm(0))


def batches_warm(spec: dict[str, Any]) -> dict[str, Any]:
    """The first half of the rest of the untraced warm-up (the grader reads memory around it)."""
    return _batch_step(lambda: STATE["section"].warm(1))


def batches_more(spec: dict[str, Any]) -> dict[str, Any]:
    """The second half of the untraced warm-up (the grader reads memory around it)."""
    return _batch_step(lambda: STATE["section"].warm(2))


def batches_traced(spec: dict[str, Any]) -> dict[str, Any]:
    """The traced batches and every reading of the batch section (or the error that stopped it)."""
    return _batch_step(lambda: STATE["section"].finish())


def _batch_step(step: Any) -> dict[str, Any]:
    """Run one step of the batch section unless an earlier one failed; the section's error stands."""
    if "section_error" in STATE:
        return dict(STATE["section_error"])
    result = guarded(step)
    if "error" in result:
        STATE["section_error"] = result
    return result


def guarded(section: Any) -> dict[str, Any]:
    """One section's measurements, or the error that stopped it (so one crash fails one criterion)."""
    try:
        result: dict[str, Any] = section()
    except BaseException as exc:  # the agent's code may raise anything, even SystemExit
        return {"error": f"{type(exc).__name__}: {exc}"[:800]}
    return result


def pool_section(redis: Any, factory: Any, n: int) -> dict[str, Any]:
    """Call the client factory n times: how many pools exist, and do the clients share one?"""
    clients = [factory() for _ in range(n)]
    pools = {id(getattr(c, "connection_pool", c)): getattr(c, "connection_pool", None) for c in clients}
    return {
        "factory_calls": n,
        "pools_created": redis.COUNTS["pools"],
        "clients_created": redis.COUNTS["clients"],
        "distinct_pools_of_clients": len(pools),
        "max_connections": sorted(
            {str(getattr(p, "max_connections", None)) for p in pools.values() if p is not None}
        ),
        "pool_types": sorted({type(p).__name__ for p in pools.values()}),
    }


class Batches:
    """Calls the batch method, each call guarded: a batch that raises is counted and the run goes on.

    So a crash inside the batch (a typo on the line that publishes results) costs only what it
    prevents from being observed: buffers kept, factory calls and clients made are still measured.
    Only the first error is kept, as text, so no traceback holds a batch's buffer alive.
    """

    def __init__(self, method: Any, batch: Any) -> None:
        self.method, self.batch = method, batch
        self.raised = 0
        self.first_error = ""

    def run(self) -> None:
        try:
            call(self.method, self.batch)
        except Exception as exc:  # the agent's code may raise anything
            self.raised += 1
            if not self.first_error:
                self.first_error = f"{type(exc).__name__}: {exc}"[:400]


class BatchSection:
    """Run many batches: do buffers accumulate, and is the client factory called per batch?

    Every batch after the first but the last `traced_batches` is warm-up (its first SETTLE batches
    one step, the rest in two halves, so the grader can read memory over each); memory is traced over
    those last ones only (at least one, at most all but the first).
    """

    def __init__(self, spec: dict[str, Any], redis: Any, calls: list[int]) -> None:
        self.module = importlib.import_module(spec["processor_module"])
        self.processor = make_processor(self.module, spec["processor_class"], spec["config_class"])
        self.runner = Batches(getattr(self.processor, spec["method"]), spec["batch"])
        self.spec, self.redis, self.calls = spec, redis, calls
        self.batches = int(spec["batches"])
        self.before = self.retained()
        self.calls_before, self.clients_before = calls[0], redis.COUNTS["clients"]
        self.runner.run()
        self.after_first = self.retained()
        self.calls_first, self.clients_first = calls[0], redis.COUNTS["clients"]
        self.traced = max(1, min(int(spec["traced_batches"]), self.batches - 1))
        self.warm_up = self.batches - 1 - self.traced
        self.settle = min(SETTLE, self.warm_up)

    def retained(self) -> int:
        return retained_buffers([self.processor, *module_state(self.module)])

    def warm(self, part: int) -> dict[str, Any]:
        """Part 0 is the settle batches, 1 and 2 the two halves of the rest."""
        rest = self.warm_up - self.settle
        count = (self.settle, rest // 2, rest - rest // 2)[part]
        for _ in range(count):
            self.runner.run()
        if part == 0:
            release_free_memory()
        return {"batches": count}

    def finish(self) -> dict[str, Any]:
        runner, traced = self.runner, self.traced
        tracemalloc.start()
        start_bytes = tracemalloc.get_traced_memory()[0]
        for _ in range(traced // 2):
            runner.run()
        half_bytes = tracemalloc.get_traced_memory()[0] - start_bytes
        for _ in range(traced - traced // 2):
            runner.run()
        grown_bytes = tracemalloc.get_traced_memory()[0] - start_bytes
        tracemalloc.stop()
        after_all = self.retained()
        list_attr = getattr(self.processor, self.spec.get("buffer_list", "_batch_buffers"), None)
        calls, redis = self.calls, self.redis
        return {
            "batches": self.batches,
            "traced_batches": traced,
            "retained_before": self.before,
            "retained_after_first": self.after_first,
            "retained_after_all": after_all,
            "buffer_list_len": len(list_attr) if isinstance(list_attr, Sized) else None,
            "traced_growth_bytes": grown_bytes,
            "traced_growth_half_bytes": half_bytes,
            "factory_calls_first_batch": self.calls_first - self.calls_before,
            "factory_calls_later_batches": calls[0] - self.calls_first,
            "clients_created_later_batches": redis.COUNTS["clients"] - self.clients_first,
            "clients_created_first_batch": self.clients_first - self.clients_before,
            "batches_raised": runner.raised,
            "first_batch_error": runner.first_error,
        }


def release_free_memory() -> None:
    """Give the C allocator's free pages back (glibc `malloc_trim`), so memory the batches go on to
    hold shows in the resident pages the grader reads from outside instead of refilling pages the
    imports left free. No Python object is touched (no collection), so nothing the probe counts
    or traces moves."""
    import contextlib
    import ctypes

    with contextlib.suppress(OSError, AttributeError):  # not glibc: the outside reading is coarser
        ctypes.CDLL(None).malloc_trim(0)
