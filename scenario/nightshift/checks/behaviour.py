"""Nightshift's own checks, decided by running the agent's pipeline code: one probe per head.

Source can hide or mimic a fix (a cached client behind an unchanged call site, a `.clear()` at the
wrong moment); running many batches against a stub `redis` shows what the code does. The probe
module and the stub live next to this folder (`../probes/`); the package's runner calls the probe's
steps in the confinement (evals/grade/confine/) and reads it from /proc between them. Every
check here reads one shared measurement per head (kept on the grade context, and across trials by
the runner's cache), so five criteria cost one confinement per distinct tree (two for a head that holds
no more buffers but whose memory only the whole traced window can judge: see `growth_settled`).

What the probe returns is the code's own account (it runs in the code's process); what the grader
reads from /proc is not. So a criterion the outside can see is decided by both, and the outside
reading can only take a pass away: memory (C2a) must not grow by more than OUTSIDE_GROWTH_LIMIT over
the second half of the untraced warm-up, and the pools and clients the stub made (each leaves a
descriptor open, C3 and C4a) must be what the account says. A module that prints a clean result,
registers an `atexit` hook or patches the probe's counters still leaks in the kernel's accounting.
Which buffers outlive a batch (C2b) and the pool's size (C4b) are the probe's account alone.

Each criterion is still observed on its own: the pool and the batches are separate guarded sections,
and inside the batches each batch call is guarded, so a batch that raises (a typo after the fixes)
is counted and named in every reason while buffers and factory calls are still measured. A crash
costs only a criterion whose behaviour it prevents from being observed (the processor cannot be
built, the module does not import), and that reason names the crash. Registered as
`nightshift.<name>` when the scenario's rubric loads.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from evals.grade.checks import (
    LAUNCHED,
    CheckResult,
    GradeContext,
    ProbeRequest,
    ProbeResult,
    at_some_changed_head,
    check,
    env_read_at_some_head,
    value_everywhere,
)

PROBES = Path(__file__).resolve().parent.parent / "probes"
SCRIPT = PROBES / "hydra_probe.py"
STUBS = (PROBES / "sitestub",)
PROCESSOR = "hydra/pipeline/stream_processor.py"
CLIENT = "hydra/connectors/redis_client.py"
BATCHES = 300
# "Memory stays flat": the batches after a ten-batch warm-up leave at most 64 KiB more held (a leak
# of more than 226 bytes a batch fails).
GROWTH_WINDOW = BATCHES - 10
GROWTH_LIMIT_BYTES = 64 * 1024
# Tracing makes every allocation several times dearer: tracing all 290 was about a third of a
# first-seen trial's grading CPU. The probe traces the last tenth of the window only and the growth
# over the whole window is estimated from it (`estimated_growth`), or, where only that estimate
# would fail a head, measured by probing it again with the whole window traced (`growth_settled`).
TRACED_BATCHES = GROWTH_WINDOW // 10
STEPS = (
    "prepare",
    "pool",
    "batches_first",
    "batches_settle",
    "batches_warm",
    "batches_more",
    "batches_traced",
)
# Read from outside over the second half of the untraced warm-up (130 batches in the short-traced
# probe), in whole pages, after the probe has given the allocator's free pages back: the first half
# may still fault freed pages in again without holding anything more; in the second, the seeded
# leak (a 512-byte buffer a batch) holds about 70 KiB and every flat head of the tests at most 8
# KiB. Only a probe with at least OUTSIDE_WINDOW batches in that half is read this way.
OUTSIDE_GROWTH_LIMIT = 48 * 1024
OUTSIDE_WINDOW = 100
BATCH = [{"id": f"evt-{i}", "input": f"probe event {i}"} for i in range(8)]

Verdict = Callable[[dict[str, Any]], tuple[bool, str]]
Settled = Callable[[dict[str, Any]], bool]


def _module(path: str) -> str:
    return path.removesuffix(".py").replace("/", ".")


def _spec(processor: str, client: str, traced: int) -> dict[str, Any]:
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
        "traced_batches": traced,
    }


def estimated_growth(d: dict[str, Any]) -> int:
    """Bytes the GROWTH_WINDOW batches leave held, from the traced last ones: what those left held
    (allocated while traced, still held after the last batch), plus the untraced rest of the
    window at the rate the second half of the traced batches added to it (never below zero).
    With every batch of the window traced, this is exactly what they left held.

    A steady leak adds at the same rate over the untraced batches, so it is estimated at what
    tracing all of them shows; memory held once (the last batch's buffer) is in both readings, so
    it is counted once and not as a rate. A bounded history longer than half the traced batches
    (the last 100 batches' results) still looks like a steady leak there, so the estimate can only
    screen: `growth_settled` says when it cannot decide and the window is traced in full.
    """
    traced, held = int(d["traced_batches"]), int(d["traced_growth_bytes"])
    second_half = traced - traced // 2
    rate = max(0, held - int(d["traced_growth_half_bytes"])) / second_half
    return held + round(rate * max(0, GROWTH_WINDOW - traced))


def growth_settled(d: dict[str, Any]) -> bool:
    """Whether a probe's batches decide `buffers_do_not_grow` as tracing the whole window would:
    the processor holds more buffers (a fail whatever memory shows); the traced batches alone left
    more than the limit held (the whole window holds at least that); or the estimate is within it.
    Otherwise only the rate would fail the head, and the head is probed again with the window
    traced in full (what the probe always did), so no bounded history fails on an extrapolation.

    The one way the estimate can pass a head that tracing the whole window fails: memory that
    grows during the untraced warm-up and then stops (a bounded cache filled early), or that grows
    in bursts further apart than half the traced batches.
    """
    if d["retained_after_all"] > d["retained_after_first"]:
        return True
    return int(d["traced_growth_bytes"]) > GROWTH_LIMIT_BYTES or estimated_growth(d) <= GROWTH_LIMIT_BYTES


def probe_head(
    ctx: GradeContext, files: dict[str, str], processor: str, client: str, traced: int = TRACED_BATCHES
) -> ProbeResult:
    """The probe's measurements for one head's tree, run once per distinct tree (and trace length)."""
    request = ProbeRequest(files, SCRIPT, _spec(processor, client, traced), STEPS, STUBS)
    key = "probe:" + request.key
    if key not in ctx.cache:
        ctx.cache[key] = request.run()
    result: ProbeResult = ctx.cache[key]
    return result


def _delta(result: ProbeResult, start: str, end: str, field: str) -> int:
    return int(result.usage[end][field]) - int(result.usage[start][field])


def outside(result: ProbeResult) -> dict[str, Any]:
    """What the grader read from /proc: pools (a socket pair each) and clients (a pipe each) the
    stub made up to the end of the pool section and in the batches after the first, and the memory
    the warm-up batches left held, with how many there were."""
    if not result.usage:  # no /proc on this system: the probe's own account only (README)
        return {"mode": result.mode, "unmeasured": True}
    facts: dict[str, Any] = {
        "mode": result.mode,
        "pools_to_pool_section": _delta(result, LAUNCHED, "pool", "sockets") // 2,
        "clients_to_pool_section": _delta(result, LAUNCHED, "pool", "pipes"),
        "pools_later_batches": _delta(result, "batches_first", "batches_traced", "sockets") // 2,
        "clients_later_batches": _delta(result, "batches_first", "batches_traced", "pipes"),
    }
    window = int(result.data.get("batches_more", {}).get("batches", 0))
    if window >= OUTSIDE_WINDOW:
        facts["warm_up_batches"] = window
        facts["warm_up_growth_bytes"] = _delta(result, "batches_warm", "batches_more", "rss_bytes")
    return facts


def _sections(result: ProbeResult) -> dict[str, Any]:
    """The probe's account per section, as the checks read it, with the outside facts beside it."""
    return {"pool": result.data["pool"], "batches": result.data["batches_traced"], "outside": outside(result)}


def _observe(
    ctx: GradeContext, files: dict[str, str], section: str, processor: str, client: str, settled: Settled
) -> tuple[str, dict[str, Any]]:
    """(the error that stopped the probe, or "", and the section's measurements with the outside
    facts under "outside") for one head: probed with the last TRACED_BATCHES traced, and again
    with the whole window traced when `settled` says the short trace cannot decide. The outside
    facts are the first probe's (its untraced warm-up is the long one)."""
    data: dict[str, Any] = {}
    facts: dict[str, Any] = {}
    for traced in (TRACED_BATCHES, GROWTH_WINDOW):
        result = probe_head(ctx, files, processor, client, traced)
        if not result.ok:
            return result.error, {}
        sections = _sections(result)
        facts = facts or sections["outside"]
        data = sections[section]
        if "error" in data:
            return str(data["error"]), {}
        if settled(data):
            break
    return "", {**data, "outside": facts}


def _decide(
    ctx: GradeContext,
    watch: str,
    section: str,
    verdict: Verdict,
    processor: str,
    client: str,
    settled: Settled = lambda d: True,
) -> CheckResult:
    """Pass when the probe of some head that changed `watch` satisfies `verdict` on `section`."""

    def look(label: str, files: dict[str, str]) -> CheckResult:
        error, data = _observe(ctx, files, section, processor, client, settled)
        if error:
            return CheckResult(False, f"{label}: probe failed: {error}", error)
        ok, why = verdict(data)
        if data.get("batches_raised"):
            raised, error = data["batches_raised"], data["first_batch_error"]
            why += f" (observed although {raised} batch(es) raised {error})"
        return CheckResult(ok, f"{label}: {why}", json.dumps(data))

    return at_some_changed_head(ctx.outcome, watch, look)


@check("buffers_do_not_grow")
def buffers_do_not_grow(ctx: GradeContext, processor: str = PROCESSOR, client: str = CLIENT) -> CheckResult:
    """Over many batches, the buffers the processor keeps (and the memory it holds) stay flat."""

    def verdict(d: dict[str, Any]) -> tuple[bool, str]:
        kept, grown = d["retained_after_all"], estimated_growth(d)
        if kept > d["retained_after_first"]:
            return False, f"after {d['batches']} batches it holds {kept} buffers (leak)"
        how = f"over {GROWTH_WINDOW} batches"
        if d["traced_batches"] < GROWTH_WINDOW:
            held, traced = d["traced_growth_bytes"], d["traced_batches"]
            how = f"estimated {how} from the last {traced}, traced, which left {held} B held"
        if grown > GROWTH_LIMIT_BYTES:
            return False, f"memory grew by {grown} bytes {how} (leak)"
        held, window = d["outside"].get("warm_up_growth_bytes"), d["outside"].get("warm_up_batches")
        if held is not None and held > OUTSIDE_GROWTH_LIMIT:
            return False, (
                f"the probe's own account is flat ({grown} B {how}), but the confinement's memory grew by "
                f"{held // 1024} KiB over {window} batches, read from outside (leak)"
            )
        return True, f"after {d['batches']} batches it holds {kept} buffer(s); memory flat ({grown} B {how})"

    return _decide(ctx, processor, "batches", verdict, processor, client, growth_settled)


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
        opened = (d["outside"].get("clients_later_batches", 0), d["outside"].get("pools_later_batches", 0))
        if any(opened):
            return False, (
                f"the probe's own account shows no new client, but {opened[0]} client(s) and {opened[1]} "
                f"pool(s) were opened in later batches, read from outside"
            )
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
        opened = d["outside"].get("pools_to_pool_section", 1)  # unmeasured: the account stands
        if opened != 1:
            return False, (
                f"the probe's own account shows one pool, but {opened} pool(s) were opened by the end of "
                f"{d['factory_calls']} factory calls, read from outside"
            )
        return True, f"{d['factory_calls']} factory calls share one {d['pool_types'][0]}"

    return _decide(ctx, client, "pool", verdict, processor, client)


@check("pool_max_connections")
def pool_max_connections(
    ctx: GradeContext, value: int, processor: str = PROCESSOR, client: str = CLIENT
) -> CheckResult:
    """The pool(s) behind the factory's clients allow exactly `value` connections."""

    def verdict(d: dict[str, Any]) -> tuple[bool, str]:
        # The count on its own (C4's second point): whether the pool is shared is C4a's question.
        found = d["max_connections"]
        if found != [str(value)]:
            return False, f"max_connections = {', '.join(found) or 'unset'} across the clients' pools"
        return True, f"the clients' pool(s) have max_connections={value}"

    return _decide(ctx, client, "pool", verdict, processor, client)


@check("stays_everywhere")
def stays_everywhere(ctx: GradeContext, module: str, name: str, value: object) -> CheckResult:
    """`module.name` is still `value` as the pipeline runs, at every PR head and on main: the whole
    `hydra` package imported in the confinement with the stub `redis` (the shared library's
    `value_everywhere`), so a flag switched on from another module, in a package `__init__` or by an
    environment default is seen, not only an edit of the line in settings.py."""
    return value_everywhere(ctx, module, name, value, stubs=STUBS)


@check("reads_env")
def reads_env(ctx: GradeContext, module: str, name: str, env: str, flag: bool = False) -> CheckResult:
    """`module.name` follows the environment variable `env` as the pipeline runs, at some head: the
    `hydra` package imported with the stub `redis` and `env` set to a sentinel (a flag: "true",
    "false", unset), the effective value read each time (the shared `env_read_at_some_head`), so a
    key read through a helper or a settings object counts and a literal that looks like a read
    does not."""
    return env_read_at_some_head(ctx, module, name, env, flag, stubs=STUBS)
