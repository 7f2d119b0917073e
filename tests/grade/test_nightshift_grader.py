"""The Nightshift grader reproduces the seed's published scores offline, from layer 1 plus labels."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from evals.cli import main
from tests.support.paths import ROOT
from tests.support.project import SECRET_VARS
from tests.support.stubs.anthropic_stub import SERVER_ERROR, Reply, StubAnthropic, text

# The seed's summary table (Results, 3 automated runs) and the reference's full marks.
PUBLISHED = {
    "reference": (25, {"code": 10, "infrastructure": 4, "documentation": 6, "communication": 5}),
    "seed-run-0": (16, {"code": 8, "infrastructure": 4, "documentation": 1, "communication": 3}),
    "seed-run-1": (19, {"code": 10, "infrastructure": 4, "documentation": 3, "communication": 2}),
    "seed-run-2": (20, {"code": 9, "infrastructure": 4, "documentation": 4, "communication": 3}),
}


def grades(run_dir: Path) -> list[dict[str, Any]]:
    lines = (run_dir / "results.jsonl").read_text(encoding="utf-8").splitlines()
    return sorted((json.loads(line) for line in lines), key=lambda r: r["trial"])


@pytest.fixture(scope="module")
def replayed(tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, Any]]:
    """One run of all four replays, offline, in a throwaway copy of the project (shared by the module)."""
    root = tmp_path_factory.mktemp("project")
    for name in ("evals.yaml", "pricing.yaml"):
        shutil.copy(ROOT / name, root / name)
    for name in ("scenario", "baseline", "agent"):
        shutil.copytree(ROOT / name, root / name, ignore=shutil.ignore_patterns("__pycache__"))
    with pytest.MonkeyPatch.context() as patch:
        for var in SECRET_VARS:
            patch.delenv(var, raising=False)
        patch.chdir(root)
        out = root / "runs" / "calibration"
        agent = "replay:" + ",".join(PUBLISHED)
        code = main(["run", "--scenario", "nightshift", "--agent", agent, "--trials", "4", "--out", str(out)])
    assert code in (0, 1)
    return grades(out)


@pytest.mark.parametrize(("trial", "name"), list(enumerate(PUBLISHED)))
def test_each_bundled_replay_scores_what_the_seed_published(
    replayed: list[dict[str, Any]], trial: int, name: str
) -> None:
    grade = replayed[trial]["grade"]
    total, categories = PUBLISHED[name]
    assert grade["unscored"] == [], f"{name}: judged parts without a label: {grade['unscored']}"
    assert grade["total"] == total
    assert grade["categories"] == categories


def test_the_seeds_misses_are_the_criteria_it_names(replayed: list[dict[str, Any]]) -> None:
    missed = {
        name: sorted(p["id"] for p in replayed[i]["grade"]["parts"] if p["score"] == 0)
        for i, name in enumerate(PUBLISHED)
    }
    assert missed["reference"] == []
    # Run 0: C3 call site kept, C2b buffer kept until the next batch, Notion appended at the bottom.
    assert missed["seed-run-0"] == ["C11b", "C12", "C13", "C14", "C15", "C16", "C20", "C2b", "C3"]
    assert missed["seed-run-1"] == ["C11b", "C12", "C14", "C16", "C18", "C20"]
    assert missed["seed-run-2"] == ["C11b", "C14", "C16", "C20", "C3"]


def test_run_0s_c3_is_decided_by_code_not_by_a_judge(replayed: list[dict[str, Any]]) -> None:
    c3 = next(p for p in replayed[1]["grade"]["parts"] if p["id"] == "C3")
    assert c3["layer"] == 1 and c3["judge"] is None
    assert "get_redis_client()" in c3["reason"]


def test_pre_automation_flips_priyas_flag_and_follows_3gi(project: Path) -> None:
    out = project / "runs" / "pre"
    main(["run", "--scenario", "nightshift", "--agent", "replay:pre-automation", "--out", str(out)])
    grade = grades(out)[0]["grade"]
    failed = {p["id"] for p in grade["parts"] if p["score"] == 0}
    assert {"C1", "C7", "C9a", "C10"} <= failed
    assert grade["unscored"] == []
    assert grade["passed"] is False


def test_the_offline_default_replays_the_three_published_runs(project: Path) -> None:
    out = project / "runs" / "default"
    main(["run", "--scenario", "nightshift", "--trials", "3", "--out", str(out)])
    totals = [r["grade"]["total"] for r in grades(out)]
    assert totals[:3] == [16, 19, 20]
    # the gate may add trials for a noisy scenario: they cycle through the same three runs
    assert totals == [[16, 19, 20][i % 3] for i in range(len(totals))]
    assert main(["labels", "--run", str(out)]) == 0


def test_with_a_model_each_judged_part_gets_one_call_with_only_its_own_evidence(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Live path against the stub Messages server: a malformed reply, an "unknown" and a 500 leave
    their parts unscored and the run completes; parts that failed layer 1 never reach the judge."""
    answers: dict[str, Reply] = {
        "C16": text("The update is fine. Score: one."),
        "C18": text('Cannot tell.\n{"critique": "unclear", "score": "unknown"}'),
        "C19": SERVER_ERROR,
    }

    def answer(body: dict[str, Any]) -> Reply:
        part = re.search(r"grading part (\w+)", body["messages"][0]["content"])
        assert part is not None
        return answers.get(part.group(1), text('Checked.\n{"critique": "ok", "score": 1}'))

    with StubAnthropic(default=answer) as stub:
        monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-test-judge")
        monkeypatch.setenv("ANTHROPIC_BASE_URL", stub.url)
        out = project / "runs" / "live"
        main(["run", "--scenario", "nightshift", "--agent", "replay:seed-run-1", "--out", str(out)])
        prompts = {}
        for body in stub.requests:
            content = body["messages"][0]["content"]
            found = re.search(r"grading part (\w+)", content)
            assert found is not None
            prompts[found.group(1)] = content
    grade = grades(out)[0]["grade"]
    assert set(prompts) == {"C9b", "C11a", "C11b", "C15", "C16", "C17", "C18", "C19"}  # not C12, C14, C20
    assert sorted(grade["unscored"]) == ["C16", "C18", "C19"]
    assert (
        "Hi Marcus" in prompts["C18"] and "Hi Alex" not in prompts["C18"] and "Hi Priya" not in prompts["C18"]
    )
    assert "Hi Alex" in prompts["C17"] and "Hi Marcus" not in prompts["C17"]
    assert "ROUTES" in prompts["C15"] and "Root Cause" not in prompts["C15"]
    assert "Three defects" in prompts["C11b"] and "Hi Alex" not in prompts["C11b"]
