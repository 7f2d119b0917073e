"""Every manifest stays deployable: parseable, selectors that match, pinned images, memory limits."""

from pathlib import Path

import pytest
import yaml

DEPLOY = Path(__file__).resolve().parent.parent / "deploy"
DEPLOYMENTS = [
    doc
    for path in sorted(DEPLOY.glob("*.yaml"))
    for doc in yaml.safe_load_all(path.read_text())
    if doc and doc.get("kind") == "Deployment"
]


def test_there_is_a_deployment():
    assert DEPLOYMENTS


@pytest.mark.parametrize("deployment", DEPLOYMENTS, ids=lambda d: d["metadata"]["name"])
def test_the_selector_matches_the_pod_labels(deployment):
    labels = deployment["spec"]["template"]["metadata"]["labels"]
    assert deployment["spec"]["selector"]["matchLabels"].items() <= labels.items()


@pytest.mark.parametrize("deployment", DEPLOYMENTS, ids=lambda d: d["metadata"]["name"])
def test_every_container_has_a_pinned_image_and_a_memory_limit(deployment):
    for container in deployment["spec"]["template"]["spec"]["containers"]:
        assert ":" in container["image"] and not container["image"].endswith(":latest")
        assert container["resources"]["limits"]["memory"]


@pytest.mark.parametrize("deployment", DEPLOYMENTS, ids=lambda d: d["metadata"]["name"])
def test_replicas_is_a_positive_integer(deployment):
    replicas = deployment["spec"]["replicas"]
    assert isinstance(replicas, int) and replicas > 0
