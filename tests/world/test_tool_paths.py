"""Paths stay inside: every sandbox tool that takes a path refuses `..`, absolute, empty and NUL
segments with an error envelope, and the trial goes on (the issue's attack: a model-chosen
`../../scripts/cleanup.sh` reached a script a later step ran with live tokens)."""

from __future__ import annotations

import base64
from typing import Any

import pytest

from evals.scenario.load import load_scenario
from evals.scenario.model import Scenario
from evals.world.paths import UnsafePath, checked_path, contained
from evals.world.sandbox.seed import seed
from evals.world.sandbox.snapshot import outcome
from evals.world.sandbox.tools import catalogue
from evals.world.sandbox.tools.toolset import SandboxToolset
from tests.support.paths import ROOT

REPO = {"owner": "acme-ai-labs", "repo": "hydra-pipeline-0"}
UNSAFE = [
    "../../scripts/cleanup.sh",
    "hydra/../../x.py",
    "/etc/passwd",
    "a//b.py",
    "./a.py",
    "a/./b",
    "",
    "a\x00.py",
]


@pytest.fixture(scope="module")
def scenario() -> Scenario:
    return load_scenario(ROOT / "scenario", "nightshift")


@pytest.fixture
def tools(scenario: Scenario) -> SandboxToolset:
    return SandboxToolset(seed(scenario, 0))


def write(path: str) -> dict[str, Any]:
    content = base64.b64encode(b"echo pwned\n").decode()
    return {**REPO, "path": path, "message": "x", "content": content, "branch": "main"}


@pytest.mark.parametrize("path", UNSAFE)
def test_a_file_write_outside_the_tree_is_an_error_envelope(tools: SandboxToolset, path: str) -> None:
    before = outcome(tools.world).repos[0].main_files
    result = tools.execute("GITHUB_CREATE_OR_UPDATE_FILE_CONTENTS", write(path))
    assert not result["successful"] and "Invalid path" in str(result["error"]), result
    assert outcome(tools.world).repos[0].main_files == before  # nothing committed
    assert tools.execute("GITHUB_GET_A_BRANCH", {**REPO, "branch": "main"})["successful"]  # the trial goes on


@pytest.mark.parametrize("path", [p for p in UNSAFE if p])  # "" names the root for a read
def test_reads_and_history_refuse_the_same_paths(tools: SandboxToolset, path: str) -> None:
    got = tools.execute("GITHUB_GET_REPOSITORY_CONTENT", {**REPO, "path": path})
    listed = tools.execute("GITHUB_LIST_COMMITS", {**REPO, "path": path})
    assert not got["successful"] and "Invalid path" in str(got["error"])
    assert not listed["successful"] and "Invalid path" in str(listed["error"])


def test_plain_paths_still_work(tools: SandboxToolset) -> None:
    assert tools.execute("GITHUB_GET_REPOSITORY_CONTENT", {**REPO, "path": ""})["data"]["type"] == "dir"
    assert tools.execute("GITHUB_CREATE_OR_UPDATE_FILE_CONTENTS", write("docs/new-note.md"))["successful"]


def test_every_tool_that_takes_a_path_is_one_the_validator_guards() -> None:
    """A new tool with a `path` parameter must be added here once it calls `tool_path`."""
    with_path = sorted(s for s, t in catalogue.build().items() if "path" in t.params.model_fields)
    assert with_path == [
        "GITHUB_CREATE_OR_UPDATE_FILE_CONTENTS",
        "GITHUB_GET_REPOSITORY_CONTENT",
        "GITHUB_LIST_COMMITS",
    ]


def test_the_rule_and_containment_on_disk(tmp_path: Any) -> None:
    for path in UNSAFE:
        with pytest.raises(UnsafePath):
            checked_path(path)
    (tmp_path / "tree").mkdir()
    (tmp_path / "tree" / "link").symlink_to(tmp_path)
    with pytest.raises(UnsafePath, match="outside"):
        contained(tmp_path / "tree", "link/escape.py")
    assert contained(tmp_path / "tree", "a/b.py") == (tmp_path / "tree" / "a" / "b.py").resolve()


# ---------------------------------------------------------------- what the real services refuse (#38)
# One tool call creating a 300-byte file name once made the grader's tree writer fail outside its
# error handling, so the parts that ran the agent's code became "grader error" and dropped out of
# the comparison. The tools now refuse what GitHub, Notion and Gmail refuse, as an error envelope.

TOO_LONG = {
    "a name over 255 bytes": "hydra/" + "n" * 256 + ".py",
    "a name of 255 bytes in 2-byte characters": "hydra/" + "é" * 128 + ".py",
    "a path over 4096 bytes": "/".join(["d" * 200] * 21) + "/x.py",
    "a lone surrogate": "hydra/bad\ud800.py",
}


@pytest.mark.parametrize("path", TOO_LONG.values(), ids=TOO_LONG.keys())
def test_names_github_would_not_store_are_an_error_envelope(tools: SandboxToolset, path: str) -> None:
    before = outcome(tools.world).repos[0].main_files
    result = tools.execute("GITHUB_CREATE_OR_UPDATE_FILE_CONTENTS", write(path))
    assert not result["successful"] and "Invalid path" in str(result["error"]), result
    assert outcome(tools.world).repos[0].main_files == before
    got = tools.execute("GITHUB_GET_REPOSITORY_CONTENT", {**REPO, "path": path})
    assert not got["successful"] and "Invalid path" in str(got["error"])


def test_the_longest_names_github_stores_are_still_written(tools: SandboxToolset) -> None:
    assert tools.execute("GITHUB_CREATE_OR_UPDATE_FILE_CONTENTS", write("docs/" + "n" * 252 + ".md"))[
        "successful"
    ]
    deep = "/".join(["d" * 200] * 20) + "/x.py"  # 4025 bytes
    assert tools.execute("GITHUB_CREATE_OR_UPDATE_FILE_CONTENTS", write(deep))["successful"]


def test_a_name_cannot_be_a_file_and_a_folder(tools: SandboxToolset) -> None:
    assert tools.execute("GITHUB_CREATE_OR_UPDATE_FILE_CONTENTS", write("notes"))["successful"]
    under = tools.execute("GITHUB_CREATE_OR_UPDATE_FILE_CONTENTS", write("notes/more.md"))
    over = tools.execute("GITHUB_CREATE_OR_UPDATE_FILE_CONTENTS", write("hydra"))
    assert not under["successful"] and "is a file" in str(under["error"])
    assert not over["successful"] and "is a directory" in str(over["error"])


def test_notion_and_gmail_refuse_what_their_apis_refuse(tools: SandboxToolset) -> None:
    parent = outcome(tools.world).pages[0].title
    long_title = tools.execute("NOTION_CREATE_NOTION_PAGE", {"parent_id": parent, "title": "t" * 2001})
    assert not long_title["successful"] and "title" in str(long_title["error"])
    assert tools.execute("NOTION_CREATE_NOTION_PAGE", {"parent_id": parent, "title": "t" * 2000})[
        "successful"
    ]
    page = outcome(tools.world).pages[0]
    pieces = [{"text": {"content": "x"}}] * 101
    renamed = tools.execute(
        "NOTION_UPDATE_PAGE", {"page_id": page.id, "properties": {"title": {"title": pieces}}}
    )
    assert not renamed["successful"] and "at most 100" in str(renamed["error"])
    address = {"recipient_email": "alex@example.com", "subject": "s"}
    huge = tools.execute("GMAIL_SEND_EMAIL", {**address, "body": "x" * (25 * 1024 * 1024)})
    assert not huge["successful"] and "Message too large" in str(huge["error"])
    odd = tools.execute("GMAIL_SEND_EMAIL", {**address, "body": "bad \ud800"})
    assert not odd["successful"] and "UTF-8" in str(odd["error"])
    assert tools.execute("GMAIL_SEND_EMAIL", {**address, "body": "fine"})["successful"]
