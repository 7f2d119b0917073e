"""Build hook: the wheel carries `evals init`'s starter files under evals/_starter/.

They are this project's own files (pyproject.toml `[tool.evals-starter]` lists them), copied at
build time so the repository keeps one copy of each; a source checkout reads them in place.
Everything else about the package is in pyproject.toml.
"""

from __future__ import annotations

import shutil
import tomllib
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent


class BuildWithStarter(build_py):  # type: ignore[misc]
    """build_py, then the starter files into build_lib/evals/_starter/ (same relative paths)."""

    def run(self) -> None:
        super().run()
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
