"""Dry run of the PR workflow on a real `labeled` payload: the fork path, and (with a fake GitHub)
a passing and a regressed replay on the trial run."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.test_dry_run_runner import Runner

LABELED = Path(__file__).resolve().parent / "fixtures" / "webhooks" / "pull_request.labeled.json"


def labeled(label: str = "run-evals", head_repo: str | None = None) -> dict[str, Any]:
    event: dict[str, Any] = json.loads(LABELED.read_text(encoding="utf-8"))
    event["label"]["name"] = label
    if head_repo is not None:
        event["pull_request"]["head"]["repo"]["full_name"] = head_repo
    return event


def test_a_fork_pr_gets_a_notice_and_no_job_with_secrets_runs(tmp_path: Path) -> None:
    event = labeled(head_repo="mallory/Hello-World")
    runner = Runner(
        tmp_path, "pull_request", event, "Codertocat/Hello-World", secrets={"ANTHROPIC_API_KEY": "x"}
    )
    jobs = runner.run("evals-pr.yml")
    (notice,) = jobs["fork-notice"]
    assert notice.result == "success", notice.log()
    assert "::notice title=Agent evals skipped::" in notice.steps[0].stdout
    assert "mallory/Hello-World" in notice.summary and "forks" in notice.summary
    assert [j.result for j in jobs["evals"] + jobs["report"]] == ["skipped", "skipped"]
    assert not any(runner.artifacts.iterdir())


def test_a_label_other_than_run_evals_runs_nothing(tmp_path: Path) -> None:
    runner = Runner(tmp_path, "pull_request", labeled(label="bug"), "Codertocat/Hello-World")
    jobs = runner.run("evals-pr.yml")
    assert {name: [j.result for j in runs] for name, runs in jobs.items()} == {
        "fork-notice": ["skipped"],
        "evals": ["skipped"],
        "report": ["skipped"],
    }
