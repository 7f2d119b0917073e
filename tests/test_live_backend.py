"""The live backend, offline: PyGithub, notion-client and the composio SDK against local fakes.

Same seeding, snapshot and cleanup code as a real live run; only the base URLs differ.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from evals.cli import main
from tests.conftest import read_summary
from tests.fakes import TOOLKIT_VERSIONS, FakeServices


@pytest.fixture
def services(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeServices]:
    fakes = FakeServices.start()
    for key, value in fakes.env().items():
        monkeypatch.setenv(key, value)
    yield fakes
    fakes.stop()


def per_criterion(run: Path) -> dict[str, float]:
    return {name: c["mean"] for name, c in read_summary(run)["criteria"].items()}


def test_the_reference_replay_scores_the_same_on_the_sandbox_and_on_live_services(
    project: Path, services: FakeServices, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["seed-inbox", "--scenario", "trial-run"]) == 0
    sandbox, live = project / "runs" / "sandbox", project / "runs" / "live"
    args = ["run", "--scenario", "trial-run", "--agent", "replay:reference", "--trials", "2"]
    assert main([*args, "--out", str(sandbox)]) == 0
    assert main([*args, "--world", "live", "--out", str(live)]) == 0
    assert per_criterion(live) == per_criterion(sandbox)
    assert read_summary(live)["total"]["mean"] == 7
    assert "run one at a time" in capsys.readouterr().err
    versions = {(e["slug"].split("_")[0].lower(), e.get("version")) for e in services.composio.executed}
    assert versions == {(kit, TOOLKIT_VERSIONS[kit]) for kit in ("github", "gmail", "notion")}, "pinned"
    outcome = json.loads((live / "trials" / "trial-run" / "1" / "outcome.json").read_text())
    assert outcome["backend"] == "live"
    assert outcome["repos"][0]["full_name"].startswith("acme-evals/agent-evals-")
    assert [m["to"] for m in outcome["sent"]] == [["sam.rivera@acme.example"]], "trial 0's reply was reset"
    written = "".join(p.read_text(errors="replace") for p in live.rglob("*") if p.is_file())
    assert all(token not in written for token in ("ghp-fake", "ntn-fake")), "no token in the run directory"
    assert services.universe.world.repos == {}, "every trial repo was deleted"
    assert all(p.archived for p in services.universe.world.notion.pages if p.id != services.parent_page)


def test_the_regressed_replay_loses_the_same_points_live(project: Path, services: FakeServices) -> None:
    assert main(["seed-inbox", "--scenario", "trial-run"]) == 0
    sandbox, live = project / "runs" / "sandbox", project / "runs" / "live"
    args = ["run", "--scenario", "trial-run", "--agent", "replay:regressed"]
    assert main([*args, "--out", str(sandbox)]) == 1
    assert main([*args, "--world", "live", "--out", str(live)]) == 1
    assert per_criterion(live) == per_criterion(sandbox)


def parts(run: Path, scenario: str) -> dict[str, tuple[str, float | None, bool]]:
    grade = json.loads((run / "trials" / scenario / "0" / "grade.json").read_text())
    return {
        p["id"]: (p["status"], p["score"], p["judge"] is not None or p["layer"] == 2) for p in grade["parts"]
    }


def test_nightshift_live_gives_every_code_check_the_sandbox_result_and_never_a_different_judged_score(
    project: Path, services: FakeServices
) -> None:
    """Judged parts read evidence with run-specific facts (real timestamps, addresses); without an
    API key their human labels may not cover that evidence, and then they are unscored, never 0."""
    assert main(["seed-inbox", "--scenario", "nightshift"]) == 0
    sandbox, live = project / "runs" / "sandbox", project / "runs" / "live"
    args = ["run", "--scenario", "nightshift", "--agent", "replay:reference"]
    main([*args, "--out", str(sandbox)])
    main([*args, "--world", "live", "--out", str(live)])
    offline, online = parts(sandbox, "nightshift"), parts(live, "nightshift")
    assert online.keys() == offline.keys()
    for part, (status, score, judged) in online.items():
        if judged and status == "unscored":
            continue
        assert (status, score) == offline[part][:2], part
    code_only = [p for p, (_, _, judged) in offline.items() if not judged]
    assert code_only and all(online[p][1] == offline[p][1] == 1 for p in code_only)
