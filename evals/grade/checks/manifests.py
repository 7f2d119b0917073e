"""Checks on Kubernetes manifests, read with a YAML parser and compared as quantities.

`"4Gi"`, `4Gi` and `"4096Mi"` are the same memory limit; a regex on the text would disagree. The
Deployment is found by `kind` (multi-document files are fine), the container by name when given.
Quantities are normalised the way Kubernetes reads them (binary `Ki..Ei`, decimal `k..E`, `m`
milli); a reason quotes the value as the file writes it (`4096Mi`), never the normalised one.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import yaml

from evals.core.loading import parse_yaml_all
from evals.grade.artefact import bounded, reading
from evals.grade.checks.common import at_some_changed_head
from evals.grade.registry import CheckResult, GradeContext, check

UNITS = {
    "": 1,
    "m": 10**-3,
    "k": 10**3,
    "M": 10**6,
    "G": 10**9,
    "T": 10**12,
    "P": 10**15,
    "E": 10**18,
    "Ki": 2**10,
    "Mi": 2**20,
    "Gi": 2**30,
    "Ti": 2**40,
    "Pi": 2**50,
    "Ei": 2**60,
}
QUANTITY = re.compile(r"^\s*([+-]?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)\s*(Ki|Mi|Gi|Ti|Pi|Ei|m|k|M|G|T|P|E|)\s*$")


def quantity_bytes(value: object) -> float | None:
    """A Kubernetes memory quantity in bytes, or None when it is not one."""
    match = QUANTITY.match(str(value))
    if not match:
        return None
    return float(match.group(1)) * UNITS[match.group(2)]


def deployments(text: str) -> list[dict[str, Any]]:
    """The Deployments of a manifest; AgentArtefactError for one too deep or too large to read."""
    with reading("the YAML"):
        docs = bounded(parse_yaml_all(text), "the YAML")
    return [doc for doc in docs if isinstance(doc, dict) and doc.get("kind") == "Deployment"]


def _containers(deployment: dict[str, Any], name: str | None) -> list[dict[str, Any]]:
    spec = deployment.get("spec", {}).get("template", {}).get("spec", {}) or {}
    found = [c for c in spec.get("containers", []) or [] if isinstance(c, dict)]
    return [c for c in found if name is None or c.get("name") == name]


Pick = Callable[[dict[str, Any]], tuple[bool, str]]


def _read(ctx: GradeContext, path: str, pick: Pick, expected: object, describe: str) -> CheckResult:
    """`pick(deployment) -> (right, the value as the file writes it)` at each head that changed `path`."""

    def look(label: str, files: dict[str, str]) -> CheckResult:
        if path not in files:
            return CheckResult(False, f"{label}: {path} is missing")
        try:
            docs = deployments(files[path])
        except yaml.YAMLError as exc:
            return CheckResult(False, f"{label}: {path} is not valid YAML ({str(exc).splitlines()[0]})")
        if not docs:
            return CheckResult(False, f"{label}: no Deployment in {path}")
        values = [pick(doc) for doc in docs]
        if all(ok for ok, _ in values):
            return CheckResult(True, f"{label}: {describe} = {values[0][1]}")
        return CheckResult(False, f"{label}: {describe} = {', '.join(shown for _, shown in values)}")

    return at_some_changed_head(ctx.outcome, path, look, expected=f"{describe} = {expected}")


@check("deployment_replicas")
def deployment_replicas(ctx: GradeContext, path: str, equals: int) -> CheckResult:
    """At a head that changed `path`, every Deployment in it has `spec.replicas == equals`."""

    def pick(doc: dict[str, Any]) -> tuple[bool, str]:
        value = (doc.get("spec") or {}).get("replicas")
        return value == equals and not isinstance(value, bool), str(value)

    return _read(ctx, path, pick, equals, "spec.replicas")


@check("container_memory_limit")
def container_memory_limit(
    ctx: GradeContext, path: str, equals: str, container: str | None = None
) -> CheckResult:
    """At a head that changed `path`, the container's `resources.limits.memory` is `equals`."""
    wanted = quantity_bytes(equals)

    def pick(doc: dict[str, Any]) -> tuple[bool, str]:
        containers = _containers(doc, container)
        if not containers:
            return False, f"no container {container!r}"
        limits = [((c.get("resources") or {}).get("limits") or {}).get("memory") for c in containers]
        shown = ", ".join("not set" if v is None else str(v) for v in limits)
        return all(quantity_bytes(v) == wanted for v in limits), shown

    return _read(ctx, path, pick, equals, "resources.limits.memory")
