"""A probe request that reads nothing from /proc (`measured=False`, what `behaviour.observe` asks
for): the same values from the confined code, no `usage`, and never served a measured result's
cache entry or the other way round."""

from __future__ import annotations

from evals.grade.checks.behaviour import PROBE
from evals.grade.probes.runner import ProbeCache, ProbeRequest

TREE = {"app/__init__.py": "", "app/settings.py": "LEVEL = 'INFO'\nRETRIES = 3\n"}
SPEC = {"roots": ["."], "packages": ["app"], "values": [["app.settings", "LEVEL"]], "calls": []}


def test_an_unmeasured_observation_reads_the_same_values_without_usage() -> None:
    cache = ProbeCache()
    measured = ProbeRequest(TREE, PROBE, SPEC, ("observe",)).run(cache)
    unmeasured = ProbeRequest(TREE, PROBE, SPEC, ("observe",), measured=False).run(cache)
    assert measured.ok and unmeasured.ok, (measured.error, unmeasured.error)
    assert unmeasured.data == measured.data
    assert unmeasured.data["observe"]["values"][0]["value"] == "INFO"
    assert unmeasured.usage == {}
    assert cache.misses == 2  # keyed apart: neither answers for the other


def test_an_unmeasured_request_is_keyed_apart() -> None:
    one = ProbeRequest(TREE, PROBE, SPEC, ("observe",))
    other = ProbeRequest(TREE, PROBE, SPEC, ("observe",), measured=False)
    assert one.key != other.key
