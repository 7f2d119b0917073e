"""Field-by-field differences between a Composio tool's JSON schema and the sandbox's.

Used by `python -m evals tools check` (against the schemas Composio serves at the pinned versions)
and by the test that holds the sandbox to the committed Composio fixtures. What is compared is what
changes an agent's call: property names, types, required lists, defaults, enums, constants and
bounds, at every depth (nested objects, array items, the variants of a union). Prose (titles,
descriptions, examples) is not compared, and neither is `additionalProperties` on inputs (the
sandbox refuses unknown parameters on purpose: a typo should fail loudly).

`$ref`s are resolved within each schema, `anyOf: [X, null]` reads as "X or null", and `anyOf` and
`oneOf` are both "one of these variants"; variants are paired by their required keys, then types.

Outputs are compared by what a call returns, not by a schema (Composio's docs pages give only the
result envelope): `shape` lists every path of a result with the JSON types seen there, and
`output_gaps` names each path the sandbox's result has that the real one lacks or types otherwise,
so a prompt tuned offline never reads a field that is not there live.
"""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import dataclass
from typing import Any

Schema = dict[str, Any]
COMPARED = ("enum", "const", "minimum", "maximum", "minLength", "maxLength")


@dataclass(frozen=True)
class Drift:
    """One difference: where in the schema (a dotted path) and what differs."""

    slug: str
    where: str
    what: str

    def __str__(self) -> str:
        return f"{self.slug}: {self.where or '(top)'}: {self.what}"


def _resolve(node: Any, root: Schema) -> Schema:
    seen = 0
    while isinstance(node, dict) and "$ref" in node and seen < 50:
        ref = str(node["$ref"])
        target: Any = root
        for part in ref.removeprefix("#/").split("/"):
            target = target.get(part, {}) if isinstance(target, dict) else {}
        merged = {k: v for k, v in node.items() if k != "$ref"}
        node = {**target, **merged}
        seen += 1
    return node if isinstance(node, dict) else {}


def _variants(node: Schema) -> list[Any]:
    return list(node.get("anyOf") or node.get("oneOf") or [])


def _split(node: Schema, root: Schema) -> tuple[Schema, bool]:
    """(the schema without its null alternative, whether null is allowed)."""
    node = _resolve(node, root)
    variants = [_resolve(v, root) for v in _variants(node)]
    if variants:
        nullable = any(v.get("type") == "null" for v in variants)
        rest = [v for v in variants if v.get("type") != "null"]
        outer = {k: v for k, v in node.items() if k not in ("anyOf", "oneOf", "type")}
        if len(rest) == 1:
            return {**rest[0], **outer}, nullable
        return {**outer, "anyOf": rest}, nullable
    kind = node.get("type")
    if isinstance(kind, list):
        types = [t for t in kind if t != "null"]
        return {**node, "type": types[0] if len(types) == 1 else types}, "null" in kind
    return node, kind == "null"


def _kind(node: Schema) -> str:
    kind = node.get("type")
    if kind is None and "properties" in node:
        return "object"
    if isinstance(kind, list):
        return "|".join(sorted(map(str, kind)))
    return str(kind) if kind is not None else "any"


def _label(node: Schema) -> str:
    return ",".join(sorted(node.get("required") or [])) or _kind(node)


def _show(value: Any) -> str:
    return json.dumps(value, sort_keys=True, default=str)


class _Differ:
    def __init__(self, slug: str, real_root: Schema, ours_root: Schema, null: bool = True) -> None:
        self.slug = slug
        self.real_root = real_root
        self.ours_root = ours_root
        self.null = null
        self.found: list[Drift] = []

    def add(self, where: str, what: str) -> None:
        self.found.append(Drift(self.slug, where, what))

    def compare(self, real_node: Any, ours_node: Any, where: str) -> None:
        real, real_null = _split(real_node, self.real_root)
        ours, ours_null = _split(ours_node, self.ours_root)
        if self.null and real_null != ours_null:
            self.add(where, f"null {'allowed' if real_null else 'refused'} by Composio, not by the sandbox")
        if "anyOf" in real or "anyOf" in ours:
            self.unions(real, ours, where)
            return
        if _kind(real) != _kind(ours) and _kind(real) != "any":
            self.add(where, f"type {_kind(real)} in Composio, {_kind(ours)} in the sandbox")
            return
        self.facts(real, ours, where)
        if _kind(real) == "object" or "properties" in real:
            self.objects(real, ours, where)
        if _kind(real) == "array" and "items" in real:
            self.compare(real["items"], ours.get("items", {}), f"{where}[]")

    def facts(self, real: Schema, ours: Schema, where: str) -> None:
        keys = [k for k in COMPARED if k in real]
        if real.get("default") is not None:  # a default of null is what leaving it out means
            keys.insert(0, "default")
        for key in keys:
            if real[key] != ours.get(key):
                theirs, mine = _show(real[key]), _show(ours.get(key))
                self.add(where, f"{key} {theirs} in Composio, {mine} in the sandbox")

    def objects(self, real: Schema, ours: Schema, where: str) -> None:
        real_props, ours_props = real.get("properties") or {}, ours.get("properties") or {}
        prefix = f"{where}." if where else ""
        for name in sorted(set(real_props) - set(ours_props)):
            self.add(f"{prefix}{name}", "in Composio, missing in the sandbox")
        for name in sorted(set(ours_props) - set(real_props)):
            self.add(f"{prefix}{name}", "in the sandbox, not in Composio")
        real_req, ours_req = set(real.get("required") or []), set(ours.get("required") or [])
        for name in sorted(real_req - ours_req):
            self.add(f"{prefix}{name}", "required by Composio, optional in the sandbox")
        for name in sorted(ours_req - real_req):
            self.add(f"{prefix}{name}", "required by the sandbox, optional in Composio")
        for name in sorted(set(real_props) & set(ours_props)):
            self.compare(real_props[name], ours_props[name], f"{prefix}{name}")

    def unions(self, real: Schema, ours: Schema, where: str) -> None:
        real_vs = [_resolve(v, self.real_root) for v in _variants(real)] or [real]
        ours_vs = [_resolve(v, self.ours_root) for v in _variants(ours)] or [ours]
        ours_by = {_label(v): v for v in ours_vs}
        for variant in real_vs:
            label = _label(variant)
            if label not in ours_by:
                self.add(where, f"variant {{{label}}} in Composio, missing in the sandbox")
                continue
            self.compare(variant, ours_by.pop(label), f"{where}<{label}>")
        for label in sorted(ours_by):
            self.add(where, f"variant {{{label}}} in the sandbox, not in Composio")


def states_null(schema: Schema) -> bool:
    """Whether a tool's schema says anything of null for its parameters (Composio's served schemas
    do, for the ones that take it; a schema transcribed from a docs page never does)."""

    def mentions(node: Any) -> bool:
        kind = node.get("type") if isinstance(node, dict) else None
        if kind == "null" or (isinstance(kind, list) and "null" in kind):
            return True
        return isinstance(node, dict) and any(
            mentions(v) for v in node.get("anyOf") or node.get("oneOf") or []
        )

    return any(mentions(p) for p in (schema.get("properties") or {}).values())


def diff(slug: str, real: Schema, ours: Schema, null: bool = True) -> list[Drift]:
    """Every difference between Composio's input schema for a tool (`real`) and the sandbox's.
    `null=False` for a schema transcribed from a docs page, which says nothing of null: whether a
    parameter may be null is then not compared."""
    differ = _Differ(slug, real, ours, null)
    differ.compare(real, ours, "")
    return differ.found


def shape(value: Any, where: str = "", out: dict[str, set[str]] | None = None) -> dict[str, set[str]]:
    """Every path in a JSON value (list items collapsed to `[]`) with the JSON types seen there."""
    out = defaultdict(set) if out is None else out
    names = {dict: "object", list: "array", str: "string", bool: "boolean", int: "integer", float: "number"}
    out[where].add(names.get(type(value), "null"))
    if isinstance(value, dict):
        for key, sub in value.items():
            shape(sub, f"{where}.{key}", out)
    elif isinstance(value, list):
        for item in value:
            shape(item, f"{where}[]", out)
    return out


def output_gaps(sandbox: Any, real: Any) -> list[str]:
    """Paths (and types) the sandbox's result has that the real one lacks; null matches any type,
    and an integer is a number."""
    ours, theirs = shape(sandbox), shape(real)

    def kinds(types: set[str]) -> set[str]:
        return {"number" if t == "integer" else t for t in types} - {"null"}

    out = []
    for path, types in sorted(ours.items()):
        if path not in theirs:
            out.append(f"{path}: missing live")
        elif kinds(types) and kinds(theirs[path]) and not kinds(types) & kinds(theirs[path]):
            out.append(f"{path}: {sorted(types)} in the sandbox, {sorted(theirs[path])} live")
    return out
