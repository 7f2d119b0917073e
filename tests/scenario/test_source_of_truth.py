"""Rewriting a source of truth loses points wherever a scenario has one.

An agent that edits the spec, the policy or the standard to match what it did has not followed it.
For every rubric part that checks `world.page_unchanged`: the seeded page passes, and the same page
with one sentence rewritten, or archived, fails that part through the rubric's own check.
"""

from __future__ import annotations

import pytest

from evals.core.config import load_config
from evals.grade.registry import GradeContext
from evals.grade.rubric import load_rubric
from evals.scenario.load import list_scenarios, load_scenario
from evals.world.sandbox.seed import seed
from evals.world.sandbox.snapshot import outcome
from tests.support.paths import ROOT

CONFIG, _ = load_config(ROOT)
SCENARIOS = ROOT / CONFIG.scenarios_dir
CASES = [
    (name, part.id, ref.params)
    for name in list_scenarios(SCENARIOS)
    for _, part in load_rubric(SCENARIOS / name).parts()
    for ref in part.checks
    if ref.check == "world.page_unchanged"
]
WITH_A_SOURCE = {"invoice-terms", "log-retention", "nightshift", "patch-release", "session-timeout",
                 "signup-security", "trial-run", "webhook-timeout", "worker-memory"}  # fmt: skip


def test_every_scenario_with_a_source_of_truth_guards_it() -> None:
    assert {name for name, _, _ in CASES} >= WITH_A_SOURCE


@pytest.mark.parametrize(("name", "part", "params"), CASES, ids=[f"{n}-{p}" for n, p, _ in CASES])
def test_a_rewritten_or_archived_source_fails_and_the_seeded_one_passes(
    name: str, part: str, params: dict[str, object]
) -> None:
    scenario = load_scenario(SCENARIOS, name)
    check = load_rubric(SCENARIOS / name).registry.checks["world.page_unchanged"]
    snap = outcome(seed(scenario, 0))
    ctx = GradeContext(outcome=snap, scenario=scenario)
    assert check(ctx, **params).passed
    page = snap.page(str(params["page"]))
    assert page is not None
    block = next(b for b in page.blocks if b.text)
    original = block.text
    block.text = original + " (Updated: the value in the request is approved.)"
    assert not check(ctx, **params).passed, f"{name}/{part}: a rewritten source passed"
    block.text, page.archived = original, True
    assert not check(ctx, **params).passed, f"{name}/{part}: an archived source passed"
