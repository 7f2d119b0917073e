"""Composio's tool schemas as the project keeps them (tests/fixtures/composio/tools.json, made by
extract.py from ComposioHQ/composio's public dumps), and checks of a result against them."""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from jsonschema import Draft202012Validator  # type: ignore[import-untyped]

from tests.support.paths import FIXTURES

FIXTURE = FIXTURES / "composio" / "tools.json"


@cache
def composio_tools() -> dict[str, dict[str, Any]]:
    data: dict[str, dict[str, Any]] = json.loads(FIXTURE.read_text(encoding="utf-8"))["tools"]
    return data


def undeclared(schema: dict[str, Any], value: Any, where: str = "") -> list[str]:
    """Keys of `value` that an object schema with listed properties does not list (unless it says
    additionalProperties: true): what an agent would read offline and not find live."""
    out: list[str] = []
    if isinstance(value, dict):
        props = schema.get("properties") or {}
        if props and schema.get("additionalProperties") is not True:
            out += [f"{where}.{k}" for k in value if k not in props]
        for key, sub in value.items():
            if key in props:
                out += undeclared(props[key], sub, f"{where}.{key}")
    elif isinstance(value, list) and isinstance(schema.get("items"), dict):
        for item in value:
            out += undeclared(schema["items"], item, f"{where}[]")
    variants = [v for v in schema.get("anyOf") or [] if v.get("type") == "object"]
    if isinstance(value, dict) and variants:  # fits when some variant declares every key
        out += min((undeclared(v, value, where) for v in variants), key=len)
    return sorted(set(out))


def output_problems(slug: str, envelope: dict[str, Any]) -> list[str]:
    """Why a tool result does not fit Composio's output schema for the tool (empty: it fits)."""
    schema = composio_tools()[slug]["output"]
    problems = [
        f"{slug}: {'/'.join(map(str, e.absolute_path)) or '(top)'}: {e.message[:200]}"
        for e in Draft202012Validator(schema).iter_errors(envelope)
    ]
    return problems + [
        f"{slug}: {path}: not in Composio's output schema" for path in undeclared(schema, envelope)
    ]
