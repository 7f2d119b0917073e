"""The documentation holds together: README.md stays short and points at every docs/ page, every page
is in mkdocs.yml's nav, and `mkdocs build --strict` passes (a link to a page or an anchor that does not
exist, or a page left out of the nav, is a warning, and --strict makes any warning fail)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import yaml

from tests.support.docs import DOCS, pages, readme
from tests.support.paths import ROOT


def nav_files(entries: Any) -> list[str]:
    """The page files a nav names, however deep its sections go."""
    if isinstance(entries, str):
        return [entries]
    if isinstance(entries, list):
        return [name for entry in entries for name in nav_files(entry)]
    if isinstance(entries, dict):
        return [name for value in entries.values() for name in nav_files(value)]
    return []


def test_the_docs_build_strict(tmp_path: Path) -> None:
    config, site = str(ROOT / "mkdocs.yml"), str(tmp_path / "site")
    built = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--config-file", config, "--site-dir", site],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert built.returncode == 0, built.stdout + built.stderr
    assert (tmp_path / "site" / "index.html").is_file()


def test_the_readme_is_under_400_lines() -> None:
    assert len(readme().splitlines()) < 400


def test_every_page_is_in_the_nav_and_the_nav_names_only_pages() -> None:
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    assert config["docs_dir"] == "docs" and config["theme"]["name"] in ("mkdocs", "readthedocs")
    listed = nav_files(config["nav"])
    assert len(listed) == len(set(listed)), listed
    assert sorted(listed) == sorted(path.name for path in pages())
    assert len(pages()) >= 10 and all(path.parent == DOCS for path in pages())


def test_the_readme_maps_every_page() -> None:
    linked = set(re.findall(r"\]\(docs/([\w-]+\.md)(?:#[\w-]*)?\)", readme()))
    assert sorted(linked) == sorted(path.name for path in pages())


def test_where_does_it_go_is_in_the_readme_and_linked_from_its_first_screen() -> None:
    text = readme()
    first_screen = text.split("\n## ", 1)[0]
    assert "](#where-does-it-go)" in first_screen and "](#documentation)" in first_screen
    where = text.split("\n## Where does it go?\n", 1)[1].split("\n## ", 1)[0]
    assert len(re.findall(r"^\| ", where, flags=re.MULTILINE)) >= 9  # the header and a row per kind
