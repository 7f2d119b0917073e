"""Behaviour probes: the agent's pipeline code runs in a subprocess against a stub `redis`."""

from __future__ import annotations

import json
import sys

import pytest

from evals.grade.probes.runner import ProbeCache, ProbeRequest
from evals.grade.registry import GradeContext
from evals.grade.rubric import scenario_registry
from evals.scenario.load import load_scenario
from evals.scenario.model import Scenario
from evals.world.sandbox.seed import seed
from evals.world.sandbox.snapshot import outcome
from tests.support.paths import ROOT
from tests.support.project import add_pr

NIGHTSHIFT = ROOT / "scenario" / "nightshift"
CHECKS = scenario_registry(NIGHTSHIFT).checks
BEHAVIOUR = sys.modules[CHECKS["nightshift.buffers_do_not_grow"].__module__]  # the scenario's module
PROC = "hydra/pipeline/stream_processor.py"
CLIENT = "hydra/connectors/redis_client.py"
APPEND = "        self._batch_buffers.append(buf)\n"
CALL = "        redis = get_redis_client()\n"
INIT = "        self._batch_buffers: list[bytearray] = []\n"

POOLED = """import redis

from hydra.config import settings

POOL = redis.ConnectionPool(host=settings.REDIS_HOST, port=settings.REDIS_PORT, max_connections=20)


def get_redis_client() -> redis.StrictRedis:
    return redis.StrictRedis(connection_pool=POOL)
"""
CACHED = """import functools

import redis

from hydra.config import settings


@functools.cache
def get_redis_client() -> redis.StrictRedis:
    return redis.StrictRedis(host=settings.REDIS_HOST, max_connections=20)
"""


@pytest.fixture(scope="module")
def scenario() -> Scenario:
    return load_scenario(ROOT / "scenario", "nightshift")


def edit(scenario: Scenario, path: str, *pairs: tuple[str, str]) -> str:
    text = scenario.files[path]
    for old, new in pairs:
        assert old in text, old
        text = text.replace(old, new)
    return text


def with_head(scenario: Scenario, changes: dict[str, str]) -> GradeContext:
    snap = outcome(seed(scenario, 0))
    add_pr(snap, changes, title="fix: oom (#142)")
    return GradeContext(outcome=snap, scenario=scenario)


def passes(name: str, ctx: GradeContext, **params: object) -> bool:
    return CHECKS[name](ctx, **params).passed


def test_the_seeded_leak_is_caught(scenario: Scenario) -> None:
    # A head that changes only a comment still runs the leaking code: the probe sees it grow.
    leaking = edit(scenario, PROC, ('"""Turn batches', '"""Touched. Turn batches'))
    ctx = with_head(scenario, {PROC: leaking, CLIENT: scenario.files[CLIENT] + "\n"})
    grow = CHECKS["nightshift.buffers_do_not_grow"](ctx)
    assert not grow.passed and "holds 300 buffers" in grow.detail
    per_batch = CHECKS["nightshift.factory_not_called_per_batch"](ctx)
    assert not per_batch.passed and "299 factory call(s)" in per_batch.detail
    pool = CHECKS["nightshift.clients_share_one_pool"](ctx)
    assert not pool.passed and "5 pool(s)" in pool.detail


@pytest.mark.parametrize(
    ("processor_edits", "client"),
    [
        (
            [(APPEND, ""), (INIT, "        self._redis = get_redis_client()\n"),
             (CALL, "        redis = self._redis\n")],
            POOLED,
        ),
        (
            [("        return results\n", "        self._batch_buffers.clear()\n        return results\n"),
             (CALL, "        if not hasattr(self, '_redis'):\n            self._redis = get_redis_client()\n"
                    "        redis = self._redis\n")],
            CACHED,
        ),
    ],
    ids=["no-append-client-in-init-module-pool", "clear-at-end-lazy-client-cached-factory"],
)  # fmt: skip
def test_equivalent_fixes_pass_every_probe(
    scenario: Scenario, processor_edits: list[tuple[str, str]], client: str
) -> None:
    ctx = with_head(scenario, {PROC: edit(scenario, PROC, *processor_edits), CLIENT: client})
    for name in (
        "nightshift.buffers_do_not_grow",
        "nightshift.buffer_released_after_batch",
        "nightshift.factory_not_called_per_batch",
        "nightshift.clients_share_one_pool",
    ):
        result = CHECKS[name](ctx)
        assert result.passed, f"{name}: {result.detail}"
    assert passes("nightshift.pool_max_connections", ctx, value=20)


def test_one_subprocess_serves_every_probe_check_of_a_head(scenario: Scenario) -> None:
    ctx = with_head(scenario, {PROC: edit(scenario, PROC, (APPEND, "")), CLIENT: POOLED})
    for name in (
        "nightshift.buffers_do_not_grow",
        "nightshift.buffer_released_after_batch",
        "nightshift.clients_share_one_pool",
    ):
        CHECKS[name](ctx)
    assert len([k for k in ctx.cache if k.startswith("probe:")]) == 1


def test_clearing_at_the_start_of_a_batch_stops_growth_but_keeps_a_buffer(scenario: Scenario) -> None:
    early = edit(
        scenario,
        PROC,
        ("        buf = bytearray", "        self._batch_buffers.clear()\n        buf = bytearray"),
    )
    ctx = with_head(scenario, {PROC: early})
    assert passes("nightshift.buffers_do_not_grow", ctx)
    released = CHECKS["nightshift.buffer_released_after_batch"](ctx)
    assert not released.passed and "0 -> 1" in released.detail


def test_a_leak_moved_to_a_module_level_list_is_still_caught(scenario: Scenario) -> None:
    moved = edit(
        scenario,
        PROC,
        (
            "logger = logging.getLogger(__name__)\n",
            "logger = logging.getLogger(__name__)\n_KEEP: list = []\n",
        ),
        (APPEND, "        _KEEP.append(buf)\n"),
    )
    assert not passes("nightshift.buffers_do_not_grow", with_head(scenario, {PROC: moved}))


def test_a_cached_client_behind_the_old_call_site_is_still_called_per_batch(scenario: Scenario) -> None:
    ctx = with_head(scenario, {PROC: edit(scenario, PROC, (APPEND, "")), CLIENT: CACHED})
    result = CHECKS["nightshift.factory_not_called_per_batch"](ctx)
    assert not result.passed and "0 new client(s)" in result.detail
    assert passes("nightshift.clients_share_one_pool", ctx)


def test_a_per_batch_call_hidden_under_an_if_passes_ast_but_not_the_probe(scenario: Scenario) -> None:
    hidden = edit(
        scenario, PROC, (APPEND, ""), (CALL, "        if batch:\n            redis = get_redis_client()\n")
    )
    ctx = with_head(scenario, {PROC: hidden, CLIENT: POOLED})
    params = dict(path=PROC, cls="StreamProcessor", method="_process_batch", function="get_redis_client")
    assert passes("python.method_does_not_call_each_time", ctx, **params)
    assert not passes("nightshift.factory_not_called_per_batch", ctx)


def test_a_pool_made_per_call_or_with_the_wrong_size_fails(scenario: Scenario) -> None:
    per_call = POOLED.replace("POOL = redis", "def _pool():\n    return redis").replace(
        "connection_pool=POOL", "connection_pool=_pool()"
    )
    assert not passes("nightshift.clients_share_one_pool", with_head(scenario, {CLIENT: per_call}))
    fifty = with_head(scenario, {CLIENT: POOLED.replace("max_connections=20", "max_connections=50")})
    assert passes("nightshift.clients_share_one_pool", fifty)
    result = CHECKS["nightshift.pool_max_connections"](fifty, value=20)
    assert not result.passed and "50" in result.detail


def test_a_crashing_head_fails_with_the_error_as_evidence(scenario: Scenario) -> None:
    broken = "import prometheus_client_not_installed\n" + scenario.files[PROC]
    result = CHECKS["nightshift.buffers_do_not_grow"](with_head(scenario, {PROC: broken}))
    assert not result.passed and "ModuleNotFoundError" in result.evidence
    bad_client = with_head(scenario, {CLIENT: "def get_redis_client(:\n"})
    result = CHECKS["nightshift.clients_share_one_pool"](bad_client)
    assert not result.passed and "SyntaxError" in result.detail


def test_a_slow_leak_no_buffer_count_sees_is_caught_over_the_whole_window(scenario: Scenario) -> None:
    # A class attribute is not among the roots the buffer count walks, and 441 B a batch held over
    # the 29 traced batches alone (13 KiB) is under the 64 KiB limit: the rate those batches show
    # says "leak", and the whole window, traced again to be sure, holds 128 KiB.
    leak = edit(
        scenario,
        PROC,
        (INIT, INIT.replace("self._batch_buffers: list[bytearray] = []", "self._batch_buffers = []")),
        ('    """Runs the model', '    _seen: list[bytes] = []\n\n    """Runs the model'),
        (APPEND, "        self._seen.append(bytes(400))\n"),
    )
    ctx = with_head(scenario, {PROC: leak})
    result = CHECKS["nightshift.buffers_do_not_grow"](ctx)
    assert not result.passed and "memory grew by" in result.detail
    data = json.loads(result.evidence)
    assert data["retained_after_all"] == data["retained_after_first"]
    assert data["traced_batches"] == BEHAVIOUR.GROWTH_WINDOW
    assert data["traced_growth_bytes"] > BEHAVIOUR.GROWTH_LIMIT_BYTES
    short = min((r.data["batches_traced"] for r in ctx.cache.values()), key=lambda d: d["traced_batches"])
    assert short["traced_batches"] < BEHAVIOUR.GROWTH_WINDOW
    assert short["traced_growth_bytes"] < BEHAVIOUR.GROWTH_LIMIT_BYTES < BEHAVIOUR.estimated_growth(short)


def test_a_bounded_history_is_not_failed_on_an_extrapolation(scenario: Scenario) -> None:
    # A record of each of the last 100 batches (about 390 B each, 39 KiB in all) looks like a steady
    # leak over the 29 traced batches; traced over the whole window it stops growing under the limit.
    ring = edit(
        scenario,
        PROC,
        (INIT, INIT + "        self._recent: collections.deque[str] = collections.deque(maxlen=100)\n"),
        (APPEND, "        self._recent.append(repr(batch))\n"),
        ("import json\n", "import collections\nimport json\n"),
    )
    ctx = with_head(scenario, {PROC: ring})
    result = CHECKS["nightshift.buffers_do_not_grow"](ctx)
    assert result.passed, result.detail
    assert json.loads(result.evidence)["traced_batches"] == BEHAVIOUR.GROWTH_WINDOW
    assert len([k for k in ctx.cache if k.startswith("probe:")]) == 2


def test_memory_held_once_is_counted_once_not_as_a_rate(scenario: Scenario) -> None:
    # The last batch's 32 KiB scratch buffer is kept (replaced each batch): allocated while traced
    # and still held, but the same amount after every batch, so memory is flat.
    keeps_last = edit(scenario, PROC, (APPEND, "        self._last = bytearray(32 * 1024)\n"))
    ctx = with_head(scenario, {PROC: keeps_last})
    result = CHECKS["nightshift.buffers_do_not_grow"](ctx)
    assert result.passed, result.detail
    assert json.loads(result.evidence)["traced_growth_bytes"] > 32 * 1024
    assert len([k for k in ctx.cache if k.startswith("probe:")]) == 1  # the short trace settles it
    assert not passes("nightshift.buffer_released_after_batch", ctx)


def test_an_async_batch_method_is_run_to_completion(scenario: Scenario) -> None:
    # asyncio is imported only for a method whose result is awaitable; the verdicts are the same.
    def asynchronous(*pairs: tuple[str, str]) -> str:
        return edit(scenario, PROC, ("    def _process_batch", "    async def _process_batch"), *pairs)

    leaking = with_head(scenario, {PROC: asynchronous(), CLIENT: POOLED})
    grow = CHECKS["nightshift.buffers_do_not_grow"](leaking)
    assert not grow.passed and "holds 300 buffers" in grow.detail
    fixed = with_head(scenario, {PROC: asynchronous((APPEND, "")), CLIENT: POOLED})
    assert passes("nightshift.buffers_do_not_grow", fixed)
    assert passes("nightshift.buffer_released_after_batch", fixed)
    assert passes("nightshift.clients_share_one_pool", fixed)


def test_the_graders_own_packages_are_not_the_agents(scenario: Scenario) -> None:
    # PyYAML is installed for the grader, not for hydra: the probe sees the standard library and
    # the stubs only, so what the grader happens to have installed cannot decide a grade.
    uses_yaml = "import yaml\n" + scenario.files[PROC]
    result = CHECKS["nightshift.buffers_do_not_grow"](with_head(scenario, {PROC: uses_yaml}))
    assert not result.passed and "No module named 'yaml'" in result.evidence


def test_a_hanging_head_times_out_instead_of_hanging_the_grade() -> None:
    files = {"hydra/connectors/redis_client.py": "while True:\n    pass\n"}
    spec = {"client_module": "hydra.connectors.redis_client"}
    probes = NIGHTSHIFT / "probes"
    cache = ProbeCache()
    for _ in range(2):
        stubs = (probes / "sitestub",)
        request = ProbeRequest(files, probes / "hydra_probe.py", spec, BEHAVIOUR.STEPS, stubs, 1)
        result = request.run(cache)
        assert not result.ok and "timed out" in result.error
    assert cache.misses == 2  # a timeout may be the machine's load, so it is never kept
