"""Dry run of `/evals continue` through the PR workflow's own steps (tests/support/actions.py) with a
fake GitHub: an inconclusive labelled run leaves its state in the sticky comment; a writer's comment
continues the SAME run (the earlier workflow run's artifact, its trials kept, one continuation
recorded, the interim line held); a reader's comment and a push in between are refused with a
message and run nothing, and join no concurrency group a running eval is in; a forged state (in a
comment any workflow of the repository can post as github-actions[bot], or another bot's) that names
a run of another workflow, of another PR or head, or of a branch's copy of the workflow is refused;
a failed `evals` job is published as `error`."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from evals.github.comment import sticky_body
from evals.github.continuation import RunState, inconclusive_artifact, read_state
from evals.report.markdown import MARKER
from tests.support.actions import NOT_CHECKED_OUT, Runner
from tests.support.fakes.github_pr_fake import FakeGitHubPR, WorkflowRun
from tests.support.paths import FIXTURES, ROOT

TOKEN = "ghs-dry-run-token-0001"
REPO = "Codertocat/Hello-World"
LABELED = FIXTURES / "webhooks" / "pull_request.labeled.json"
COMMENTED = FIXTURES / "webhooks" / "issue_comment.created.json"
HEAD_SHA: str = json.loads(LABELED.read_text(encoding="utf-8"))["pull_request"]["head"]["sha"]
# One trial of Nightshift's first published run (16) against the baseline's six (16, 19, 20 twice):
# Δ -2.33 past the 1.5 allowed, and one run trial borrows the baseline's spread, so noise could
# explain it: inconclusive. A replay repeats itself, so a continuation adds no trials: what the dry
# run shows is the plumbing (same run, same head, the state carried, the count held).
VARS = {"EVALS_AGENT": "replay:seed-run-0", "EVALS_SCENARIOS": "nightshift"}


@pytest.fixture
def base(tmp_path: Path) -> Path:
    """The default branch: the project, its PRs evaluated at one trial."""
    dest = tmp_path / "base"
    shutil.copytree(ROOT, dest, ignore=NOT_CHECKED_OUT)
    config = dest / "evals.yaml"
    config.write_text(re.sub(r"^trials: \d+", "trials: 1", config.read_text(encoding="utf-8"), flags=re.M))
    return dest


def _runner(
    tmp: Path, event_name: str, event: dict[str, Any], github: FakeGitHubPR, base: Path, **extra: Any
) -> Runner:
    """The emulator on this repository's workflows, against the fake GitHub, with no model key."""
    runner = Runner(
        tmp,
        event_name,
        event,
        REPO,
        api_url=github.url,
        vars=VARS,
        secrets={"ANTHROPIC_API_KEY": ""},
        project=base,
        **extra,
    )
    runner.token = TOKEN
    return runner


def labelled(tmp: Path, github: FakeGitHubPR, base: Path) -> Runner:
    github.label(2, "run-evals")
    event: dict[str, Any] = json.loads(LABELED.read_text(encoding="utf-8"))
    event["label"]["name"] = "run-evals"
    runner = _runner(tmp, "pull_request_target", event, github, base)
    runner.run("evals-pr.yml")
    github.record_run(WorkflowRun(int(runner.run_id), **runner.run_facts()))  # as the API shows it after
    return runner


def commented(
    tmp: Path, github: FakeGitHubPR, base: Path, earlier: Runner, login: str, **extra: Any
) -> Runner:
    event: dict[str, Any] = json.loads(COMMENTED.read_text(encoding="utf-8"))
    event["issue"]["number"] = 2
    event["issue"]["pull_request"] = {"url": f"https://api.github.com/repos/{REPO}/pulls/2"}
    event["comment"]["body"] = "/evals continue"
    event["comment"]["user"]["login"] = login
    runner = _runner(
        tmp, "issue_comment", event, github, base, run_id="4343", earlier={"4242": earlier.artifacts}, **extra
    )
    runner.head_sha = github.heads.get(2, HEAD_SHA)  # the PR head `context` names (not in the payload)
    runner.run("evals-pr.yml")
    return runner


def test_a_writer_continues_the_same_inconclusive_run_on_the_same_head(tmp_path: Path, base: Path) -> None:
    with FakeGitHubPR("Codertocat", "Hello-World", {2}, TOKEN) as github:
        github.permissions = {"Codertocat": "write"}
        first = labelled(tmp_path / "label", github, base)
        assert first.jobs["publish"][0].result == "success", first.jobs["evals"][0].log()[-3000:]
        (comment,) = github.comments_on(2)
        state = read_state(comment.body)
        assert "Agent evals: **inconclusive**" in comment.body and "/evals continue" in comment.body
        assert state is not None and state.workflow_run == "4242" and state.head_sha == HEAD_SHA
        assert state.run_dir == "pr-2-4242-1" and state.continuations == 0

        again_run = commented(tmp_path / "continue", github, base, first, "Codertocat")
        jobs = again_run.jobs
        (context,) = jobs["context"]
        assert context.result == "success", context.log()
        # Accepted, the comment's eval joins the PR's eval group (and cancels a stale eval there).
        assert [c.group for c in again_run.concurrency] == ["4343", "agent-evals-pr-2"]
        assert context.outputs["continue_from"] == "4242" and context.outputs["continuations"] == "1"
        assert jobs["refusal"][0].result == "skipped"  # only a refusal is answered
        (evals,) = jobs["evals"]
        assert evals.result == "success", evals.log()
        run = Path(evals.steps[0].env["RUN_DIR"])
        assert run.name == "pr-2-4242-1"  # the same run directory, from the earlier workflow run
        (verdict,) = jobs["verdict"]
        assert verdict.result == "success", verdict.log()
        assert verdict.outputs["verdict"] == "inconclusive"
        assert jobs["publish"][0].result == "success", jobs["publish"][0].log()
        (edited,) = github.comments_on(2)
        again = read_state(edited.body)
        assert edited.id == comment.id and again is not None and again.continuations == 1
        assert again.run_dir == state.run_dir and again.head_sha == HEAD_SHA
        status = github.status(HEAD_SHA, "agent-evals")
        assert status is not None and status["state"] == "success"


def test_a_reader_and_a_push_in_between_are_refused_with_a_message_on_the_pr(
    tmp_path: Path, base: Path
) -> None:
    """The refusal is written in the Actions run and answered on the PR, where the person asked (an
    issue_comment run shows on no PR check); the sticky verdict comment is left as it was."""
    with FakeGitHubPR("Codertocat", "Hello-World", {2}, TOKEN) as github:
        github.permissions = {"Codertocat": "write", "reader": "read"}
        first = labelled(tmp_path / "label", github, base)
        (sticky,) = github.comments_on(2)
        reader = commented(tmp_path / "reader", github, base, first, "reader")
        jobs = reader.jobs
        (context,) = jobs["context"]
        assert context.result == "failure" and "needs write access" in context.log()
        assert "`/evals continue` refused" in context.summary
        assert [j.result for j in jobs["evals"] + jobs["verdict"] + jobs["publish"]] == ["skipped"] * 3
        assert jobs["refusal"][0].result == "success", jobs["refusal"][0].log()
        kept, reply = github.comments_on(2)
        assert kept.id == sticky.id and kept.body == sticky.body
        assert reply.body.startswith("@reader `/evals continue` was not continued:")
        assert "reader has read access" in reply.body and "needs write access" in reply.body
        assert "/actions/runs/4343" in reply.body
        # The labelled run's groups: its own (labels need triage access) and the PR's eval group.
        labelled_groups = {c.group for c in first.concurrency}
        assert labelled_groups == {"evals-pr-label-2", "agent-evals-pr-2"}
        # The reader's comment ran alone: the group of its own run only, nothing that cancels or
        # queues behind the labelled run's eval.
        assert [(c.where, c.group) for c in reader.concurrency] == [("workflow evals-pr.yml", "4343")]

        github.heads[2] = "e" * 40
        jobs = commented(tmp_path / "pushed", github, base, first, "Codertocat").jobs
        (context,) = jobs["context"]
        assert context.result == "failure" and "head moved from" in context.log()
        assert [j.result for j in jobs["evals"] + jobs["verdict"] + jobs["publish"]] == ["skipped"] * 3
        replies = github.comments_on(2)[2:]
        assert len(replies) == 1 and replies[0].body.startswith("@Codertocat `/evals continue` was not")
        assert f"head moved from {HEAD_SHA[:12]} to eeeeeeeeeeee" in replies[0].body


def test_a_comment_that_is_not_the_command_runs_nothing_and_gets_no_reply(tmp_path: Path, base: Path) -> None:
    """Every comment on the repository starts the caller; the context door stays shut for one that
    is not `/evals continue`, and the refusal job answers only the context job's refusals."""
    with FakeGitHubPR("Codertocat", "Hello-World", {2}, TOKEN) as github:
        event: dict[str, Any] = json.loads(COMMENTED.read_text(encoding="utf-8"))
        event["issue"]["number"] = 2
        event["issue"]["pull_request"] = {"url": f"https://api.github.com/repos/{REPO}/pulls/2"}
        event["comment"]["body"] = "LGTM, thanks"
        jobs = _runner(tmp_path, "issue_comment", event, github, base, run_id="4444").run("evals-pr.yml")
        assert [j.result for j in jobs["context"] + jobs["refusal"] + jobs["evals"]] == ["skipped"] * 3
        assert github.comments_on(2) == []


def forge(github: FakeGitHubPR, state: RunState, user: str = "github-actions[bot]") -> None:
    """A writer's forgery: our marker and key (any workflow of the repository can post as
    github-actions[bot]) with a state of their choosing, in place of the sticky comment."""
    github.state.comments = [c for c in github.state.comments if c.issue != 2]
    report = f"{MARKER}\n## Agent evals: **inconclusive**\n\n{state.line()}\n"
    github.add_comment(2, sticky_body(report, REPO), user=user)


def test_a_forged_continuation_state_is_refused_and_the_status_stays(tmp_path: Path, base: Path) -> None:
    """The state in the comment is only a pointer: the run it names is checked through the API
    (workflow file, event, branch, finished, our artifacts named for this PR, head and count)."""
    with FakeGitHubPR("Codertocat", "Hello-World", {2}, TOKEN) as github:
        github.permissions = {"Codertocat": "write"}
        first = labelled(tmp_path / "label", github, base)
        (comment,) = github.comments_on(2)
        genuine = read_state(comment.body)
        assert genuine is not None
        posted = github.status(HEAD_SHA, "agent-evals")
        facts = first.run_facts()
        assert inconclusive_artifact(2, HEAD_SHA, 0) in facts["artifacts"]
        # Runs a forger could point at, each holding artifacts with the right names.
        github.record_run(WorkflowRun(5151, **{**facts, "path": ".github/workflows/other.yml"}))
        github.record_run(WorkflowRun(5252, **{**facts, "event": "push"}))  # a branch's copy of the file
        github.record_run(WorkflowRun(5353, **{**facts, "head_branch": "feature"}))
        other_pr = [inconclusive_artifact(3, HEAD_SHA, 0), "evals-pr-run"]
        github.record_run(WorkflowRun(5454, **{**facts, "artifacts": other_pr}))
        github.record_run(WorkflowRun(5555, **{**facts, "conclusion": None}))  # still running
        cases = {
            "5151": "not a run of this repository's PR workflow",
            "5252": "did not run the default branch's workflow",
            "5353": "did not run the default branch's workflow",
            "5454": "holds no evals-pr-inconclusive-2-",
            "5555": "did not finish",
            "9999": "is not a run of Codertocat/Hello-World (404)",  # another repository's run id
        }
        for run_id, reason in cases.items():
            forge(github, RunState(run_id, genuine.run_dir, HEAD_SHA, 0, genuine.ruler))
            jobs = commented(tmp_path / f"run-{run_id}", github, base, first, "Codertocat").jobs
            (context,) = jobs["context"]
            assert context.result == "failure" and reason in context.log(), (run_id, context.log())
            assert [j.result for j in jobs["evals"] + jobs["verdict"] + jobs["publish"]] == ["skipped"] * 3
        # The genuine run, but a count it never reached (a reset count would loosen the interim line).
        forge(github, RunState("4242", genuine.run_dir, HEAD_SHA, 3, genuine.ruler))
        context = commented(tmp_path / "count", github, base, first, "Codertocat").jobs["context"][0]
        assert context.result == "failure" and "after 3 continuation(s)" in context.log()
        # Another head: pushed since, and the forger names the new head in the state.
        github.heads[2] = "e" * 40
        forge(github, RunState("4242", genuine.run_dir, "e" * 40, 0, genuine.ruler))
        context = commented(tmp_path / "head", github, base, first, "Codertocat").jobs["context"][0]
        assert (
            context.result == "failure" and f"holds no evals-pr-inconclusive-2-{'e' * 40}-0" in context.log()
        )
        github.heads.pop(2)
        # The genuine state in another bot's comment is not ours.
        forge(github, genuine, user="other-app[bot]")
        context = commented(tmp_path / "bot", github, base, first, "Codertocat").jobs["context"][0]
        assert context.result == "failure" and "no inconclusive agent-evals run" in context.log()
        assert github.status(HEAD_SHA, "agent-evals") == posted  # nothing was published again


def test_a_failed_evals_job_is_published_as_error(tmp_path: Path, base: Path) -> None:
    """No verdict of a run whose `evals` job failed: `verdict` does not run, and `publish` posts
    `error` (status, comment, exit) whatever the artifacts hold."""
    with FakeGitHubPR("Codertocat", "Hello-World", {2}, TOKEN) as github:
        github.label(2, "run-evals")
        event: dict[str, Any] = json.loads(LABELED.read_text(encoding="utf-8"))
        event["label"]["name"] = "run-evals"
        runner = _runner(tmp_path, "pull_request_target", event, github, base)
        runner.vars = {**VARS, "EVALS_WORLD": "live"}  # no live keys: seeding fails, nothing is measured
        jobs = runner.run("evals-pr.yml")
        assert jobs["evals"][0].result == "failure"
        assert jobs["verdict"][0].result == "skipped"
        (publish,) = jobs["publish"]
        assert publish.result == "failure" and "verdict: error (exit 3)" in publish.log()
        status = github.status(HEAD_SHA, "agent-evals")
        assert status is not None and status["state"] == "error"
        assert "the evals job failed" in status["description"]
        (comment,) = github.comments_on(2)
        assert "**error**" in comment.body and "The evals job ended in `failure`" in comment.body
