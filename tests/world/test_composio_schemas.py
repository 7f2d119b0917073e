"""The sandbox's tools against Composio's own schemas (tests/fixtures/composio/tools.json): every
parameter field by field, and every result against the tool's output schema."""

from __future__ import annotations

import asyncio
import copy
from typing import Any

import pytest

from evals.scenario.load import load_scenario
from evals.world.live.schema_diff import diff
from evals.world.sandbox.seed import seed
from evals.world.sandbox.tools.catalogue import build
from evals.world.sandbox.tools.toolset import SandboxToolset
from tests.support.composio_fixtures import composio_tools, output_problems
from tests.support.paths import ROOT
from tests.support.tool_tour import Tour

CATALOGUE = build()

NEWER_THAN_THE_DUMP = (
    "the public Gmail dump is toolkit version 0_1 (mid-2025); the pinned version 20260113_00 has this "
    "parameter (README, reference notes), so an agent written against it keeps working offline"
)
# (slug, where) -> why the sandbox differs from the committed fixture. Nothing else may differ.
EXCEPTIONS = {
    ("GMAIL_FETCH_EMAILS", "verbose"): NEWER_THAN_THE_DUMP,
    ("GMAIL_FETCH_EMAILS", "ids_only"): NEWER_THAN_THE_DUMP,
}


def test_every_sandbox_tool_takes_composios_parameters_field_by_field() -> None:
    fixtures = composio_tools()
    assert set(CATALOGUE) <= set(fixtures), "every sandbox tool has Composio's schema (or a designed one)"
    drifts = [
        d
        for slug, t in sorted(CATALOGUE.items())
        for d in diff(slug, fixtures[slug]["input"], t.schema()["input_schema"])
    ]
    assert [str(d) for d in drifts if (d.slug, d.where) not in EXCEPTIONS] == []
    assert {(d.slug, d.where) for d in drifts} == set(EXCEPTIONS), "every exception is still needed"
    unconfirmed = sorted(slug for slug in CATALOGUE if not CATALOGUE[slug].confirmed)
    assert unconfirmed == sorted(slug for slug in CATALOGUE if not fixtures[slug]["confirmed"])


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
    assert [
        str(d) for d in diff("NOTION_APPEND_TEXT_BLOCKS", mutated("NOTION_APPEND_TEXT_BLOCKS", deep), blocks)
    ] == [
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
