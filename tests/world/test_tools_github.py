"""GitHub tools on the hydra-pipeline repo: contents, shas, branches, pull requests, diffs, commits."""

from __future__ import annotations

import base64
from typing import Any

import pytest

from evals.scenario.load import load_scenario
from evals.scenario.model import Scenario
from evals.world.sandbox.seed import seed
from evals.world.sandbox.snapshot import outcome
from evals.world.sandbox.tools.toolset import SandboxToolset
from tests.support.paths import ROOT

REPO = {"owner": "acme-ai-labs", "repo": "hydra-pipeline-0"}
SETTINGS = "hydra/config/settings.py"


@pytest.fixture(scope="module")
def scenario() -> Scenario:
    return load_scenario(ROOT / "scenario", "nightshift")


@pytest.fixture
def tools(scenario: Scenario) -> SandboxToolset:
    return SandboxToolset(seed(scenario, 0))


def b64(text: str) -> str:
    return base64.b64encode(text.encode()).decode()


def branch(tools: SandboxToolset, name: str) -> str:
    main = tools.execute("GITHUB_GET_A_BRANCH", {**REPO, "branch": "main"})["data"]["commit"]["sha"]
    made = tools.execute("GITHUB_CREATE_A_REFERENCE", {**REPO, "ref": f"refs/heads/{name}", "sha": main})
    assert made["successful"]
    return str(main)


def edit(tools: SandboxToolset, path: str, text: str, on: str, sha: str | None) -> dict[str, Any]:
    args = {**REPO, "path": path, "message": f"fix: edit {path} (#143)", "content": b64(text), "branch": on}
    if sha:
        args["sha"] = sha
    return tools.execute("GITHUB_CREATE_OR_UPDATE_FILE_CONTENTS", args)


def test_get_content_gives_a_directorys_metadata_and_decodes_a_file(tools: SandboxToolset) -> None:
    """As Composio documents: a directory's own metadata, not its entries (the tree lists those)."""
    folder = tools.execute("GITHUB_GET_REPOSITORY_CONTENT", {**REPO, "path": "hydra/config"})
    assert folder["successful"] and folder["data"]["type"] == "dir" and "content" not in folder["data"]
    assert (folder["data"]["name"], folder["data"]["path"]) == ("config", "hydra/config")
    listed = tools.execute("GITHUB_GET_A_TREE", {**REPO, "tree_sha": folder["data"]["sha"]})
    assert {e["path"] for e in listed["data"]["tree"]} == {"__init__.py", "settings.py"}
    got = tools.execute("GITHUB_GET_REPOSITORY_CONTENT", {**REPO, "path": SETTINGS})
    assert "DEBUG = True" in base64.b64decode(got["data"]["content"]).decode()
    owner_case = tools.execute(
        "GITHUB_GET_REPOSITORY_CONTENT", {**REPO, "owner": "ACME-AI-LABS", "path": SETTINGS}
    )
    assert owner_case["successful"]


def test_marcus_wrong_path_is_not_found(tools: SandboxToolset) -> None:
    wrong = tools.execute("GITHUB_GET_REPOSITORY_CONTENT", {**REPO, "path": "hydra/pipeline/redis_pool.py"})
    assert not wrong["successful"] and "Not Found" in wrong["error"]
    other_repo = tools.execute(
        "GITHUB_GET_REPOSITORY_CONTENT", {**REPO, "repo": "hydra-pipeline", "path": ""}
    )
    assert not other_repo["successful"]
    bad_ref = tools.execute("GITHUB_GET_REPOSITORY_CONTENT", {**REPO, "path": SETTINGS, "ref": "nope"})
    assert not bad_ref["successful"]


def test_an_update_needs_the_files_current_sha(tools: SandboxToolset) -> None:
    branch(tools, "fix/sec")
    current = tools.execute("GITHUB_GET_REPOSITORY_CONTENT", {**REPO, "path": SETTINGS})["data"]["sha"]
    missing = edit(tools, SETTINGS, "DEBUG = False\n", "fix/sec", None)
    stale = edit(tools, SETTINGS, "DEBUG = False\n", "fix/sec", "0" * 40)
    assert not missing["successful"] and "sha" in missing["error"]
    assert not stale["successful"]
    done = edit(tools, SETTINGS, "DEBUG = False\n", "fix/sec", current)
    assert done["successful"]
    again = edit(tools, SETTINGS, "DEBUG = 0\n", "fix/sec", current)
    assert not again["successful"], "the old sha is stale after an update"
    assert edit(tools, SETTINGS, "DEBUG = 0\n", "fix/sec", done["data"]["content"]["sha"])["successful"]


def test_creating_files_and_bad_content(tools: SandboxToolset) -> None:
    branch(tools, "docs")
    assert edit(tools, "docs/API.md", "# API\n", "docs", None)["successful"]
    assert not edit(tools, "docs/NEW.md", "x", "docs", "abc1234")["successful"]
    assert not edit(tools, "docs/API2.md", "x", "no-such-branch", None)["successful"]
    bad = tools.execute(
        "GITHUB_CREATE_OR_UPDATE_FILE_CONTENTS",
        {**REPO, "path": "x.txt", "message": "m", "content": "%%%not base64", "branch": "docs"},
    )
    assert not bad["successful"] and "base64" in bad["error"]


def test_refs_and_branches(tools: SandboxToolset) -> None:
    main = branch(tools, "fix/oom")
    assert not tools.execute("GITHUB_CREATE_A_REFERENCE", {**REPO, "ref": "refs/heads/fix/oom", "sha": main})[
        "successful"
    ]
    assert not tools.execute("GITHUB_CREATE_A_REFERENCE", {**REPO, "ref": "fix-oom", "sha": main})[
        "successful"
    ]
    assert not tools.execute("GITHUB_CREATE_A_REFERENCE", {**REPO, "ref": "refs/heads/x", "sha": "f" * 40})[
        "successful"
    ]
    listed = tools.execute("GITHUB_LIST_BRANCHES", {**REPO})
    assert [b["name"] for b in listed["data"]["details"]] == ["fix/oom", "main"], "a list is under details"
    assert not tools.execute("GITHUB_GET_A_BRANCH", {**REPO, "branch": "nope"})["successful"]


def test_pull_requests_open_list_get_and_show_their_files(tools: SandboxToolset) -> None:
    branch(tools, "fix/sec")
    empty = tools.execute(
        "GITHUB_CREATE_A_PULL_REQUEST", {**REPO, "head": "fix/sec", "base": "main", "title": "t"}
    )
    assert not empty["successful"] and "No commits" in empty["error"]
    sha = tools.execute("GITHUB_GET_REPOSITORY_CONTENT", {**REPO, "path": SETTINGS})["data"]["sha"]
    edit(tools, SETTINGS, "DEBUG = False\n", "fix/sec", sha)
    args = {**REPO, "head": "fix/sec", "base": "main", "title": "fix: gate DEBUG (#143)", "body": "SEC-011"}
    opened = tools.execute("GITHUB_CREATE_A_PULL_REQUEST", args)
    assert opened["successful"] and opened["data"]["html_url"].endswith("/pull/1")
    assert not tools.execute("GITHUB_CREATE_A_PULL_REQUEST", args)["successful"]
    assert not tools.execute("GITHUB_CREATE_A_PULL_REQUEST", {**args, "head": "nope"})["successful"]
    assert [p["number"] for p in tools.execute("GITHUB_LIST_PULL_REQUESTS", {**REPO})["data"]["details"]] == [
        1
    ]
    assert tools.execute("GITHUB_LIST_PULL_REQUESTS", {**REPO, "state": "closed"})["data"] == {"details": []}
    assert (
        tools.execute("GITHUB_GET_A_PULL_REQUEST", {**REPO, "pull_number": 1})["data"]["title"]
        == args["title"]
    )
    assert not tools.execute("GITHUB_GET_A_PULL_REQUEST", {**REPO, "pull_number": 9})["successful"]
    files = tools.execute("GITHUB_LIST_PULL_REQUESTS_FILES", {**REPO, "pull_number": 1})["data"]["details"]
    assert [(f["filename"], f["status"]) for f in files] == [(SETTINGS, "modified")]
    assert "+DEBUG = False" in files[0]["patch"] and files[0]["additions"] == 1
    assert outcome(tools.world).repos[0].pulls[0].changed == [SETTINGS]


def test_compare_and_list_commits(tools: SandboxToolset) -> None:
    branch(tools, "fix/sec")
    sha = tools.execute("GITHUB_GET_REPOSITORY_CONTENT", {**REPO, "path": SETTINGS})["data"]["sha"]
    edit(tools, SETTINGS, "DEBUG = False\n", "fix/sec", sha)
    compared = tools.execute("GITHUB_COMPARE_TWO_COMMITS", {**REPO, "basehead": "main...fix/sec"})["data"]
    assert (compared["status"], compared["ahead_by"], compared["behind_by"]) == ("ahead", 1, 0)
    assert [(f["filename"], f["status"]) for f in compared["files"]] == [(SETTINGS, "modified")]
    patch = compared["files"][0]["patch"]
    assert patch.startswith("@@") and "+DEBUG = False" in patch, "each file carries its own patch"
    assert "diff" not in compared, "GitHub has no top-level diff"
    assert not tools.execute("GITHUB_COMPARE_TWO_COMMITS", {**REPO, "basehead": "main..fix/sec"})[
        "successful"
    ]
    one = tools.execute("GITHUB_LIST_COMMITS", {**REPO, "sha": "fix/sec"})
    assert len(one["data"]["details"]) == 1
    assert one["data"]["details"][0]["commit"]["message"].startswith("fix:")
    both = tools.execute("GITHUB_LIST_COMMITS", {**REPO, "sha": "fix/sec", "per_page": 10})
    assert len(both["data"]["details"]) == 2
    touching = tools.execute(
        "GITHUB_LIST_COMMITS", {**REPO, "sha": "fix/sec", "per_page": 10, "path": "README.md"}
    )
    assert len(touching["data"]["details"]) == 1
    assert not tools.execute("GITHUB_LIST_COMMITS", {**REPO, "sha": "nope"})["successful"]


def test_the_tree_lists_every_file_when_recursive(tools: SandboxToolset) -> None:
    flat = tools.execute("GITHUB_GET_A_TREE", {**REPO, "tree_sha": "main"})
    entries = {(e["type"], e["path"]) for e in flat["data"]["tree"]}
    assert {("tree", "hydra"), ("tree", "k8s"), ("blob", ".env.example")} <= entries
    full = tools.execute("GITHUB_GET_A_TREE", {**REPO, "tree_sha": "main", "recursive": "1"})
    assert "hydra/connectors/redis_client.py" in {e["path"] for e in full["data"]["tree"]}
    assert not tools.execute("GITHUB_GET_A_TREE", {**REPO, "tree_sha": "nope"})["successful"]
