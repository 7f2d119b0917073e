"""A pull request's two halves: the agent under test (taken from its head) and the ruler (never).

On a PR the eval definition (the harness in `evals/`, scenarios, rubrics, checks, judge prompts,
labels, baseline and the gate settings in `evals.yaml`) comes from the base commit the workflow runs
from; only the agent under test comes from the PR's head, at the exact head SHA that was labelled:
`agent/`, and for a `module:callable` agent the module it names. A PR that edits the definition is
still evaluated with the base's: its edits are listed at the top of the report ("not used for this
verdict; bless after merge"), so a careless PR cannot "refresh" the baseline, the threshold or a
check together with the change the gate is judging.

`evals github take-agent --head DIR` replaces the base checkout's agent under test with the head's
(`take_agent`); `definition_changes` lists what the head would change in the definition, for the
report (evals/github/pr_gate.py).
"""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

from evals.core.errors import BadInputError

AGENT_DIR = "agent"
# What measures, as opposed to what is measured: a PR's edits here are listed, never used.
DEFINITION_PATHS = (
    "evals",
    "scenario",
    "baseline",
    "evals.yaml",
    "pricing.yaml",
    "scripts",
    ".github/workflows",
    "requirements.txt",
)
IGNORED_PARTS = {"__pycache__", ".mypy_cache", ".pytest_cache", ".ruff_cache"}


# --- the agent under test ----------------------------------------------------------------------


def agent_paths(spec: str) -> list[str]:
    """What the agent under test is, as paths: `agent/`, plus a module agent's own module."""
    paths = [AGENT_DIR]
    if ":" in spec and not spec.startswith("replay:"):
        module = spec.split(":", 1)[0]
        if not module or not all(part.isidentifier() for part in module.split(".")):
            raise BadInputError(f"agent {spec!r}: not a module:callable spec")
        paths.append(module.replace(".", "/"))
    return paths


def _no_links(root: Path, path: Path) -> None:
    """Head files are data: a symlink could point the copy outside the head checkout."""
    for item in [path, *path.rglob("*")] if path.is_dir() else [path]:
        if item.is_symlink():
            raise BadInputError(f"{item.relative_to(root)}: symlinks are not taken from a PR head")


def take_agent(base: Path, head: Path, spec: str) -> list[str]:
    """Replace the agent under test in `base` by the head's; return the paths taken."""
    taken = []
    for rel in agent_paths(spec):
        candidates = [rel] if rel == AGENT_DIR else [f"{rel}.py", rel]
        for name in candidates:
            source, target = head / name, base / name
            if source.is_symlink():  # even a dangling one: it must not delete the base's agent
                raise BadInputError(f"{name}: symlinks are not taken from a PR head")
            if not source.exists() and not target.exists():
                continue
            if source.exists():
                _no_links(head, source)
            if target.is_dir():
                shutil.rmtree(target)
            elif target.exists():
                target.unlink()
            if source.is_dir():
                shutil.copytree(source, target, ignore=shutil.ignore_patterns(*IGNORED_PARTS))
            elif source.is_file():
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(source, target)
            taken.append(name)
    return taken


# --- what the PR would change in the definition ----------------------------------------------


def _files(root: Path) -> dict[str, str]:
    out = {}
    for top in DEFINITION_PATHS:
        start = root / top
        paths = [start] if start.is_file() else sorted(start.rglob("*")) if start.is_dir() else []
        for path in paths:
            rel = path.relative_to(root)
            if IGNORED_PARTS.intersection(rel.parts) or not path.is_file() or path.suffix == ".pyc":
                continue
            out[rel.as_posix()] = hashlib.sha256(path.read_bytes()).hexdigest()
    return out


def definition_changes(base: Path, head: Path) -> list[str]:
    """Definition files the head adds, removes or edits relative to the base (compared as data)."""
    a, b = _files(base), _files(head)
    return sorted(f for f in set(a) | set(b) if a.get(f) != b.get(f))
