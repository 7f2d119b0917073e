"""A third scenario, made in a temporary folder, brings a check of its own and is graded with it.

Nothing in `evals/` knows about it: the scenario's folder holds its data (the trial run's, copied),
its rubric and its `checks/` module, and `python -m evals run` grades a replay of it end to end.
"""

from __future__ import annotations

import json
import shutil
import textwrap
from pathlib import Path
from typing import Any

import pytest
import yaml

from evals.cli import main
from evals.grade.checks import VOCABULARY
from tests.support.paths import ROOT

NAME = "threshold-drill"
OWN_CHECK = f"{NAME}.threshold_at_least"

CHECK_MODULE = '''\
"""The drill's own check: the threshold was raised to at least the spec's value, at some head."""

from __future__ import annotations

from evals.grade.checks.common import heads
from evals.grade.checks.python_values import assigned_value
from evals.grade.registry import CheckResult, GradeContext, check


@check("threshold_at_least")
def threshold_at_least(ctx: GradeContext, path: str, name: str, minimum: float) -> CheckResult:
    seen = []
    for label, files in heads(ctx.outcome):
        value = assigned_value(files[path], name)
        if isinstance(value, float) and value >= minimum:
            return CheckResult(True, f"drill: {label}: {name} = {value} >= {minimum}")
        seen.append(f"{label}: {name} = {value}")
    return CheckResult(False, f"drill: {name} below {minimum}: " + "; ".join(seen))
'''

RUBRIC = f"""\
max_points: 2
pass_threshold: 2
categories: {{code: {{title: Code}}}}
criteria:
  - id: D1
    title: A pull request
    category: code
    parts:
      - id: D1
        points: 1
        checks:
          - {{check: repo.pull_request_opened}}
  - id: D2
    title: "Threshold at least the spec's {{{{param:th.new_short}}}}"
    category: code
    parts:
      - id: D2
        points: 1
        checks:
          - check: {OWN_CHECK}
            with: {{path: src/moderation/classifier.py, name: FLAG_THRESHOLD, minimum: {{{{param:th.new}}}}}}
"""


@pytest.fixture(scope="module")
def drill_project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A project with only the drill scenario: the trial run's data under a new name, own rubric and check.

    The trial run is parameterised, so the drill's rubric uses its parameters too; the replays are
    graded at instance 0, the seed's values (0.85 in the spec).
    """
    root = tmp_path_factory.mktemp("drill")
    shutil.copy(ROOT / "pricing.yaml", root / "pricing.yaml")
    config = yaml.safe_load((ROOT / "evals.yaml").read_text(encoding="utf-8"))
    config.update(suite=[NAME], suites={"drill": [NAME]})  # the suites may name only scenarios it has
    (root / "evals.yaml").write_text(yaml.safe_dump(config), encoding="utf-8")
    shutil.copytree(ROOT / "agent", root / "agent")
    source, folder = ROOT / "scenario" / "trial-run", root / "scenario" / NAME
    folder.mkdir(parents=True)
    for part in ("emails.yaml", "notion.yaml"):
        shutil.copy(source / part, folder / part)
    for part in ("prompts", "repo", "replays"):
        shutil.copytree(source / part, folder / part, ignore=shutil.ignore_patterns("__pycache__"))
    meta = (source / "scenario.yaml").read_text(encoding="utf-8")
    (folder / "scenario.yaml").write_text(meta.replace("name: trial-run", f"name: {NAME}"), encoding="utf-8")
    (folder / "rubric.yaml").write_text(RUBRIC, encoding="utf-8")
    (folder / "checks").mkdir()
    (folder / "checks" / "threshold.py").write_text(textwrap.dedent(CHECK_MODULE), encoding="utf-8")
    return root


@pytest.fixture(scope="module")
def grades(drill_project: Path) -> dict[str, dict[str, Any]]:
    """The drill graded by `python -m evals run` on a replay that fixed it and one that did not."""
    out: dict[str, dict[str, Any]] = {}
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(drill_project)
        for replay in ("reference", "regressed"):
            run_dir = drill_project / "runs" / replay
            args = ["run", "--scenario", NAME, "--agent", f"replay:{replay}", "--trials", "1", "--out"]
            assert main([*args, str(run_dir)]) in (0, 1)
            grade = run_dir / "trials" / NAME / "0" / "grade.json"
            out[replay] = json.loads(grade.read_text(encoding="utf-8"))
    return out


def own_part(grade: dict[str, Any]) -> dict[str, Any]:
    part: dict[str, Any] = next(p for p in grade["parts"] if p["id"] == "D2")
    return part


def test_the_scenarios_own_check_passes_a_run_that_raised_the_threshold(
    grades: dict[str, dict[str, Any]],
) -> None:
    part = own_part(grades["reference"])
    assert part["status"] == "passed" and part["score"] == 1 and part["layer"] == 1
    assert [c["check"] for c in part["checks"]] == [OWN_CHECK]
    assert part["checks"][0]["detail"].startswith("drill: ") and "0.85 >= 0.85" in part["checks"][0]["detail"]
    assert grades["reference"]["total"] == 2


def test_the_scenarios_own_check_fails_a_run_that_stopped_short(grades: dict[str, dict[str, Any]]) -> None:
    part = own_part(grades["regressed"])
    assert part["status"] == "failed" and part["score"] == 0
    assert part["reason"] == f"{OWN_CHECK}: drill: FLAG_THRESHOLD below 0.85: PR #1: FLAG_THRESHOLD = 0.8"
    assert grades["regressed"]["total"] == 1  # its PR still counts, through the package's own check


def test_the_package_never_learned_the_drills_check(grades: dict[str, dict[str, Any]]) -> None:
    assert grades["reference"]["scenario"] == NAME
    assert not [name for name in VOCABULARY.checks if name.startswith(NAME)]
