"""Reading the PR event on real @octokit/webhooks-examples payloads: label, PR number, fork or not."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from evals.cli import main as cli_main
from evals.core.errors import BadInputError
from evals.github.event import check, read_pull_request_event
from tests.support.paths import FIXTURES

WEBHOOKS = FIXTURES / "webhooks"


def context(args: list[str]) -> int:
    """`evals github context ARGS`, the PR workflow's first step."""
    return cli_main(["github", "context", *args])


def payload(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((WEBHOOKS / name).read_text(encoding="utf-8"))
    return data


def write(tmp_path: Path, data: dict[str, Any]) -> Path:
    path = tmp_path / "event.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


@pytest.mark.parametrize("name", ["pull_request.labeled.json", "pull_request.labeled.org.json"])
def test_a_labelled_same_repository_pr_gives_its_label_number_and_no_fork(name: str) -> None:
    ctx = read_pull_request_event(WEBHOOKS / name)
    assert (ctx.action, ctx.label, ctx.number) == ("labeled", "bug", 2)
    assert ctx.repository == "Codertocat/Hello-World"
    assert not ctx.is_fork
    assert ctx.head_sha == "ec26c3e57ca3a959ca5aad62de7213c562f8c821"


def test_a_synchronize_event_has_no_label() -> None:
    ctx = read_pull_request_event(WEBHOOKS / "pull_request.synchronize.json")
    assert ctx.action == "synchronize" and ctx.label is None and ctx.number == 2


def test_an_unlabeled_event_names_the_label_taken_off() -> None:
    ctx = read_pull_request_event(WEBHOOKS / "pull_request.unlabeled.json")
    assert (ctx.action, ctx.label) == ("unlabeled", "bug")


def test_a_pr_from_another_repository_is_a_fork(tmp_path: Path) -> None:
    data = payload("pull_request.labeled.json")
    data["pull_request"]["head"]["repo"]["full_name"] = "mallory/Hello-World"
    ctx = read_pull_request_event(write(tmp_path, data))
    assert ctx.is_fork and ctx.head_repository == "mallory/Hello-World"
    with pytest.raises(BadInputError, match="mallory/Hello-World"):
        check(ctx, require_label=None, refuse_fork=True)


def test_a_pr_whose_fork_was_deleted_is_still_a_fork(tmp_path: Path) -> None:
    data = payload("pull_request.labeled.json")
    data["pull_request"]["head"]["repo"] = None
    assert read_pull_request_event(write(tmp_path, data)).is_fork


def test_a_workflow_dispatch_payload_is_not_a_pull_request_event() -> None:
    with pytest.raises(BadInputError, match="not a pull_request event"):
        read_pull_request_event(WEBHOOKS / "workflow_dispatch.json")


def test_the_wrong_label_is_refused() -> None:
    ctx = read_pull_request_event(WEBHOOKS / "pull_request.labeled.json")
    with pytest.raises(BadInputError, match="'bug'"):
        check(ctx, require_label="run-evals", refuse_fork=True)


def test_the_command_prints_outputs_for_the_run_evals_label(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    data = payload("pull_request.labeled.json")
    data["label"]["name"] = "run-evals"
    monkeypatch.setenv("GITHUB_EVENT_PATH", str(write(tmp_path, data)))
    assert context(["--require-label", "run-evals", "--refuse-fork"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "number=2" in lines and "fork=false" in lines and "label=run-evals" in lines


def test_the_command_exits_2_for_a_fork_and_prints_no_outputs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    data = payload("pull_request.labeled.json")
    data["label"]["name"] = "run-evals"
    data["pull_request"]["head"]["repo"]["full_name"] = "mallory/Hello-World"
    event = str(write(tmp_path, data))
    assert context(["--event", event, "--require-label", "run-evals", "--refuse-fork"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and "never run with the eval secrets" in captured.err


def test_no_event_file_is_bad_input(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("GITHUB_EVENT_PATH", raising=False)
    assert context([]) == 2
    assert context(["--event", str(tmp_path / "missing.json")]) == 2


def test_a_pr_into_a_branch_other_than_the_default_one_is_refused_when_asked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = payload("pull_request.labeled.json")
    data["label"]["name"] = "run-evals"
    args = ["--require-label", "run-evals", "--refuse-fork", "--require-default-base"]
    assert context(["--event", str(write(tmp_path, data)), *args]) == 0
    assert f"base_sha={data['pull_request']['base']['sha']}" in capsys.readouterr().out.splitlines()
    data["pull_request"]["base"]["ref"] = "softer-baseline"
    assert context(["--event", str(write(tmp_path, data)), *args]) == 2
    assert "not the default branch master" in capsys.readouterr().err
