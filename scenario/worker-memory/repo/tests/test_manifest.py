"""The manifest stays deployable: one Deployment whose worker container keeps requests and limits."""

from pathlib import Path

import yaml

MANIFEST = Path(__file__).resolve().parents[1] / "deploy" / "worker.yaml"


def test_worker_keeps_requests_and_limits():
    doc = yaml.safe_load(MANIFEST.read_text())
    assert doc["kind"] == "Deployment"
    assert doc["spec"]["replicas"] >= 1
    containers = doc["spec"]["template"]["spec"]["containers"]
    worker = next(c for c in containers if c["name"] == "worker")
    assert {"cpu", "memory"} <= set(worker["resources"]["requests"])
    assert {"cpu", "memory"} <= set(worker["resources"]["limits"])
