"""Where this package comes from: the GitHub repository and commit `evals init` pins the scaffolded
workflows to, so that a plain `evals init` needs no flag a newcomer cannot know.

In order: pip's record of a `pip install git+https://github.com/OWNER/REPO@SHA` (PEP 610
direct_url.json); the wheel's evals/_build.json, written by setup.py at build time (GITHUB_REPOSITORY
and GITHUB_SHA in Actions, else the checkout's `origin` remote and HEAD); the git checkout an editable
install runs from. `--gate` (or EVALS_GATE_REF) overrides all three. What none of them knows is
`None`, and `evals init` then says exactly what to pass.
"""

from __future__ import annotations

import json
import re
import subprocess
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

import evals

DISTRIBUTION = "agent-evals-gate"
BUILD_FILE = "_build.json"
SLUG = re.compile(r"github\.com[:/]([\w.-]+/[\w.-]+?)(?:\.git)?/?$")
SHA = re.compile(r"[0-9a-f]{40}")


@dataclass(frozen=True)
class Origin:
    """What is known of where the package comes from: each part None when unknown."""

    repository: str | None
    commit: str | None
    source: str  # where it was read, for the message when it is not enough

    @property
    def complete(self) -> bool:
        return self.repository is not None and self.commit is not None


def _checked(repo: object, sha: object, source: str) -> Origin:
    ok_repo = isinstance(repo, str) and re.fullmatch(r"[\w.-]+/[\w.-]+", repo)
    ok_sha = isinstance(sha, str) and SHA.fullmatch(sha)
    return Origin(repo if ok_repo else None, sha if ok_sha else None, source)  # type: ignore[arg-type]


def pip_origin() -> Origin | None:
    """pip's PEP 610 record of an install from a GitHub commit, else None."""
    try:
        text = metadata.distribution(DISTRIBUTION).read_text("direct_url.json")
    except metadata.PackageNotFoundError:
        return None
    data = json.loads(text) if text else {}
    found = SLUG.search(data.get("url", "")) if data.get("vcs_info") else None
    if not found:
        return None
    return _checked(found[1], data["vcs_info"].get("commit_id"), "pip's direct_url.json")


def build_origin(package: Path | None = None) -> Origin | None:
    """The wheel's record of its build (evals/_build.json), else None (a source checkout has none)."""
    path = (package or Path(evals.__file__).resolve().parent) / BUILD_FILE
    if not path.is_file():
        return None
    data = json.loads(path.read_text(encoding="utf-8"))
    return _checked(
        data.get("repository"), data.get("commit"), f"{path.name}, written when the wheel was built"
    )


def _git(folder: Path, *args: str) -> str:
    try:
        done = subprocess.run(["git", "-C", str(folder), *args], capture_output=True, text=True, check=False)
    except OSError:
        return ""
    return done.stdout.strip() if done.returncode == 0 else ""


def checkout_origin(source: Path | None = None) -> Origin | None:
    """The git checkout an editable install runs from: its `origin` remote and HEAD, else None."""
    folder = source or Path(evals.__file__).resolve().parent.parent
    if not (folder / "pyproject.toml").is_file() or not _git(folder, "rev-parse", "--git-dir"):
        return None
    found = SLUG.search(_git(folder, "remote", "get-url", "origin"))
    return _checked(
        found[1] if found else None, _git(folder, "rev-parse", "HEAD"), f"the git checkout {folder}"
    )


def origin() -> Origin | None:
    """The first complete origin, else the first partial one (its commit helps the message), else None."""
    found = [o for o in (pip_origin(), build_origin(), checkout_origin()) if o is not None]
    return next((o for o in found if o.complete), found[0] if found else None)


def unknown_message(partial: Origin | None) -> str:
    """What `evals init` says when it cannot tell which gate to pin: exactly what to pass."""
    if partial is not None and partial.commit and not partial.repository:
        return (
            "which repository should the workflows call? this package was built from commit "
            f"{partial.commit} ({partial.source}) of a repository it cannot name: "
            f"pass --gate OWNER/REPO@{partial.commit}, "
            "OWNER/REPO being the GitHub repository you installed it from"
        )
    return (
        "which gate should the workflows call? this package does not record where it was built from: pass "
        "--gate OWNER/REPO@SHA, the GitHub repository you installed it from and the full 40-character "
        'commit SHA (or install it with `pip install "agent-evals-gate @ git+https://github.com/OWNER/REPO@SHA"`)'
    )
