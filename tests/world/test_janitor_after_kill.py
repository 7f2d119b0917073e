"""A live run killed mid-trial (SIGKILL: no `finally`) leaves its repo and pages behind;
`janitor` finds them by name, lists them on a dry run, and removes them with --yes."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from evals.cli import main
from tests.support.fakes import FakeServices, Request
from tests.support.paths import ROOT


def hold_the_agents_first_call(services: FakeServices) -> tuple[threading.Event, threading.Event]:
    """The replay's first call reads the inbox; by then the trial's resources all exist."""
    reached, release = threading.Event(), threading.Event()

    def before(request: Request) -> None:
        arguments = (request.body or {}).get("arguments") or {}
        if request.path.endswith("/GMAIL_FETCH_EMAILS") and arguments.get("query") == "in:inbox":
            reached.set()
            release.wait(timeout=60)

    services.composio.before = before
    return reached, release


def leftovers(services: FakeServices) -> tuple[list[str], list[str]]:
    world = services.universe.world
    repos = sorted(r.name for r in world.repos.values())
    pages = sorted(
        p.title for p in world.notion.pages if not p.archived and p.title.startswith("agent-evals-")
    )
    return repos, pages


def test_janitor_removes_what_a_killed_run_left_behind(
    project: Path, services: FakeServices, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["seed-inbox", "--scenario", "trial-run"]) == 0
    reached, release = hold_the_agents_first_call(services)
    out = project / "runs" / "killed"
    command = [sys.executable, "-m", "evals", "run", "--world", "live", "--scenario", "trial-run"]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    log = project / "killed-run.log"
    with log.open("w") as stderr:
        proc = subprocess.Popen(
            [*command, "--agent", "replay:reference", "--out", str(out)],
            cwd=project,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=stderr,
        )
    try:
        while not reached.wait(timeout=0.2):  # until the agent's first call, or the run ends on its own
            if proc.poll() is not None:
                pytest.fail(
                    f"the run exited ({proc.returncode}) before the agent's first call: {log.read_text()}"
                )
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
    finally:
        release.set()
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=30)
    repos, pages = leftovers(services)
    assert repos == ["agent-evals-killed-t0"] and pages == ["agent-evals-killed-t0"]
    capsys.readouterr()

    assert main(["janitor"]) == 0
    listed = capsys.readouterr().out
    assert "agent-evals-killed-t0" in listed and "would remove" in listed and "--yes" in listed
    assert leftovers(services) == (repos, pages), "a dry run removes nothing"

    assert main(["janitor", "--yes"]) == 0
    assert "removed" in capsys.readouterr().out
    assert leftovers(services) == ([], [])
    assert main(["janitor"]) == 0
    assert "No leftover" in capsys.readouterr().out


def test_janitor_leaves_resources_that_do_not_follow_the_naming_convention(
    project: Path, services: FakeServices, capsys: pytest.CaptureFixture[str]
) -> None:
    from github import Auth, Github

    gh = Github(auth=Auth.Token("ghp-fake"), base_url=services.github.url)
    gh.get_organization("acme-evals").create_repo("production-service", auto_init=True)
    gh.get_organization("acme-evals").create_repo("agent-evals-other-run-t3", auto_init=True)
    assert main(["janitor", "--yes", "--run", "some-other-run"]) == 0
    assert sorted(r.name for r in services.universe.world.repos.values()) == [
        "agent-evals-other-run-t3",
        "production-service",
    ]
    assert main(["janitor", "--yes"]) == 0
    assert [r.name for r in services.universe.world.repos.values()] == ["production-service"]
