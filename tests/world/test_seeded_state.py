"""What the backend seeded travels on the outcome, and checks read it from there.

`GradeContext.seeded` used to rebuild the sandbox world to know what was seeded, which is wrong for
a live run (its seeded pages are real Notion blocks). Each backend now records what it seeded on
the outcome it snapshots; outcomes written before that still load and fall back to re-seeding.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

import evals.world.sandbox.seed as seeding
from evals.grade.registry import GradeContext
from evals.scenario.load import load_scenario
from evals.scenario.model import Scenario
from evals.world.outcome import Outcome
from evals.world.sandbox.environment import SandboxBackend, SandboxEnvironment
from evals.world.sandbox.seed import seed
from evals.world.sandbox.snapshot import outcome
from tests.support.paths import ROOT

NOT_A_SEED_FIELD = {"repos": {"__all__": {"branches"}}}  # the seed commit's sha is not recorded


@pytest.fixture(scope="module")
def scenario() -> Scenario:
    return load_scenario(ROOT / "scenario", "nightshift")


def edited_trial(scenario: Scenario) -> tuple[SandboxEnvironment, Outcome]:
    """A sandbox trial in which the agent rewrote the first block of the first page."""
    env = asyncio.run(SandboxBackend().create(scenario, 0, "run"))
    env.world.notion.pages[0].blocks[0].text = "rewritten by the agent"
    return env, asyncio.run(env.snapshot())


def test_the_sandbox_records_the_pages_as_seeded_not_as_the_agent_left_them(scenario: Scenario) -> None:
    _, snap = edited_trial(scenario)
    assert snap.seeded is not None
    assert snap.pages[0].blocks[0].text == "rewritten by the agent"
    assert snap.seeded.pages[0].blocks[0].text == scenario.pages[0].blocks[0].text != ""


def test_checks_read_the_seeded_state_from_the_outcome_without_seeding_a_world(
    scenario: Scenario, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, snap = edited_trial(scenario)

    def no_seeding(*args: Any) -> None:
        raise AssertionError("the grader seeded a sandbox world")

    monkeypatch.setattr(seeding, "seed", no_seeding)
    seeded = GradeContext(outcome=snap, scenario=scenario).seeded
    assert seeded.pages[0].blocks[0].text == scenario.pages[0].blocks[0].text
    assert seeded.repos[0].main_files == snap.repos[0].seed_files == scenario.files
    assert seeded.repos[0].pulls == [] and seeded.sent == []


def test_the_recorded_state_is_what_seeding_the_sandbox_again_gives(scenario: Scenario) -> None:
    _, snap = edited_trial(scenario)
    recorded = GradeContext(outcome=snap, scenario=scenario).seeded
    again = outcome(seed(scenario, 0))
    assert recorded.model_dump(exclude=NOT_A_SEED_FIELD) == again.model_dump(exclude=NOT_A_SEED_FIELD)


def test_an_outcome_file_from_before_the_record_loads_and_falls_back_to_seeding_the_sandbox(
    scenario: Scenario,
) -> None:
    _, snap = edited_trial(scenario)
    data = snap.model_dump(mode="json")
    del data["seeded"]
    old = Outcome.model_validate_json(json.dumps(data))
    assert old.seeded is None and old.as_seeded() is None
    assert GradeContext(outcome=old, scenario=scenario).seeded == outcome(seed(scenario, 0))
