"""The fidelity table (evals/world/fidelity.py, shown in docs/tools.md): a row for every tool, its
sources the same as the committed Composio fixtures say, and the docs showing exactly the table."""

from __future__ import annotations

from evals.world.fidelity import TABLE, markdown
from evals.world.sandbox.tools.catalogue import build
from tests.support.composio_fixtures import composio_tools
from tests.support.paths import ROOT


def test_every_tool_has_exactly_one_row() -> None:
    slugs = [row.slug for row in TABLE]
    assert len(slugs) == len(set(slugs))
    assert set(slugs) == set(composio_tools()) and set(build()) <= set(slugs)
    assert {r.slug for r in TABLE if r.called_by == "agent"} == set(build())


def test_each_row_names_the_version_and_output_source_the_fixtures_hold() -> None:
    fixtures = composio_tools()
    for row in TABLE:
        entry = fixtures[row.slug]
        assert entry["version"] in row.documented, row.slug
        designed = entry["output_source"] == "designed"
        assert row.output.startswith("designed") is designed, row.slug
        assert row.input and row.differences, row.slug


def test_the_docs_show_the_table_as_it_is() -> None:
    assert markdown() in (ROOT / "docs" / "tools.md").read_text(encoding="utf-8")
