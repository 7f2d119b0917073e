"""Fingerprint of the eval definition: scenario data, rubric, judge prompts, judge model.

A baseline records it; when it differs, comparing totals would measure the ruler, not the agent, so
the gate says `not-comparable` and names what changed. Replays and human labels are excluded: they
are ways of running and judging the definition, not part of it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from evals.jsonio import sha256_text
from evals.scenario.model import Scenario

EXCLUDED_DIRS = {"replays", "__pycache__"}
EXCLUDED_FILES = {"labels.yaml"}


def _hash_file(path: Path) -> str:
    return sha256_text(path.read_bytes().decode("utf-8", errors="replace"))


def scenario_fingerprint(scenario_dir: Path, judge_prompts: list[str]) -> dict[str, Any]:
    data: dict[str, str] = {}
    prompts: dict[str, str] = {}
    rubric = ""
    for path in sorted(p for p in scenario_dir.rglob("*") if p.is_file()):
        rel = path.relative_to(scenario_dir).as_posix()
        if EXCLUDED_DIRS.intersection(path.relative_to(scenario_dir).parts) or rel in EXCLUDED_FILES:
            continue
        if rel == "rubric.yaml":
            rubric = _hash_file(path)
        elif rel in judge_prompts:
            prompts[rel] = _hash_file(path)
        else:
            data[rel] = _hash_file(path)
    return {
        "data": sha256_text("\n".join(f"{k}:{v}" for k, v in data.items())),
        "data_files": data,
        "rubric": rubric,
        "judge_prompts": prompts,
    }


def fingerprint(scenarios: dict[str, tuple[Scenario, Path, list[str]]], judge_model: str) -> dict[str, Any]:
    return {
        "judge_model": judge_model,
        "scenarios": {
            name: scenario_fingerprint(folder, prompts) for name, (_, folder, prompts) in scenarios.items()
        },
    }


def differences(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    """Human-readable list of what changed between two fingerprints (empty: comparable)."""
    out = []
    if old.get("judge_model") != new.get("judge_model"):
        out.append(f"judge model {old.get('judge_model')} -> {new.get('judge_model')}")
    old_s, new_s = old.get("scenarios", {}), new.get("scenarios", {})
    for name in sorted(set(old_s) & set(new_s)):
        a, b = old_s[name], new_s[name]
        if a.get("rubric") != b.get("rubric"):
            out.append(f"{name}: rubric.yaml changed")
        for prompt in sorted(set(a.get("judge_prompts", {})) | set(b.get("judge_prompts", {}))):
            if a.get("judge_prompts", {}).get(prompt) != b.get("judge_prompts", {}).get(prompt):
                out.append(f"{name}: judge prompt {prompt} changed")
        if a.get("data") != b.get("data"):
            files = sorted(
                f
                for f in set(a.get("data_files", {})) | set(b.get("data_files", {}))
                if a.get("data_files", {}).get(f) != b.get("data_files", {}).get(f)
            )
            out.append(f"{name}: scenario data changed ({', '.join(files[:5]) or 'files'})")
    return out


def agent_config_hash(agent_dir: Path) -> str:
    if not agent_dir.is_dir():
        return ""
    parts = [
        f"{p.relative_to(agent_dir).as_posix()}:{_hash_file(p)}"
        for p in sorted(agent_dir.rglob("*"))
        if p.is_file() and "__pycache__" not in p.parts
    ]
    return sha256_text("\n".join(parts))
