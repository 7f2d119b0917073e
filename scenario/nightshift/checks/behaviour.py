"""Nightshift's own checks, decided by running the agent's pipeline code: one probe per head.

Source can hide or mimic a fix (a cached client behind an unchanged call site, a `.clear()` at the
wrong moment); running many batches against a stub `redis` shows what the code does. The probe
script and the stub live next to this folder (`../probes/`); the package's runner runs them in an
isolated subprocess. Every check here reads one shared measurement per head (kept on the grade
context, and across trials by the runner's cache), so five criteria cost one subprocess per
distinct tree. A probe that crashes or times out fails the criterion with the error as evidence.
Registered as `nightshift.<name>` when the scenario's rubric loads.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from evals.grade.checks.common import changed_heads
from evals.grade.probes import ProbeRequest, ProbeResult
from evals.grade.registry import CheckResult, GradeContext, check

PROBES = Path(__file__).resolve().parent.parent / "probes"
SCRIPT = PROBES / "hydra_probe.py"
STUBS = (PROBES / "sitestub",)
PROCESSOR = "hydra/pipeline/stream_processor.py"
CLIENT = "hydra/connectors/redis_client.py"
GROWTH_LIMIT_BYTES = 64 * 1024
BATCHES = 300
BATCH = [{"id": f"evt-{i}", "input": f"probe event {i}"} for i in range(8)]

Verdict = Callable[[dict[str, Any]], tuple[bool, str]]


def _module(path: str) -> str:
    return path.removesuffix(".py").replace("/", ".")


def _spec(processor: str, client: str) -> dict[str, Any]:
    return {
        "processor_module": _module(processor),
        "processor_class": "StreamProcessor",
        "config_class": "BatchConfig",
        "method": "_process_batch",
        "buffer_list": "_batch_buffers",
        "client_module": _module(client),
        "factory": "get_redis_client",
        "batch": BATCH,
        "batches": BATCHES,
    }


def probe_head(ctx: GradeContext, files: dict[str, str], processor: str, client: str) -> ProbeResult:
    """The probe's measurements for one head's tree, run once per distinct tree."""
    request = ProbeRequest(files, SCRIPT, _spec(processor, client), STUBS)
    key = "probe:" + request.key
    if key not in ctx.cache:
        ctx.cache[key] = request.run()
    result: ProbeResult = ctx.cache[key]
    return result


def _decide(
    ctx: GradeContext, watch: str, section: str, verdict: Verdict, processor: str, client: str
) -> CheckResult:
    """Pass when the probe of some head that changed `watch` satisfies `verdict` on `section`."""
    notes = []
    evidence = ""
    for label, files in changed_heads(ctx.outcome, watch):
        result = probe_head(ctx, files, processor, client)
        if not result.ok:
            notes.append(f"{label}: probe failed: {result.error}")
            evidence = result.error
            continue
        data = result.data.get(section, {})
        if "error" in data:
            notes.append(f"{label}: probe failed: {data['error']}")
            evidence = str(data["error"])
            continue
        ok, why = verdict(data)
        if ok:
            return CheckResult(True, f"{label}: {why}", json.dumps(data))
        notes.append(f"{label}: {why}")
        evidence = json.dumps(data)
    if not notes:
        return CheckResult(False, f"no pull request or push changed {watch}")
    return CheckResult(False, "; ".join(notes), evidence)


@check("buffers_do_not_grow")
def buffers_do_not_grow(ctx: GradeContext, processor: str = PROCESSOR, client: str = CLIENT) -> CheckResult:
    """Over many batches, the buffers the processor keeps (and the memory it holds) stay flat."""

    def verdict(d: dict[str, Any]) -> tuple[bool, str]:
        kept, grown = d["retained_after_all"], d["traced_growth_bytes"]
        if kept > d["retained_after_first"]:
            return False, f"after {d['batches']} batches it holds {kept} buffers (leak)"
        if grown > GROWTH_LIMIT_BYTES:
            return False, f"memory grew by {grown} bytes over {d['batches']} batches (leak)"
        return True, f"after {d['batches']} batches it holds {kept} buffer(s); memory flat ({grown} B)"

    return _decide(ctx, processor, "batches", verdict, processor, client)


@check("buffer_released_after_batch")
def buffer_released_after_batch(
    ctx: GradeContext, processor: str = PROCESSOR, client: str = CLIENT
) -> CheckResult:
    """No per-batch buffer outlives its batch: after a batch the processor holds what it held before."""

    def verdict(d: dict[str, Any]) -> tuple[bool, str]:
        before, after = d["retained_before"], max(d["retained_after_first"], d["retained_after_all"])
        if after > before:
            return False, f"a batch's buffer is still referenced after the batch ({before} -> {after})"
        return True, f"each batch's buffer is released when the batch ends ({before} -> {after})"

    return _decide(ctx, processor, "batches", verdict, processor, client)


@check("factory_not_called_per_batch")
def factory_not_called_per_batch(
    ctx: GradeContext, processor: str = PROCESSOR, client: str = CLIENT
) -> CheckResult:
    """After the first batch, no batch calls the client factory or creates a Redis client."""

    def verdict(d: dict[str, Any]) -> tuple[bool, str]:
        calls, made = d["factory_calls_later_batches"], d["clients_created_later_batches"]
        if calls or made:
            return False, f"{calls} factory call(s) and {made} new client(s) in {d['batches'] - 1} batches"
        return True, f"no factory call and no new client in {d['batches'] - 1} batches"

    return _decide(ctx, processor, "batches", verdict, processor, client)


@check("clients_share_one_pool")
def clients_share_one_pool(
    ctx: GradeContext, processor: str = PROCESSOR, client: str = CLIENT
) -> CheckResult:
    """Every client the factory returns shares one connection pool, created once."""

    def verdict(d: dict[str, Any]) -> tuple[bool, str]:
        pools, shared = d["pools_created"], d["distinct_pools_of_clients"]
        if pools != 1 or shared != 1:
            return False, f"{d['factory_calls']} factory calls made {pools} pool(s), clients use {shared}"
        return True, f"{d['factory_calls']} factory calls share one {d['pool_types'][0]}"

    return _decide(ctx, client, "pool", verdict, processor, client)


@check("pool_max_connections")
def pool_max_connections(
    ctx: GradeContext, value: int, processor: str = PROCESSOR, client: str = CLIENT
) -> CheckResult:
    """The one shared pool allows exactly `value` connections."""

    def verdict(d: dict[str, Any]) -> tuple[bool, str]:
        found = d["max_connections"]
        if d["distinct_pools_of_clients"] != 1 or found != [str(value)]:
            return False, f"max_connections = {', '.join(found) or 'unset'} across the clients' pools"
        return True, f"the shared pool has max_connections={value}"

    return _decide(ctx, client, "pool", verdict, processor, client)
