"""Fingerprint of the eval definition: everything that moves a score.

Scenario data, rubric, judge prompts, judge model, the human labels the offline judge answers
from, and the grader's own code: the modules that define the checks and evidence extractors a
scenario's rubric names (resolved through the registry, so it does not matter which file or
package a check lives in), what they import from the grader, the probe scripts they run, and
the grading core (grader, evidence, registry, judge). A baseline records it; when it differs,
comparing totals would measure the ruler, not the agent, so the gate says `not-comparable` and
names what changed. Replays are excluded: they are ways of running the definition, not part of it.

A baseline blessed before an entry existed (no `grader`, no `labels`) is compared on the entries
both sides have, so upgrading the harness does not make every old baseline `not-comparable`.
"""

from __future__ import annotations

import functools
import importlib.util
import inspect
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from types import ModuleType
from typing import Any

from evals.core.jsonio import sha256_text
from evals.grade.registry import Registry
from evals.grade.rubric import Rubric
from evals.scenario.folder import ScenarioFolder
from evals.scenario.model import Scenario

EXCLUDED_DIRS = {ScenarioFolder.REPLAYS, "__pycache__"}
LABELS_FILE = ScenarioFolder.LABELS
# labels.yaml is fingerprinted on its own line (`labels`), not as scenario data; a scenario's
# README is its documentation (a data dictionary for people) and about.yaml its purpose and traps:
# neither grades.
EXCLUDED_FILES = {LABELS_FILE, ScenarioFolder.README, ScenarioFolder.ABOUT}
# The labelled set (`labels/*.jsonl`, top level only) measures the judge and grades nothing: a new
# reviewer's label must not make every run not comparable.
EXCLUDED_TOP_DIRS = {ScenarioFolder.LABELLED}
PROJECT = Path(__file__).resolve().parents[2]  # the checkout: evals/gate/fingerprint.py
# The grading core every scenario runs through, whatever its rubric names.
CORE_MODULES = ("evals.grade.grader", "evals.grade.evidence", "evals.grade.registry", "evals.grade.result")
CORE_PACKAGES = ("evals.grade.judge",)
# Imports followed from a check module: the grader's own code, never the whole harness.
FOLLOWED_PREFIX = "evals.grade"
PROBES_PACKAGE = ScenarioFolder.PROBES  # a package of probe scripts and stubs: every file in it counts


def _hash_file(path: Path) -> str:
    return sha256_text(path.read_bytes().decode("utf-8", errors="replace"))


@functools.cache
def _resolved(path: Path) -> Path:
    """`path.resolve()`, once per process: the 27 tasks of the full suite follow the same grader
    modules, and resolving their paths again (a `stat` per component) was most of the fingerprint's
    time. Where a file resolves to does not change while a process runs; its content may, and is
    hashed afresh every time."""
    return path.resolve()


def _key(path: Path) -> str:
    """The name a grader file is listed under: its path in the project, else its absolute path."""
    resolved = _resolved(path)
    return resolved.relative_to(PROJECT).as_posix() if resolved.is_relative_to(PROJECT) else str(resolved)


def _module_file(module: ModuleType) -> Path | None:
    source = getattr(module, "__file__", None)
    return Path(source) if source else None


def _source_file(name: str) -> Path | None:
    """The file module `name` is loaded from, without importing it: `compare` fingerprints the
    grading core but never grades, and must hash the same files a run that graded did."""
    module = sys.modules.get(name)
    if module is not None:
        return _module_file(module)
    spec = importlib.util.find_spec(name)
    return Path(spec.origin) if spec is not None and spec.origin else None


def _imports(module: ModuleType) -> set[str]:
    """Modules `module` uses, read from its namespace at run time: imported modules, and the modules
    that define the functions and classes it imported (`from a import f` is `f.__module__`, the
    defining module, even through a re-exporting package). No source parsing: grading runs checks
    in threads, and CPython 3.11's `ast` is not safe to use from several threads at once."""
    out: set[str] = set()
    for value in vars(module).values():
        if isinstance(value, ModuleType):
            out.add(value.__name__)
        elif callable(value):
            owner = getattr(value, "__module__", None)
            if isinstance(owner, str) and owner != module.__name__:
                out.add(owner)
    return out


def _followed(name: str, start_prefixes: set[str]) -> bool:
    return any(name == p or name.startswith(p + ".") for p in start_prefixes)


def grader_files(
    registry: Registry,
    check_names: Iterable[str],
    evidence_names: Iterable[str],
    data_dir: Path | None = None,
) -> dict[str, str]:
    """{file: hash} of the grader code behind these checks and evidence extractors.

    Each name resolves through the rubric's registry to the module that defines it (the package's
    vocabulary, or the scenario's own `checks/`); from there the imports
    into the grader (`evals.grade.*`, or the defining module's own top-level package, e.g. a
    scenario's own checks) are followed. A followed package named `probes` counts whole: its probe
    scripts and stubs run as files, not imports. Files inside `data_dir` (a scenario's own checks
    and probes) are left out: they are hashed as scenario data, under names that do not depend on
    where the project is checked out.
    """
    functions: list[Callable[..., object]] = [registry.checks[n] for n in check_names if n in registry.checks]
    functions += [registry.evidence[n] for n in evidence_names if n in registry.evidence]
    start = [m for m in (inspect.getmodule(fn) for fn in functions) if m is not None]
    prefixes = {FOLLOWED_PREFIX} | {
        m.__name__.split(".")[0] for m in start if not m.__name__.startswith("evals.")
    }
    files: dict[str, Path] = {}
    for name in CORE_MODULES + CORE_PACKAGES:  # hashed, not followed: they import every check
        path = _source_file(name)
        if path is not None:
            found = path.parent.glob("*.py") if name in CORE_PACKAGES else [path]
            files.update({_key(p): p for p in found})
    seen: set[str] = set()
    queue = [m.__name__ for m in start]
    while queue:
        name = queue.pop()
        if name in seen or name not in sys.modules:
            continue
        seen.add(name)
        module = sys.modules[name]
        path = _module_file(module)
        if path is None:
            continue
        files[_key(path)] = path
        if path.name == "__init__.py" and path.parent.name == PROBES_PACKAGE:
            files.update(
                {_key(p): p for p in path.parent.rglob("*") if p.is_file() and "__pycache__" not in p.parts}
            )
            # its modules are imported where a probe first runs (the runner, lazily): import them
            # now, so what they import is followed whether or not a probe has run in this process
            for sub in sorted(p.stem for p in path.parent.glob("*.py") if p.name != "__init__.py"):
                queue.append(importlib.import_module(f"{name}.{sub}").__name__)
        queue.extend(n for n in _imports(module) if _followed(n, prefixes))
    inside = data_dir.resolve() if data_dir is not None else None
    return {
        key: _hash_file(files[key])
        for key in sorted(files)
        if inside is None or not _resolved(files[key]).is_relative_to(inside)
    }


def rubric_grader_files(rubric: Rubric, scenario_dir: Path | None = None) -> dict[str, str]:
    parts = [part for _, part in rubric.parts()]
    checks = {ref.check for part in parts for ref in part.checks}
    evidence = {part.judge.evidence for part in parts if part.judge is not None}
    return grader_files(rubric.registry, sorted(checks), sorted(evidence), scenario_dir)


def scenario_fingerprint(
    scenario_dir: Path, judge_prompts: list[str], rubric: Rubric | None = None
) -> dict[str, Any]:
    data: dict[str, str] = {}
    prompts: dict[str, str] = {}
    rubric_hash = ""
    for path in sorted(p for p in scenario_dir.rglob("*") if p.is_file()):
        rel = path.relative_to(scenario_dir).as_posix()
        parts = path.relative_to(scenario_dir).parts
        if EXCLUDED_DIRS.intersection(parts) or rel in EXCLUDED_FILES or parts[0] in EXCLUDED_TOP_DIRS:
            continue
        if rel == ScenarioFolder.RUBRIC:
            rubric_hash = _hash_file(path)
        elif rel in judge_prompts:
            prompts[rel] = _hash_file(path)
        else:
            data[rel] = _hash_file(path)
    labels = scenario_dir / LABELS_FILE
    out: dict[str, Any] = {
        "data": sha256_text("\n".join(f"{k}:{v}" for k, v in data.items())),
        "data_files": data,
        "rubric": rubric_hash,
        "judge_prompts": prompts,
        "labels": _hash_file(labels) if labels.is_file() else "",
    }
    if rubric is not None:
        out["grader"] = rubric_grader_files(rubric, scenario_dir)
    return out


ScenarioParts = tuple[Scenario, Path, list[str]] | tuple[Scenario, Path, list[str], Rubric]


def fingerprint(scenarios: dict[str, ScenarioParts], judge_model: str) -> dict[str, Any]:
    return {
        "judge_model": judge_model,
        "scenarios": {
            name: scenario_fingerprint(parts[1], parts[2], parts[3] if len(parts) > 3 else None)
            for name, parts in scenarios.items()
        },
    }


def _changed(a: dict[str, str], b: dict[str, str]) -> list[str]:
    return sorted(f for f in set(a) | set(b) if a.get(f) != b.get(f))


def differences(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    """Human-readable list of what changed between two fingerprints (empty: comparable).

    An entry only one side has (a baseline blessed before it was fingerprinted) is not a change.
    """
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
            files = _changed(a.get("data_files", {}), b.get("data_files", {}))
            out.append(f"{name}: scenario data changed ({', '.join(files[:5]) or 'files'})")
        if "labels" in a and "labels" in b and a["labels"] != b["labels"]:
            out.append(f"{name}: judge labels {LABELS_FILE} changed")
        if "grader" in a and "grader" in b and a["grader"] != b["grader"]:
            files = _changed(a["grader"], b["grader"])
            shown = ", ".join(files[:5]) + (f" and {len(files) - 5} more" if len(files) > 5 else "")
            out.append(f"{name}: grader code changed ({shown})")
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
