"""GitHub's OpenAPI description as a checker of what the fakes answer."""

from __future__ import annotations

from typing import Any

from jsonschema import Draft202012Validator  # type: ignore[import-untyped]
from referencing import Registry
from referencing.jsonschema import DRAFT202012

from tests.support.fakes import FakeServices
from tests.support.fakes.github_api import load_openapi


def validator(openapi: dict[str, Any], key: str) -> Draft202012Validator:
    registry: Registry[Any] = Registry().with_resource("urn:github", DRAFT202012.create_resource(openapi))
    pointer = key.replace("~", "~0").replace("/", "~1")
    return Draft202012Validator({"$ref": f"urn:github#/endpoints/{pointer}/schema"}, registry=registry)


def problems(services: FakeServices) -> tuple[set[str], list[str]]:
    openapi = load_openapi()
    seen, bad = set(), []
    for served in services.github.served:
        key = f"{served.method} {services.github.openapi_paths[served.route]}"
        seen.add(key)
        spec = openapi["endpoints"][key]
        assert served.status in spec["statuses"], f"{key} answered {served.status}: {served.body}"
        for error in validator(openapi, key).iter_errors(served.body):
            bad.append(f"{key}: {'/'.join(map(str, error.absolute_path))}: {error.message[:160]}")
    return seen, bad
