"""Build hook: the wheel carries `evals init`'s starter files under evals/_starter/, and where it
was built from in evals/_build.json.

The starter files are this project's own (pyproject.toml `[tool.evals-starter]` lists them), copied at
build time so the repository keeps one copy of each; a source checkout reads them in place.
evals/_build.json records the GitHub repository and commit the wheel was built from (GITHUB_REPOSITORY
and GITHUB_SHA in Actions, else the checkout's `origin` remote and HEAD), so `evals init` can pin the
scaffolded workflows to them with no flag (evals/authoring/provenance.py reads it). Everything else
about the package is in pyproject.toml.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import tomllib
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
SLUG = re.compile(r"github\.com[:/]([\w.-]+/[\w.-]+?)(?:\.git)?/?$")


def _git(*args: str) -> str:
    try:
        done = subprocess.run(["git", "-C", str(ROOT), *args], capture_output=True, text=True, check=False)
    except OSError:
        return ""
    return done.stdout.strip() if done.returncode == 0 else ""


def provenance() -> dict[str, str | None]:
    """The GitHub repository (`owner/name`) and full commit this build comes from, each None when
    unknowable (a copy of the source without .git and outside Actions)."""
    repo = os.environ.get("GITHUB_REPOSITORY", "").strip()
    if not repo:
        found = SLUG.search(_git("remote", "get-url", "origin"))
        repo = found[1] if found else ""
    sha = os.environ.get("GITHUB_SHA", "").strip() or _git("rev-parse", "HEAD")
    return {
        "repository": repo if re.fullmatch(r"[\w.-]+/[\w.-]+", repo) else None,
        "commit": sha if re.fullmatch(r"[0-9a-f]{40}", sha) else None,
    }


class BuildWithStarter(build_py):  # type: ignore[misc]
    """build_py, then evals/_build.json and the starter files into build_lib/evals/_starter/ (same
    relative paths)."""

    def run(self) -> None:
        super().run()
        built = Path(self.build_lib) / "evals" / "_build.json"
        built.write_text(json.dumps(provenance(), indent=2) + "\n", encoding="utf-8")
        table = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["evals-starter"]
        target = Path(self.build_lib) / "evals" / "_starter"
        if target.exists():
            shutil.rmtree(target)
        skip = shutil.ignore_patterns("__pycache__", "*.pyc")
        for rel in [*table["paths"], *(f"scenario/{name}" for name in table["scenarios"])]:
            source = ROOT / rel
            if not source.exists():
                raise FileNotFoundError(f"[tool.evals-starter] names {rel}, which does not exist")
            dest = target / rel
            dest.parent.mkdir(parents=True, exist_ok=True)
            if source.is_dir():
                shutil.copytree(source, dest, ignore=skip)
            else:
                shutil.copy2(source, dest)


setup(cmdclass={"build_py": BuildWithStarter})
