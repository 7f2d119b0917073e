"""Judged evidence is normalised before hashing: text differing only in clock, shas, ids or the
per-trial repo name keeps its hash (so its label and cache entry)."""

from __future__ import annotations

import yaml

from evals.grade.evidence import evidence_hash, prepare
from evals.scenario.load import load_scenario
from evals.scenario.params import instance_zero
from evals.world.sandbox.seed import seed
from evals.world.sandbox.snapshot import outcome
from tests.support.paths import ROOT


def test_timestamps_shas_ids_and_trial_names_do_not_change_the_hash() -> None:
    scenario = load_scenario(ROOT / "scenario", "nightshift")
    first, second = outcome(seed(scenario, 0)), outcome(seed(scenario, 3))
    repo_a, repo_b = first.repos[0].full_name, second.repos[0].full_name
    assert repo_a != repo_b
    a = (
        f"| 2025-07-14T03:12:00Z | PR opened on {repo_a} ({repo_a.split('/')[-1]}) at "
        "3f2a9c1b7e4d8a6f5c3b9e2d7a4f1c8b0e9d6a5f, job 123e4567-e89b-12d3-a456-426614174000 |"
    )
    b = (
        f"| 2025-07-14 05:47:31.250+00:00 | PR opened on {repo_b} ({repo_b.split('/')[-1]}) at "
        "0000000000000000000000000000000000000001, job 00000000-0000-0000-0000-000000000000 |"
    )
    assert evidence_hash(prepare(a, first)) == evidence_hash(prepare(b, second))
    assert "{time}" in prepare(a, first) and "{sha}" in prepare(a, first) and "{id}" in prepare(a, first)


def test_prose_and_numbers_a_grader_reads_are_kept() -> None:
    scenario = load_scenario(ROOT / "scenario", "nightshift")
    snap = outcome(seed(scenario, 0))
    text = "buffer_size 2048, max_connections=20, PR #142 and #143, every ~7 minutes, 4Gi not 3Gi"
    assert prepare(text, snap) == text
    assert prepare("one at 2025-07-14T03:12Z", snap) != prepare("one at 2025-07-14T03:12Z, two", snap)


def test_the_rubric_asks_for_the_deployment_specs_own_placeholders() -> None:
    folder = ROOT / "scenario" / "nightshift"  # parameterised: the rubric parses once rendered
    rubric = yaml.safe_load(instance_zero(folder).render((folder / "rubric.yaml").read_text("utf-8")))
    part = next(p for c in rubric["criteria"] for p in c["parts"] if p["id"] == "C5b")
    wanted = part["checks"][0]["with"]["variables"]
    spec = (ROOT / "scenario" / "nightshift" / "notion.yaml").read_text(encoding="utf-8")
    for name, placeholder in wanted.items():
        assert f'[{name}, "{placeholder}",' in spec, name
    assert len(wanted) == 13
