"""Nightshift's behaviour checks hold against code that keeps the leak and forges the measurement.

The seed's leaking pipeline, with one addition each: printing a clean-looking result, an `atexit`
hook that prints one, exiting at import after printing one, or patching the probe's own in-process
readings (tracemalloc, the stub's counters, the factory the probe counts). The printed forgeries
never reach the grader (the result travels on the worker's private channel); the patched ones
still hold descriptors and memory the grader reads from /proc.
"""

from __future__ import annotations

import json

import pytest

from evals.grade.confine.launch import available
from evals.grade.confine.policy import MODES, Mode
from evals.grade.registry import GradeContext
from evals.grade.rubric import scenario_registry
from evals.scenario.load import load_scenario
from evals.scenario.model import Scenario
from evals.world.sandbox.seed import seed
from evals.world.sandbox.snapshot import outcome
from tests.support.paths import ROOT
from tests.support.project import add_pr

CHECKS = scenario_registry(ROOT / "scenario" / "nightshift").checks
PROC = "hydra/pipeline/stream_processor.py"
CLIENT = "hydra/connectors/redis_client.py"
BEHAVIOUR = (
    "nightshift.buffers_do_not_grow",
    "nightshift.buffer_released_after_batch",
    "nightshift.factory_not_called_per_batch",
    "nightshift.clients_share_one_pool",
)
CLEAN = {
    "ok": True,
    "pool": {"factory_calls": 5, "pools_created": 1, "clients_created": 1, "distinct_pools_of_clients": 1,
             "max_connections": ["20"], "pool_types": ["ConnectionPool"]},
    "batches": {"batches": 300, "traced_batches": 29, "retained_before": 0, "retained_after_first": 0,
                "retained_after_all": 0, "traced_growth_bytes": 0, "traced_growth_half_bytes": 0,
                "factory_calls_later_batches": 0, "clients_created_later_batches": 0},
}  # fmt: skip
LINE = json.dumps(CLEAN)
POOLED = (
    "import redis\n\nPOOL = redis.ConnectionPool(max_connections=20)\n\n\n"
    "def get_redis_client() -> redis.StrictRedis:\n    return redis.StrictRedis(connection_pool=POOL)\n"
)


@pytest.fixture(scope="module")
def scenario() -> Scenario:
    return load_scenario(ROOT / "scenario", "nightshift")


def head(
    scenario: Scenario, processor_prefix: str = "", client: str | None = None, processor: str | None = None
) -> GradeContext:
    snap = outcome(seed(scenario, 0))
    files = {
        PROC: processor_prefix + (processor or scenario.files[PROC]),
        CLIENT: client or scenario.files[CLIENT] + "\n",
    }
    add_pr(snap, files, title="fix: oom (#142)")
    return GradeContext(outcome=snap, scenario=scenario)


def failed(ctx: GradeContext, *names: str) -> list[str]:
    return [name for name in names if not CHECKS[name](ctx).passed]


@pytest.mark.parametrize(
    "forgery",
    [
        f"print({LINE!r})\n",
        f"import atexit\natexit.register(print, {LINE!r})\n",
        f"import os, sys\nprint({LINE!r})\nsys.stdout.flush()\nos._exit(0)\n",
    ],
    ids=["prints-a-clean-result", "atexit-prints-a-clean-result", "exits-at-import-after-a-clean-result"],
)
def test_a_leaking_module_that_prints_a_clean_result_loses_every_behaviour_part(
    scenario: Scenario, forgery: str
) -> None:
    ctx = head(scenario, forgery)
    assert failed(ctx, *BEHAVIOUR) == list(BEHAVIOUR)
    assert not CHECKS["nightshift.pool_max_connections"](ctx, value=20).passed


def test_a_leak_the_trace_is_told_not_to_see_still_grows_the_memory_read_from_outside(
    scenario: Scenario,
) -> None:
    """The buffers go where the probe's count does not walk, and tracemalloc is patched to report
    nothing: the probe's own account is flat, the confinement's resident memory is not."""
    hide = (
        "import _tracemalloc, builtins\n"
        "_tracemalloc.get_traced_memory = lambda: (0, 0)\n"
        "builtins._hidden = []\n"
    )
    source = hide + scenario.files[PROC].replace(
        "        self._batch_buffers.append(buf)\n", "        builtins._hidden.append(bytearray(2048))\n"
    )
    snap = outcome(seed(scenario, 0))
    add_pr(snap, {PROC: source, CLIENT: POOLED}, title="fix: oom (#142)")
    result = CHECKS["nightshift.buffers_do_not_grow"](GradeContext(outcome=snap, scenario=scenario))
    assert not result.passed and "read from outside" in result.detail, result.detail
    data = json.loads(result.evidence)
    assert data["traced_growth_bytes"] == 0 and data["retained_after_all"] == 0  # the forged account


def test_a_client_per_batch_behind_patched_counters_is_still_seen_opening_connections(
    scenario: Scenario,
) -> None:
    """The processor calls the factory under a second name the probe does not count, and resets the
    stub's client and pool counts in every batch: the probe's account shows no call and no client;
    the descriptors each new client and pool leave open say otherwise."""
    client = (
        "import redis\n\n\n"
        "def _make() -> redis.StrictRedis:\n"
        "    return redis.StrictRedis(host='redis', max_connections=20)\n\n\n"
        "get_redis_client = _make\n"
    )
    source = (
        scenario.files[PROC]
        .replace(
            "        redis = get_redis_client()\n",
            "        redis = _rc._make()\n        _stub.COUNTS.update(clients=0, pools=0)\n",
        )
        .replace(
            "from hydra.connectors.redis_client import get_redis_client\n",
            "import redis as _stub\n\nfrom hydra.connectors import redis_client as _rc\n",
        )
        .replace("        self._batch_buffers.append(buf)\n", "")
    )
    result = CHECKS["nightshift.factory_not_called_per_batch"](
        head(scenario, client=client, processor=source)
    )
    assert not result.passed and "read from outside" in result.detail, result.detail


def test_pools_made_per_call_behind_a_forged_shared_pool_are_counted_from_outside(scenario: Scenario) -> None:
    """Every call builds a real pool, but the clients all point at one decoy and the stub's pool
    count is reset to 1: the account says one shared pool; five socket pairs say five."""
    client = (
        "import redis\n\nDECOY = redis.ConnectionPool.__new__(redis.ConnectionPool)\n\n\n"
        "def get_redis_client() -> redis.StrictRedis:\n"
        "    client = redis.StrictRedis(connection_pool=redis.ConnectionPool(max_connections=20))\n"
        "    redis.COUNTS['pools'] = 1\n"
        "    client.connection_pool = DECOY\n"
        "    return client\n"
    )
    result = CHECKS["nightshift.clients_share_one_pool"](head(scenario, client=client))
    assert not result.passed and "read from outside" in result.detail, result.detail


@pytest.mark.parametrize("mode", MODES)
def test_in_every_mode_a_real_fix_passes_and_an_atexit_forgery_does_not(
    scenario: Scenario, mode: Mode, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The outside readings hold in each mode this machine can force: no false alarm on a fix,
    no pass for the leak with a forged result."""
    if not available(mode):
        pytest.skip(f"confinement mode {mode} does not work on this machine")
    monkeypatch.setenv("EVALS_CONFINE", mode)
    fixed = (
        scenario.files[PROC]
        .replace("        self._batch_buffers.append(buf)\n", "")
        .replace("        redis = get_redis_client()\n", "        redis = self._redis\n")
        .replace(
            "        self._batch_buffers: list[bytearray] = []\n",
            "        self._redis = get_redis_client()\n",
        )
    )
    ctx = head(scenario, client=POOLED, processor=fixed)
    assert failed(ctx, *BEHAVIOUR) == []
    forged = head(scenario, f"import atexit\natexit.register(print, {LINE!r})\n")
    assert failed(forged, *BEHAVIOUR) == list(BEHAVIOUR)


def test_without_proc_the_probes_own_account_decides_and_the_evidence_says_so(
    scenario: Scenario, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A system with no /proc (not Linux) gets no outside reading: a fix still passes, the seeded
    leak still fails, and the evidence is marked unmeasured."""
    from evals.grade.confine import launch

    monkeypatch.setattr(launch, "measurable", lambda: False)
    monkeypatch.setenv("EVALS_CONFINE", "none")
    fixed = head(
        scenario,
        client=POOLED,
        processor=scenario.files[PROC].replace("        self._batch_buffers.append(buf)\n", ""),
    )
    result = CHECKS["nightshift.clients_share_one_pool"](fixed)
    assert result.passed and json.loads(result.evidence)["outside"] == {"mode": "none", "unmeasured": True}
    assert CHECKS["nightshift.buffers_do_not_grow"](fixed).passed
    assert not CHECKS["nightshift.buffers_do_not_grow"](head(scenario)).passed
