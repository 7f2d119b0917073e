"""Every response the fake GitHub gives PyGithub and the fake Composio's GitHub tools during a live
run and a janitor pass conforms to GitHub's official OpenAPI description (the schemas kept in
tests/fixtures/openapi/github.json)."""

from __future__ import annotations

from pathlib import Path

import pytest

from evals.cli import main
from tests.support.fakes import FakeServices
from tests.support.fakes.github_api import load_openapi
from tests.support.openapi import problems, validator


@pytest.mark.parametrize("owner", ["acme-evals", "evals-bot"], ids=["organisation", "own-account"])
def test_fake_github_answers_as_the_openapi_description_says(
    project: Path, services: FakeServices, monkeypatch: pytest.MonkeyPatch, owner: str
) -> None:
    monkeypatch.setenv("GITHUB_OWNER", owner)
    assert main(["seed-inbox", "--scenario", "trial-run"]) == 0
    run = ["run", "--world", "live", "--scenario", "trial-run", "--agent", "replay:reference"]
    assert main([*run, "--out", str(project / "runs" / "live")]) == 0
    assert main(["janitor"]) == 0
    seen, bad = problems(services)
    assert bad == []
    used = {
        "GET /user",
        "POST /repos/{owner}/{repo}/git/trees",
        "POST /repos/{owner}/{repo}/git/commits",
        "PATCH /repos/{owner}/{repo}/git/refs/{ref}",
        "GET /repos/{owner}/{repo}/pulls",
        "GET /repos/{owner}/{repo}/compare/{basehead}",
        "GET /repos/{owner}/{repo}/git/trees/{tree_sha}",
        "GET /repos/{owner}/{repo}/git/blobs/{file_sha}",
        "DELETE /repos/{owner}/{repo}",
        # the agent's tools (fake Composio calls the fake GitHub as Composio calls GitHub)
        "GET /repos/{owner}/{repo}/contents/{path}",
        "PUT /repos/{owner}/{repo}/contents/{path}",
        "GET /repos/{owner}/{repo}/branches/{branch}",
        "POST /repos/{owner}/{repo}/git/refs",
        "POST /repos/{owner}/{repo}/pulls",
    }
    assert used <= seen
    created = "POST /orgs/{org}/repos" if owner == "acme-evals" else "POST /user/repos"
    assert created in seen


def test_the_schemas_catch_a_response_missing_a_required_field() -> None:
    check = validator(load_openapi(), "GET /repos/{owner}/{repo}/git/ref/{ref}")
    ref = {
        "ref": "refs/heads/main",
        "node_id": "REF_1",
        "url": "http://127.0.0.1/repos/o/r/git/refs/heads/main",
        "object": {
            "type": "commit",
            "sha": "a" * 40,
            "url": "http://127.0.0.1/repos/o/r/git/commits/" + "a" * 40,
        },
    }
    assert list(check.iter_errors(ref)) == []
    del ref["object"]
    assert [e.message for e in check.iter_errors(ref)] == ["'object' is a required property"]
