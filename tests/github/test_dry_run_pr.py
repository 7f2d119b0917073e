"""Dry run of the PR workflow on a real `labeled` payload: the fork path, and (with a fake GitHub)
a passing and a regressed replay on the trial run, with the required `agent-evals` status posted on
the labelled head SHA by the base's code."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.support.actions import NOT_CHECKED_OUT, JobRun, Runner
from tests.support.fakes.github_pr_fake import FakeGitHubPR
from tests.support.paths import FIXTURES, ROOT
from tests.support.project import copy_project

TOKEN = "ghs-dry-run-token-0001"
LABELED = FIXTURES / "webhooks" / "pull_request.labeled.json"
REPO = "Codertocat/Hello-World"
CONTEXT = "agent-evals"
GATE = "Verdict by the base's definition (the gate; layer 1 re-graded in the confinement)"


def labeled(label: str = "run-evals", head_repo: str | None = None) -> dict[str, Any]:
    event: dict[str, Any] = json.loads(LABELED.read_text(encoding="utf-8"))
    event["label"]["name"] = label
    if head_repo is not None:
        event["pull_request"]["head"]["repo"]["full_name"] = head_repo
    return event


HEAD_SHA: str = labeled()["pull_request"]["head"]["sha"]


def test_a_fork_pr_gets_a_notice_and_no_job_with_secrets_runs(tmp_path: Path) -> None:
    event = labeled(head_repo="mallory/Hello-World")
    runner = Runner(tmp_path, "pull_request_target", event, REPO, secrets={"ANTHROPIC_API_KEY": "x"})
    jobs = runner.run("evals-pr.yml")
    (notice,) = jobs["fork-notice"]
    assert notice.result == "success", notice.log()
    assert "::notice title=Agent evals skipped::" in notice.steps[0].stdout
    assert "mallory/Hello-World" in notice.summary and "forks" in notice.summary
    assert [j.result for j in jobs["evals"] + jobs["verdict"] + jobs["publish"]] == ["skipped"] * 3
    assert not any(runner.artifacts.iterdir())


def test_a_pr_into_another_branch_gets_a_notice_and_no_job_with_secrets_runs(tmp_path: Path) -> None:
    event = labeled()
    event["pull_request"]["base"]["ref"] = "release-with-a-softer-baseline"
    jobs = Runner(tmp_path, "pull_request_target", event, REPO).run("evals-pr.yml")
    assert "default branch (master)" in jobs["fork-notice"][0].summary
    assert [j.result for j in jobs["evals"] + jobs["verdict"] + jobs["publish"]] == ["skipped"] * 3


def test_a_label_other_than_run_evals_runs_nothing(tmp_path: Path) -> None:
    runner = Runner(tmp_path, "pull_request_target", labeled(label="bug"), REPO)
    jobs = runner.run("evals-pr.yml")
    assert {name: [j.result for j in runs] for name, runs in jobs.items()} == {
        "gate": ["success"],  # the caller: each called job decides on the label itself
        "fork-notice": ["skipped"],
        "context": ["skipped"],
        "refusal": ["skipped"],
        "evals": ["skipped"],
        "verdict": ["skipped"],
        "publish": ["skipped"],
    }


def pr_run(
    tmp_path: Path, github: FakeGitHubPR, agent: str, head: Path | None = None, key: str = ""
) -> dict[str, list[JobRun]]:
    """The PR workflow on a `run-evals` label from this repository, against the fake GitHub.

    `head` is the PR head's tree (default: the project itself); the base is always the project."""
    github.label(2, "run-evals")
    runner = Runner(
        tmp_path,
        "pull_request_target",
        labeled(),
        REPO,
        api_url=github.url,
        vars={"EVALS_AGENT": agent, "EVALS_SCENARIOS": "trial-run"},
        secrets={"ANTHROPIC_API_KEY": key},
        head=head,
    )
    runner.token = TOKEN
    jobs = runner.run("evals-pr.yml")
    assert jobs["fork-notice"][0].result == "skipped"
    return jobs


def head_copy(dest: Path) -> Path:
    """A PR head: the project as it is, to be edited by the test."""
    shutil.copytree(ROOT, dest, ignore=NOT_CHECKED_OUT)
    return dest


def test_a_regressed_pr_fails_the_required_status_with_a_comment_and_a_fix_turns_it_green(
    tmp_path: Path,
) -> None:
    with FakeGitHubPR("Codertocat", "Hello-World", {2}, TOKEN) as github:
        jobs = pr_run(tmp_path / "first", github, "replay:regressed")
        (evals,) = jobs["evals"]
        assert evals.result == "success", evals.log()  # the trials ran; the verdict is not theirs
        (verdict,) = jobs["verdict"]
        assert verdict.result == "success", verdict.log()  # it computed the verdict
        assert verdict.summary.count("Agent evals: **regression**") == 1  # the job summary holds it once
        (publish,) = jobs["publish"]
        assert publish.result == "failure", publish.log()
        failed = [s for s in publish.steps if not s.skipped and s.returncode != 0]
        assert [(s.name, s.returncode) for s in failed] == [("Fail unless the verdict passes", 1)]
        status = github.status(HEAD_SHA, CONTEXT)
        assert status is not None and status["state"] == "failure"
        assert status["description"].startswith("regression: total 2.00/7 (baseline 7.00, Δ -5.00)")
        (comment,) = github.comments_on(2)
        assert "Agent evals: **regression**" in comment.body
        assert "<!-- agent-evals-gate:report -->" in comment.body
        assert "changes the eval definition" not in comment.body  # this PR changes none of it
        assert github.labels[2] == []  # the next push needs a new label

        jobs = pr_run(tmp_path / "second", github, "replay:reference")
        (publish,) = jobs["publish"]
        assert publish.result == "success", publish.log()
        status = github.status(HEAD_SHA, CONTEXT)
        assert status is not None and status["state"] == "success"
        (edited,) = github.comments_on(2)
        assert edited.id == comment.id and "Agent evals: **pass**" in edited.body
        assert github.labels[2] == []


def test_with_no_model_key_and_no_replay_asked_for_the_pr_gets_no_green_check(tmp_path: Path) -> None:
    """`agent: auto` without ANTHROPIC_API_KEY would replay recorded runs and compare them with
    recorded runs: a green check that measured nothing of the agent (#38). In Actions it is refused,
    naming the missing secret, and the required status is never `success`."""
    with FakeGitHubPR("Codertocat", "Hello-World", {2}, TOKEN) as github:
        jobs = pr_run(tmp_path, github, "")  # EVALS_AGENT unset: the config's `auto`
        (evals,) = jobs["evals"]
        assert evals.result == "failure"
        assert "found no ANTHROPIC_API_KEY in GitHub Actions" in evals.log()
        status = github.status(HEAD_SHA, CONTEXT)
        assert status is not None and status["state"] == "error", status


# --- The ruler never comes from the change under test ----------------------------------------------


def move_the_ruler(head: Path, regressed_run: Path) -> dict[str, str]:
    """Edit a PR head the five ways issue 11 lists; return {edit: file} for the report's list."""
    from evals.cli import main
    from evals.core.jsonio import sha256_text

    # (a) lower the baseline: "refresh" it from the regressed run itself.
    bless = ["baseline", "bless", "--force", "--run", str(regressed_run), "--out", "baseline/baseline.json"]
    assert main(bless) == 0
    # (b) raise the threshold far past the drop.
    config = head / "evals.yaml"
    text = config.read_text(encoding="utf-8")
    config.write_text(text.replace("  percent: 6 ", "  percent: 90", 1), encoding="utf-8")
    assert "percent: 90" in config.read_text(encoding="utf-8")
    # (c) weaken the rubric (T1a no longer needs the PR link) and update the stored fingerprint.
    rubric = head / "scenario" / "trial-run" / "rubric.yaml"
    strict = rubric.read_text(encoding="utf-8")
    weak = re.sub(r"\n *- \{check: mail\.links_pull_request,[^\n]*", "", strict, count=1)
    assert weak != strict
    rubric.write_text(weak, encoding="utf-8")
    baseline = json.loads((head / "baseline" / "baseline.json").read_text(encoding="utf-8"))
    baseline["fingerprint"]["scenarios"]["trial-run"]["rubric"] = sha256_text(weak)
    (head / "baseline" / "baseline.json").write_text(json.dumps(baseline, indent=2), encoding="utf-8")
    # (d) edit a check in evals/grade/: a PR link is no longer looked for.
    mail = head / "evals" / "grade" / "checks" / "mail.py"
    code = mail.read_text(encoding="utf-8")
    signature = re.search(r"\ndef links_pull_request\(.*?\n    address, sent = ", code, re.S)
    assert signature is not None
    body_starts = signature.end() - len("    address, sent = ")
    lenient = code[:body_starts] + '    return CheckResult(True, "not required")\n' + code[body_starts:]
    mail.write_text(lenient, encoding="utf-8")
    # (e) edit the PR gate (the reusable workflow the PR workflow calls): no gate step, nothing that fails.
    workflow_path = head / ".github" / "workflows" / "evals-pr-gate.yml"
    workflow = yaml.safe_load(workflow_path.read_text(encoding="utf-8"))
    steps = workflow["jobs"]["verdict"]["steps"]
    workflow["jobs"]["verdict"]["steps"] = [
        s for s in steps if s.get("id") != "gate" and "VERDICT" not in str(s)
    ]
    workflow_path.write_text(yaml.safe_dump(workflow), encoding="utf-8")
    return {
        "a": "baseline/baseline.json",
        "b": "evals.yaml",
        "c": "scenario/trial-run/rubric.yaml",
        "d": "evals/grade/checks/mail.py",
        "e": ".github/workflows/evals-pr-gate.yml",
    }


def test_a_regressed_pr_that_moves_the_ruler_is_still_judged_by_the_base(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """(a) lower the baseline, (b) raise the threshold, (c) weaken the rubric and update the stored
    fingerprint, (d) edit a check, (e) edit the PR workflow: all in one PR running `replay:regressed`.
    By its own ruler the PR passes; the required status is still red, and the report lists the files."""
    from evals.cli import main

    data = copy_project(tmp_path / "data")
    monkeypatch.chdir(data)
    regressed = tmp_path / "regressed"
    assert (
        main(["run", "--scenario", "trial-run", "--agent", "replay:regressed", "--out", str(regressed)]) == 1
    )
    head = head_copy(tmp_path / "head")
    monkeypatch.chdir(head)
    edits = move_the_ruler(head, regressed)
    # The PR's own ruler would let it through: its baseline, threshold and rubric all moved.
    rerun = tmp_path / "regraded"
    shutil.copytree(regressed, rerun)
    assert main(["grade", "--run", str(rerun)]) == 0

    with FakeGitHubPR("Codertocat", "Hello-World", {2}, TOKEN) as github:
        jobs = pr_run(tmp_path / "pr", github, "replay:regressed", head=head)
        (evals,) = jobs["evals"]
        assert (
            "agent under test: agent from the PR head"
            in evals.step("Take the agent under test from the PR head").stdout
        )
        (verdict,) = jobs["verdict"]
        assert verdict.step(GATE).returncode == 0, verdict.log()  # the base's step ran
        assert jobs["publish"][0].result == "failure"
        status = github.status(HEAD_SHA, CONTEXT)
        assert status is not None and status["state"] == "failure"
        # The same Δ as the untouched PR above: none of the five edits reached the verdict.
        assert status["description"].startswith("regression: total 2.00/7 (baseline 7.00, Δ -5.00)")
        (comment,) = github.comments_on(2)
        assert "Agent evals: **regression**" in comment.body
        head_block = comment.body.split("\n\n")[1]
        assert "This PR changes the eval definition" in head_block and "bless after merge" in head_block
        for edit, name in edits.items():
            assert f"`{name}`" in head_block, (edit, head_block)
        assert "`agent/" not in head_block  # the agent under test is not the definition


def test_a_run_that_left_no_evidence_is_an_error_never_a_pass(tmp_path: Path) -> None:
    with FakeGitHubPR("Codertocat", "Hello-World", {2}, TOKEN) as github:
        jobs = pr_run(tmp_path, github, "replay:no-such-replay")
        (evals,) = jobs["evals"]
        assert evals.result == "failure"
        # A failed evals job has no verdict: the verdict job does not run, publish posts error.
        assert [v.result for v in jobs["verdict"]] == ["skipped"]
        assert jobs["publish"][0].result == "failure", jobs["publish"][0].log()
        status = github.status(HEAD_SHA, CONTEXT)
        assert status is not None and status["state"] == "error"
        assert "the evals job failed" in status["description"]
        (comment,) = github.comments_on(2)
        assert "Agent evals: **error**" in comment.body and "The evals job ended in `failure`" in comment.body


def test_a_pr_that_edits_a_judge_prompt_gets_its_agreement_in_the_report_or_not_measured(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With the model key (the stub Messages server as a judge that always answers 1) the evals job
    measures the edited T1b prompt on the labelled set before it takes the agent, and the comment's
    judge line gives that prompt's figure; the verdict is still the base's. Without the key the same
    PR's line says the edited prompt is not measured, and gives it no figure."""
    from tests.support.stubs.anthropic_stub import StubAnthropic, text

    head = head_copy(tmp_path / "head")
    prompt = head / "scenario" / "trial-run" / "judge" / "T1b.md"
    prompt.write_text(prompt.read_text(encoding="utf-8") + "\nQuote the new threshold.\n", encoding="utf-8")
    answer = text('Critique.\n{"critique": "reads it", "score": 1}')
    with (
        StubAnthropic(default=lambda body: answer) as stub,
        FakeGitHubPR("Codertocat", "Hello-World", {2}, TOKEN) as github,
    ):
        monkeypatch.setenv("ANTHROPIC_BASE_URL", stub.url)
        jobs = pr_run(tmp_path / "keyed", github, "replay:reference", head=head, key="sk-test-pr-judge")
        (evals,) = jobs["evals"]
        assert evals.result == "success", evals.log()
        measuring = evals.step(
            "Measure the judge prompts the PR edits against the labelled set (the report's judge line)"
        )
        assert "Recorded in" in measuring.stdout, evals.log()
        asked_with_edit = [
            r for r in stub.requests if "Quote the new threshold." in r["messages"][0]["content"]
        ]
        assert asked_with_edit and all(
            "grading part T1b" in r["messages"][0]["content"] for r in asked_with_edit
        )
        (comment,) = github.comments_on(2)
        line = next(x for x in comment.body.splitlines() if "The judge:" in x or "Judge drift:" in x)
        assert "· this PR's judge prompt(s) `trial-run/judge/T1b.md`:" in line
        assert "agrees with people on **" in line.split("this PR's judge prompt(s)")[1], line
        assert "Agent evals: **pass**" in comment.body  # graded by the base's prompts all the same

        jobs = pr_run(tmp_path / "keyless", github, "replay:reference", head=head)
        assert jobs["evals"][0].step("Upload the measurement of the PR's judge prompts").skipped
        (comment,) = github.comments_on(2)
        line = next(x for x in comment.body.splitlines() if "The judge:" in x or "Judge drift:" in x)
        assert (
            "this PR edits judge prompt(s) `trial-run/judge/T1b.md`: their agreement with people is "
            "**not measured**" in line
        )
        assert "agrees with people on" not in line  # no figure: nothing measured it
