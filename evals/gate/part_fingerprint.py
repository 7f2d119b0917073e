"""Comparability part by part: one edited judge prompt should not stop the whole gate.

Besides the scenario-wide fingerprint (evals/gate/fingerprint.py), each scenario records one hash per
rubric part: the part's own definition (checks and their parameters, the parts it requires, its
judge reference, points, description; not the `guard` flag, which changes how it is gated, not how
it is scored), the judge prompt file it uses, and the human labels written for it; and one hash of
the rest of the rubric (criteria, categories, thresholds, which parts exist).

When the two sides differ only in some parts, those parts are left out of the comparison on both
sides and named; the run is `not-comparable` only when they carry more than
`gate.max_changed_percent` of a scenario's points, or when something every part depends on changed
(scenario data, the judge model, the rest of the rubric). A baseline blessed before part hashes
existed is compared as before: any difference is `not-comparable`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from evals.core.jsonio import sha256_text
from evals.core.loading import read_data
from evals.gate.fingerprint import differences
from evals.grade.rubric import Rubric
from evals.scenario.folder import ScenarioFolder

PARTS_KEY = "parts"
REST_KEY = "rubric_rest"
# Entries the part hashes stand in for; any other entry of a scenario's fingerprint (its data, and
# whatever else the fingerprint grows, e.g. grader code) is scenario-wide: a change stops comparison.
PER_PART = {"rubric", "judge_prompts", "labels", "data_files", PARTS_KEY, REST_KEY}


def _labels_by_part(folder: Path) -> dict[str, list[Any]]:
    path = ScenarioFolder(folder).labels
    if not path.is_file():
        return {}
    data = read_data(path) or {}
    out: dict[str, list[Any]] = {}
    for label in data.get("labels", []) if isinstance(data, dict) else []:
        if isinstance(label, dict):
            out.setdefault(str(label.get("part")), []).append(label)
    return out


def _hash(value: object) -> str:
    return sha256_text(json.dumps(value, sort_keys=True, default=str))


def part_fingerprints(rubric: Rubric, folder: Path) -> dict[str, Any]:
    """{"parts": {id: {"points": n, "hash": h}}, "rubric_rest": h} for one scenario."""
    labels = _labels_by_part(folder)
    parts: dict[str, Any] = {}
    for _, part in rubric.parts():
        prompt = ""
        if part.judge is not None and (folder / part.judge.prompt).is_file():
            prompt = sha256_text((folder / part.judge.prompt).read_text(encoding="utf-8", errors="replace"))
        body = part.model_dump(mode="json", by_alias=True, exclude={"guard"})
        parts[part.id] = {"points": part.points, "hash": _hash([body, prompt, labels.get(part.id, [])])}
    rest = rubric.model_dump(mode="json", by_alias=True, exclude={"criteria"})
    rest["criteria"] = [
        {**c.model_dump(mode="json", exclude={"parts"}), "parts": [p.id for p in c.parts]}
        for c in rubric.criteria
    ]
    return {PARTS_KEY: parts, REST_KEY: _hash(rest)}


def _scenario_wide(name: str, a: dict[str, Any], b: dict[str, Any]) -> list[str]:
    out = []
    for key in sorted((set(a) | set(b)) - PER_PART):
        if a.get(key) == b.get(key):
            continue
        if key == "data":
            out += differences({"scenarios": {name: a}}, {"scenarios": {name: b}})[-1:]
        else:
            out.append(f"{name}: {key} changed")
    return out


@dataclass
class Comparability:
    """What the fingerprints allow: `blocking` differences make the run not-comparable; `changed`
    parts (per scenario) are left out on both sides and named in `notices`."""

    blocking: list[str] = field(default_factory=list)
    changed: dict[str, list[str]] = field(default_factory=dict)
    notices: list[str] = field(default_factory=list)


def _scenario_only(fp: dict[str, Any], name: str, keep: tuple[str, ...]) -> dict[str, Any]:
    entry = fp.get("scenarios", {}).get(name, {})
    return {"scenarios": {name: {k: entry.get(k) for k in keep}}}


def comparability(
    old: dict[str, Any], new: dict[str, Any], max_points: dict[str, int], max_changed_percent: float
) -> Comparability:
    out = Comparability()
    if old.get("judge_model") != new.get("judge_model"):
        out.blocking.append(f"judge model {old.get('judge_model')} -> {new.get('judge_model')}")
    old_s, new_s = old.get("scenarios", {}), new.get("scenarios", {})
    for name in sorted(set(old_s) & set(new_s)):
        a, b = old_s[name], new_s[name]
        if PARTS_KEY not in a or PARTS_KEY not in b:  # an older baseline: the whole scenario or nothing
            out.blocking += differences(
                _scenario_only(old, name, tuple(a)), _scenario_only(new, name, tuple(a))
            )
            continue
        out.blocking += _scenario_wide(name, a, b)
        if a.get(REST_KEY) != b.get(REST_KEY):
            out.blocking.append(
                f"{name}: rubric.yaml changed outside its parts (criteria, categories or thresholds)"
            )
        pa, pb = a[PARTS_KEY], b[PARTS_KEY]
        changed = [p for p in pb if pa.get(p, {}).get("hash") != pb[p]["hash"]]
        if not changed:
            continue
        points = sum(pb[p]["points"] for p in changed)
        total = max_points.get(name) or sum(v["points"] for v in pb.values())
        share = 100 * points / total if total else 100.0
        listed = ", ".join(changed)
        if share > max_changed_percent:
            out.blocking.append(
                f"{name}: parts changed since the baseline ({listed}): {points} of {total} points, "
                f"more than gate.max_changed_percent ({max_changed_percent:g}%)"
            )
        else:
            out.changed[name] = changed
            out.notices.append(
                f"{name}: changed since the baseline (checks, judge prompt or labels): {listed} "
                f"({points} of {total} points); left out of the comparison on both sides until a new "
                f"baseline is blessed"
            )
    return out
