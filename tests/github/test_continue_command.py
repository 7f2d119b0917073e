"""`/evals continue` on a PR (evals/github/continuation.py), against a fake GitHub built from the
documented shapes: who may ask, what a push in between does, and where the state comes from."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from evals.cli import main
from evals.core.config import load_config
from evals.core.errors import BadInputError
from evals.github.comment import sticky_body
from evals.github.continuation import (
    RUN_ARTIFACT,
    Refused,
    RunState,
    continue_context,
    inconclusive_artifact,
    is_command,
    read_comment_event,
    read_state,
    refusal_reply,
    ruler_digest,
    workflow_file,
)
from evals.report.markdown import MARKER
from tests.support.fakes.github_pr_fake import FakeGitHubPR, WorkflowRun
from tests.support.paths import FIXTURES, ROOT

TOKEN = "ghs-continue-token-0001"
REPO = "Codertocat/Hello-World"
COMMENTED = FIXTURES / "webhooks" / "issue_comment.created.json"
LABELED = FIXTURES / "webhooks" / "pull_request.labeled.json"
HEAD: str = json.loads(LABELED.read_text(encoding="utf-8"))["pull_request"]["head"]["sha"]
SCENARIOS = ["trial-run"]
WORKFLOW_REF = f"{REPO}/.github/workflows/evals-pr.yml@refs/heads/master"  # GITHUB_WORKFLOW_REF
CONFIG, _ = load_config(ROOT)


def comment_event(body: str = "/evals continue", login: str = "Codertocat", pr: bool = True) -> Any:
    data: dict[str, Any] = json.loads(COMMENTED.read_text(encoding="utf-8"))
    data["issue"]["number"] = 2
    if pr:
        data["issue"]["pull_request"] = {"url": f"https://api.github.com/repos/{REPO}/pulls/2"}
    data["comment"]["body"] = body
    data["comment"]["user"]["login"] = login
    return read_comment_event(data, COMMENTED)


def state(head: str = HEAD, ruler: str | None = None) -> RunState:
    return RunState("4242", "pr-2-4242-1", head, 0, ruler or ruler_digest(ROOT, CONFIG, SCENARIOS))


def actions_run(run: RunState, **changes: Any) -> WorkflowRun:
    """The labelled run `run` names, as GitHub's API describes it: the PR workflow, started by
    pull_request_target on the default branch (`head_sha`: the base's commit), finished, with the run
    directory and the inconclusive marker for PR 2 at the state's head and count."""
    facts: dict[str, Any] = {
        "path": ".github/workflows/evals-pr.yml",
        "event": "pull_request_target",
        "head_branch": "master",
        "head_sha": "b" * 40,
        "conclusion": "failure",  # the publish job fails on an inconclusive verdict
        "artifacts": [RUN_ARTIFACT, inconclusive_artifact(2, run.head_sha, run.continuations)],
    }
    return WorkflowRun(int(run.workflow_run), **{**facts, **changes})


def inconclusive_comment(github: FakeGitHubPR, run: RunState, user: str = "github-actions[bot]") -> None:
    report = f"{MARKER}\n## Agent evals: **inconclusive**\n\n{run.line()}\n"
    github.add_comment(2, sticky_body(report, REPO), user=user)
    if int(run.workflow_run) not in github.runs:
        github.record_run(actions_run(run))


def ask(github: FakeGitHubPR, **kwargs: Any) -> Any:
    return continue_context(comment_event(**kwargs), ROOT, CONFIG, SCENARIOS, TOKEN, github.url, WORKFLOW_REF)


@pytest.fixture
def github() -> Any:
    with FakeGitHubPR("Codertocat", "Hello-World", {2}, TOKEN) as fake:
        fake.permissions = {
            "Codertocat": "write",
            "maintainer": "maintain",
            "reader": "read",
            "triager": "triage",
        }
        yield fake


def test_a_writer_continues_the_same_run_on_the_same_head(github: FakeGitHubPR) -> None:
    inconclusive_comment(github, state())
    found = ask(github)
    outputs = found.outputs()
    assert outputs["continue_from"] == "4242" and outputs["run_dir"] == "runs/pr-2-4242-1"
    assert outputs["head_sha"] == HEAD and outputs["continuations"] == "1" and outputs["number"] == "2"
    assert ask(github, login="maintainer").state.workflow_run == "4242"  # maintain reads as write


@pytest.mark.parametrize("login", ["reader", "triager", "stranger"])
def test_without_write_access_the_comment_is_refused(github: FakeGitHubPR, login: str) -> None:
    inconclusive_comment(github, state())
    with pytest.raises(Refused, match="needs write access"):
        ask(github, login=login)


def test_a_push_since_the_inconclusive_run_is_refused_with_a_message(github: FakeGitHubPR) -> None:
    inconclusive_comment(github, state())
    github.heads[2] = "f" * 40
    with pytest.raises(Refused, match=r"head moved from .* to ffffffffffff .*label the PR run-evals"):
        ask(github)


def test_a_pr_whose_last_verdict_is_decided_has_nothing_to_continue(github: FakeGitHubPR) -> None:
    github.add_comment(
        2, sticky_body(f"{MARKER}\n## Agent evals: **pass**\n", REPO), user="github-actions[bot]"
    )
    with pytest.raises(Refused, match="no inconclusive agent-evals run to continue"):
        ask(github)


def test_a_state_line_in_someone_elses_comment_is_not_read(github: FakeGitHubPR) -> None:
    inconclusive_comment(github, state(), user="mallory")
    with pytest.raises(Refused, match="no inconclusive agent-evals run"):
        ask(github)


def test_a_changed_ruler_is_refused(github: FakeGitHubPR) -> None:
    inconclusive_comment(github, state(ruler="0" * 32))
    with pytest.raises(Refused, match="eval definition or baseline changed"):
        ask(github)


@pytest.mark.parametrize(
    ("body", "pr"), [("/evals continue please", True), ("lgtm", True), ("/evals continue", False)]
)
def test_only_the_command_on_a_pull_request_counts(github: FakeGitHubPR, body: str, pr: bool) -> None:
    inconclusive_comment(github, state())
    with pytest.raises(Refused, match="not a `/evals continue` comment on a pull request"):
        ask(github, body=body, pr=pr)


def test_the_command_is_the_first_line() -> None:
    assert is_command("/evals continue\n\nthe flaky judge is fixed")
    assert is_command("  /evals continue  ")
    assert not is_command("please /evals continue")


def test_a_state_line_round_trips_and_a_malformed_one_is_none() -> None:
    run = state(ruler="a" * 32)
    assert read_state(f"text\n{run.line()}\n") == run
    assert read_state(run.line().replace(HEAD, "not-a-sha")) is None
    assert read_state(run.line().replace("pr-2-4242-1", "../../etc")) is None
    assert read_state("<!-- agent-evals-gate:continue {not json} -->") is None


def test_a_payload_that_is_not_a_comment_is_bad_input(tmp_path: Path) -> None:
    with pytest.raises(BadInputError, match="not an issue_comment event payload"):
        read_comment_event({"action": "created"}, tmp_path / "event.json")


def test_the_refusal_reply_mentions_only_the_person_who_asked() -> None:
    """The reason quotes names from the PR (a branch called `@acme/oncall`): they are not mentions."""
    body = refusal_reply("PR #2 targets @acme/oncall, not the default branch main", "reader", "")
    assert body.startswith("@reader `/evals continue` was not continued:")
    assert "@acme/oncall" not in body and "@\u200bacme/oncall" in body
    assert "workflow run" not in body  # no run to link outside Actions


def test_reply_refused_answers_on_the_pr_and_refuses_bad_input(
    github: FakeGitHubPR, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GITHUB_TOKEN", TOKEN)
    monkeypatch.setenv("GITHUB_API_URL", github.url)
    monkeypatch.setenv("GITHUB_SERVER_URL", "https://github.com")
    monkeypatch.setenv("GITHUB_REPOSITORY", REPO)
    monkeypatch.setenv("GITHUB_RUN_ID", "4343")
    data: dict[str, Any] = json.loads(COMMENTED.read_text(encoding="utf-8"))
    data["issue"]["number"] = 2
    data["issue"]["pull_request"] = {"url": f"https://api.github.com/repos/{REPO}/pulls/2"}
    data["comment"]["user"]["login"] = "reader"
    event = tmp_path / "event.json"
    event.write_text(json.dumps(data), encoding="utf-8")
    reason = "reader has read access to Codertocat/Hello-World: `/evals continue` needs write access"
    assert main(["github", "reply-refused", "--event", str(event), "--reason", reason]) == 0
    (reply,) = github.comments_on(2)
    assert reply.body.startswith("@reader `/evals continue` was not continued:\n\n> reader has read access")
    assert "(https://github.com/Codertocat/Hello-World/actions/runs/4343)" in reply.body
    assert main(["github", "reply-refused", "--event", str(event), "--reason", " "]) == 2  # nothing refused
    del data["issue"]["pull_request"]
    event.write_text(json.dumps(data), encoding="utf-8")
    assert main(["github", "reply-refused", "--event", str(event), "--reason", reason]) == 2  # an issue
    assert len(github.comments_on(2)) == 1


def test_the_context_script_leaves_the_refusal_as_one_output_line(
    github: FakeGitHubPR, tmp_path: Path
) -> None:
    """scripts/pr_context.sh: $GITHUB_OUTPUT is written by the command alone. It used to tee stdout
    into it too: the refusal's `::error` line then raced the command's own `refused=` write, and under
    load glued itself to it, so the refusal job saw no reason and the PR got no reply."""
    inconclusive_comment(github, state())
    data: dict[str, Any] = json.loads(COMMENTED.read_text(encoding="utf-8"))
    data["issue"]["number"] = 2
    data["issue"]["pull_request"] = {"url": f"https://api.github.com/repos/{REPO}/pulls/2"}
    data["comment"]["body"] = "/evals continue"
    data["comment"]["user"]["login"] = "reader"
    event, output = tmp_path / "event.json", tmp_path / "output"
    event.write_text(json.dumps(data), encoding="utf-8")
    output.touch()
    env = {
        **os.environ,
        "GITHUB_EVENT_PATH": str(event),
        "GITHUB_OUTPUT": str(output),
        "GITHUB_TOKEN": TOKEN,
        "GITHUB_API_URL": github.url,
        "GITHUB_WORKFLOW_REF": WORKFLOW_REF,
        "EVALS_SCENARIOS": " ".join(SCENARIOS),
        "PYTHONUNBUFFERED": "1",  # as on a runner: each print reaches the pipe as it is made
        "PATH": os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")]),
    }
    done = subprocess.run(
        ["bash", str(ROOT / "scripts" / "pr_context.sh")],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert (
        done.returncode == 2 and "::error title=Agent evals - not continued::reader has read" in done.stdout
    )
    lines = output.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 1 and lines[0].startswith("refused=reader has read access")


def test_the_workflow_file_is_read_from_each_of_githubs_spellings() -> None:
    assert workflow_file(WORKFLOW_REF) == ".github/workflows/evals-pr.yml"
    assert workflow_file(".github/workflows/evals-pr.yml") == ".github/workflows/evals-pr.yml"
    assert workflow_file("octo/repo/.github/workflows/ci.yml@main") == ".github/workflows/ci.yml"


@pytest.mark.parametrize(
    ("changes", "reason"),
    [
        ({"path": ".github/workflows/other.yml"}, "not a run of this repository's PR workflow"),
        ({"event": "push"}, "did not run the default branch's workflow"),  # a branch's copy of the file
        ({"event": "workflow_dispatch"}, "did not run the default branch's workflow"),
        ({"head_branch": "feature"}, "did not run the default branch's workflow"),
        ({"conclusion": None}, "did not finish"),
        ({"conclusion": "cancelled"}, "did not finish"),
        ({"artifacts": [RUN_ARTIFACT]}, "holds no evals-pr-inconclusive-2-"),  # a decided verdict
        (
            {"artifacts": [RUN_ARTIFACT, inconclusive_artifact(3, HEAD, 0)]},
            "holds no evals-pr-inconclusive-2-",
        ),
        ({"artifacts": [inconclusive_artifact(2, HEAD, 0)]}, "holds no evals-pr-run"),
    ],
)
def test_a_state_naming_a_run_that_is_not_ours_is_refused(
    github: FakeGitHubPR, changes: dict[str, Any], reason: str
) -> None:
    """Whatever the comment says, the run it names must be, by the API, an inconclusive run of this
    workflow (default branch's copy) for this PR at this head."""
    run = state()
    github.record_run(actions_run(run, **changes))
    inconclusive_comment(github, run)
    with pytest.raises(Refused, match=reason):
        ask(github)


def test_a_state_naming_another_head_count_or_unknown_run_is_refused(github: FakeGitHubPR) -> None:
    github.record_run(actions_run(state()))  # the genuine run: PR 2, HEAD, no continuation yet
    inconclusive_comment(github, RunState("4242", "pr-2-4242-1", HEAD, 2, state().ruler))
    with pytest.raises(Refused, match=r"holds no evals-pr-inconclusive-2-\w+-2"):
        ask(github)
    github.state.comments.clear()
    github.heads[2] = "f" * 40  # pushed since, and the state names the new head
    inconclusive_comment(github, state(head="f" * 40))
    with pytest.raises(Refused, match=f"holds no evals-pr-inconclusive-2-{'f' * 40}-0"):
        ask(github)
    github.state.comments.clear()
    github.heads.pop(2)
    inconclusive_comment(github, RunState("777", "pr-2-777-1", HEAD, 0, state().ruler))
    github.runs.pop(777)  # a run id this repository does not have (another repository's)
    with pytest.raises(Refused, match="is not a run of Codertocat/Hello-World"):
        ask(github)
    github.state.comments.clear()
    inconclusive_comment(github, RunState("4242", "pr-3-4242-1", HEAD, 0, state().ruler))
    with pytest.raises(Refused, match="not PR #2's"):
        ask(github)


def test_with_an_app_our_comment_is_the_apps_and_the_key_is_the_repositorys(
    github: FakeGitHubPR, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With a GitHub App the sticky comment is the App's bot's: it is read (continuing works), and a
    github-actions[bot] comment (any workflow can post as it) is not. With EVALS_COMMENT_KEY set, a
    comment keyed without it is not ours either."""
    monkeypatch.setenv("EVALS_COMMENT_AUTHOR", "agent-evals-gate[bot]")
    inconclusive_comment(github, state(), user="github-actions[bot]")
    with pytest.raises(Refused, match="no inconclusive agent-evals run"):
        ask(github)
    github.state.comments.clear()
    inconclusive_comment(github, state(), user="agent-evals-gate[bot]")
    assert ask(github).state.workflow_run == "4242"
    monkeypatch.setenv("EVALS_COMMENT_KEY", "a-secret-of-this-repository")
    with pytest.raises(Refused, match="no inconclusive agent-evals run"):
        ask(github)  # keyed before the secret was set: not ours
    github.state.comments.clear()
    inconclusive_comment(github, state(), user="agent-evals-gate[bot]")
    assert ask(github).state.workflow_run == "4242"
