"""The project's documentation as the tests read it: README.md (what it is, the quickstart, the two
commands, the exit codes, adopting it, "Where does it go?") and the docs/ pages that hold the rest
(mkdocs.yml lists them). A test that holds the documentation to the code reads the page its text
lives on, or all of it where the text may sit anywhere (every command shown, every script named)."""

from __future__ import annotations

from pathlib import Path

from tests.support.paths import ROOT

README = ROOT / "README.md"
DOCS = ROOT / "docs"


def readme() -> str:
    return README.read_text(encoding="utf-8")


def page(name: str) -> str:
    """One docs/ page, e.g. `page("gate.md")`."""
    return (DOCS / name).read_text(encoding="utf-8")


def pages() -> list[Path]:
    return sorted(DOCS.glob("*.md"))


def documentation() -> str:
    """README.md and every docs/ page, one after the other."""
    return "\n\n".join([readme(), *(path.read_text(encoding="utf-8") for path in pages())])
