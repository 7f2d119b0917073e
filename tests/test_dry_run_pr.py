"""Dry run of the PR workflow on a real `labeled` payload: the fork path, and (with a fake GitHub)
a passing and a regressed replay on the trial run."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.fakes.github_pr_fake import FakeGitHubPR
from tests.test_dry_run_runner import JobRun, Runner

TOKEN = "ghs-dry-run-token-0001"
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


def pr_run(tmp_path: Path, github: FakeGitHubPR, agent: str) -> dict[str, list[JobRun]]:
    """The PR workflow on a `run-evals` label from this repository, against the fake GitHub."""
    github.label(2, "run-evals")
    runner = Runner(
        tmp_path,
        "pull_request",
        labeled(),
        "Codertocat/Hello-World",
        api_url=github.url,
        vars={"EVALS_AGENT": agent, "EVALS_SCENARIOS": "trial-run"},
        secrets={"ANTHROPIC_API_KEY": ""},
    )
    runner.token = TOKEN
    jobs = runner.run("evals-pr.yml")
    assert jobs["fork-notice"][0].result == "skipped"
    return jobs


def test_a_regressed_pr_fails_the_check_with_a_comment_and_a_fix_turns_the_same_comment_green(
    tmp_path: Path,
) -> None:
    with FakeGitHubPR("Codertocat", "Hello-World", {2}, TOKEN) as github:
        jobs = pr_run(tmp_path / "first", github, "replay:regressed")
        (evals,) = jobs["evals"]
        assert evals.result == "failure", evals.log()
        failed = [s for s in evals.steps if not s.skipped and s.returncode != 0]
        assert [(s.name, s.returncode) for s in failed] == [("Compare with the baseline (the gate)", 1)]
        assert evals.summary.count("Agent evals: **regression**") == 1  # the job summary holds it once
        assert jobs["report"][0].result == "success", jobs["report"][0].log()
        (comment,) = github.comments_on(2)
        assert "Agent evals: **regression**" in comment.body
        assert "<!-- agent-evals-gate:report -->" in comment.body
        assert github.labels[2] == []  # the next push needs a new label

        jobs = pr_run(tmp_path / "second", github, "replay:reference")
        (evals,) = jobs["evals"]
        assert evals.result == "success", evals.log()
        assert evals.step("Compare with the baseline (the gate)").returncode == 0
        assert jobs["report"][0].result == "success", jobs["report"][0].log()
        (edited,) = github.comments_on(2)
        assert edited.id == comment.id and "Agent evals: **pass**" in edited.body
        assert github.labels[2] == []
