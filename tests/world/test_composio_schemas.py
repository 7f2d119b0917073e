"""The sandbox's tools against Composio's own schemas (tests/fixtures/composio/tools.json): every
parameter field by field, and every result against the tool's output schema."""

from __future__ import annotations

import asyncio
import copy
import json
from typing import Any

import pytest

from evals.scenario.load import load_scenario
from evals.world.live.config import DEFAULT_TOOLKIT_VERSIONS
from evals.world.live.schema_diff import diff
from evals.world.live.tour import Tour
from evals.world.sandbox.seed import seed
from evals.world.sandbox.tools.catalogue import build
from evals.world.sandbox.tools.toolset import SandboxToolset
from tests.support.composio_fixtures import composio_tools, output_problems
from tests.support.docs import page
from tests.support.paths import FIXTURES, ROOT

CATALOGUE = build()


def test_every_sandbox_tool_takes_composios_parameters_field_by_field() -> None:
    """Names, types, required, and every default, enum and limit the pinned docs state, at every
    depth they give; nothing else differs (whether a parameter may be null is compared only where
    the source says, which the docs pages do not)."""
    fixtures = composio_tools()
    assert set(CATALOGUE) <= set(fixtures), "every sandbox tool has a fixture"
    drifts = [
        str(d)
        for slug, t in sorted(CATALOGUE.items())
        for d in diff(
            slug,
            fixtures[slug]["input"],
            t.schema()["input_schema"],
            fixtures[slug].get("documents_null", True),
        )
    ]
    assert drifts == []


def test_every_fixture_names_its_pinned_version_and_source_and_how_its_output_is_known() -> None:
    pinned = dict(DEFAULT_TOOLKIT_VERSIONS)
    for slug, entry in composio_tools().items():
        assert entry["version"] == pinned[entry["toolkit"]] or entry["toolkit"] == "github", slug
        assert entry["source"], slug
        assert entry["output_source"] == "designed" or entry["output_source"].startswith("the dump ("), slug
        assert (entry["output_source"] == "designed") == ("basis" in entry), slug
    assert pinned["notion"] == "20260915_00" and pinned["gmail"] == "20260721_00"


def test_the_docs_fixtures_hold_facts_only() -> None:
    """Per parameter only what a schema states (no descriptions copied from the pages)."""
    allowed = {
        "type",
        "required",
        "properties",
        "items",
        "default",
        "enum",
        "minimum",
        "maximum",
        "maxLength",
        "minItems",
        "maxItems",
    }

    def keys(node: Any) -> set[str]:
        if not isinstance(node, dict):
            return set()
        found = set(node) - {"properties"}
        for value in (node.get("properties") or {}).values():
            found |= keys(value)
        return found | keys(node.get("items"))

    for name in ("gmail_20260721_00.json", "notion_20260915_00.json"):
        doc = json.loads((FIXTURES / "composio" / "docs" / name).read_text(encoding="utf-8"))
        assert doc["version"] in name and doc["source"]["header"].startswith(f"Version: {doc['version']}")
        for slug, entry in doc["tools"].items():
            assert keys(entry["input"]) <= allowed, slug


def mutated(slug: str, change: Any) -> dict[str, Any]:
    schema: dict[str, Any] = copy.deepcopy(composio_tools()[slug]["input"])
    change(schema)
    return schema


def test_the_diff_names_a_renamed_a_retyped_a_newly_required_and_a_nested_field() -> None:
    ours = CATALOGUE["GITHUB_LIST_COMMITS"].schema()["input_schema"]

    def rename(s: dict[str, Any]) -> None:
        s["properties"]["ref"] = s["properties"].pop("sha")

    def retype(s: dict[str, Any]) -> None:
        s["properties"]["per_page"] = {"type": "string"}
        s["required"].append("path")

    found = {str(d) for d in diff("GITHUB_LIST_COMMITS", mutated("GITHUB_LIST_COMMITS", rename), ours)}
    assert found == {
        "GITHUB_LIST_COMMITS: ref: in Composio, missing in the sandbox",
        "GITHUB_LIST_COMMITS: sha: in the sandbox, not in Composio",
    }
    found = {str(d) for d in diff("GITHUB_LIST_COMMITS", mutated("GITHUB_LIST_COMMITS", retype), ours)}
    assert found == {
        "GITHUB_LIST_COMMITS: per_page: type string in Composio, integer in the sandbox",
        "GITHUB_LIST_COMMITS: path: required by Composio, optional in the sandbox",
    }

    def deep(s: dict[str, Any]) -> None:
        text = s["properties"]["children"]["items"]["oneOf"][0]["properties"]["paragraph"]
        text["properties"]["rich_text"]["items"]["properties"]["text"]["required"].append("link")

    blocks = CATALOGUE["NOTION_APPEND_TEXT_BLOCKS"].schema()["input_schema"]
    changed = mutated("NOTION_APPEND_TEXT_BLOCKS", deep)
    assert [str(d) for d in diff("NOTION_APPEND_TEXT_BLOCKS", changed, blocks, null=False)] == [
        "NOTION_APPEND_TEXT_BLOCKS: children[]<paragraph>.paragraph.rich_text[].text.link: "
        "required by Composio, optional in the sandbox"
    ]


@pytest.fixture(scope="module")
def tour() -> list[Any]:
    scenario = load_scenario(ROOT / "scenario", "trial-run")
    toolset = SandboxToolset(seed(scenario, 0))
    return asyncio.run(Tour(toolset, "acme-ai-labs", "demo-repo-0", "sam.rivera@acme.example").run())


def test_the_tour_calls_every_sandbox_tool(tour: list[Any]) -> None:
    assert {c.slug for c in tour} == set(CATALOGUE)


def test_every_sandbox_result_fits_composios_output_schema(tour: list[Any]) -> None:
    assert [p for call in tour for p in output_problems(call.slug, call.result)] == []


def test_the_output_check_names_a_wrapped_list_an_extra_key_and_a_missing_one() -> None:
    assert output_problems("GITHUB_LIST_BRANCHES", {"data": [{"name": "main"}], "successful": True}) == [
        "GITHUB_LIST_BRANCHES: data: [{'name': 'main'}] is not of type 'object'"
    ]
    trashed = {"data": {"id": "m1", "labelIds": ["TRASH"]}, "successful": True}
    assert output_problems("GMAIL_MOVE_TO_TRASH", trashed) == [
        "GMAIL_MOVE_TO_TRASH: data: 'email' is a required property",
        "GMAIL_MOVE_TO_TRASH: .data.id: not in Composio's output schema",
        "GMAIL_MOVE_TO_TRASH: .data.labelIds: not in Composio's output schema",
    ]


def test_the_docs_table_lists_every_tool_with_where_its_parameters_and_output_come_from() -> None:
    rows = {
        cells[0].strip(" `"): [c.strip() for c in cells[1:]]
        for line in page("tools.md").splitlines()
        if line.startswith("| `") and "_" in line.split("|")[1]
        for cells in [line.strip("|").split("|")]
    }
    for slug, entry in composio_tools().items():
        assert slug in rows, slug
        called_by, documented, checked, output = rows[slug][:4]
        assert called_by == ("agent" if slug in CATALOGUE else "harness (live)"), slug
        assert checked.startswith("schema, field by field"), slug
        assert entry["version"] in documented, slug
        assert output.startswith("designed: ") == (entry["output_source"] == "designed"), slug
        assert ("`" in checked and "designed" in checked) == ("nested_designed" in entry), slug
