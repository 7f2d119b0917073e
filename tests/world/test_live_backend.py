"""The live backend, offline: PyGithub, notion-client and the composio SDK against local fakes.

Same seeding, snapshot and cleanup code as a real live run; only the base URLs differ.
"""

from __future__ import annotations

import asyncio
import base64
import json
import re
from pathlib import Path

import pytest

from evals.agents.base import AgentPrompts
from evals.cli import main
from evals.scenario.load import load_scenario
from evals.world.live.backend import LiveBackend
from evals.world.outcome import Block, Outcome
from evals.world.sandbox.environment import SandboxBackend
from evals.world.toolset import Toolset
from tests.support.fakes import TOOLKIT_VERSIONS, FakeServices, HttpError, Request
from tests.support.paths import ROOT
from tests.support.project import read_summary


def per_criterion(run: Path) -> dict[str, float]:
    return {name: c["mean"] for name, c in read_summary(run)["criteria"].items()}


def pushed_and_written(run: Path, trial: int = 0, scenario: str = "trial-run") -> tuple[object, ...]:
    """What a trial's outcome records of the agent's commits (each one's message, files, and its
    parent as the index of an earlier one of the agent's, None for the seed), how many of them the
    default branch holds, and each database row's own content: shas and ids differ between worlds."""
    outcome = Outcome.model_validate_json(
        (run / "trials" / scenario / str(trial) / "outcome.json").read_text()
    )
    (repo,) = outcome.repos
    index = {c.sha: i for i, c in enumerate(repo.commits)}
    commits = [(c.message, c.files, index.get(c.parent or "")) for c in repo.commits]
    rows = {
        (page.key, row.cells[0] if row.cells else ""): [(b.type, b.text, b.created_by) for b in row.children]
        for page in outcome.pages
        for top in page.blocks
        for row in top.walk()
        if row.type == "page"
    }
    return commits, repo.pushes_to_default(), rows


def test_the_reference_replay_scores_the_same_on_the_sandbox_and_on_live_services(
    project: Path, services: FakeServices, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["seed-inbox", "--scenario", "trial-run"]) == 0
    sandbox, live = project / "runs" / "sandbox", project / "runs" / "live"
    args = ["run", "--scenario", "trial-run", "--agent", "replay:reference", "--trials", "2"]
    assert main([*args, "--out", str(sandbox)]) == 0
    assert main([*args, "--world", "live", "--out", str(live)]) == 0
    assert per_criterion(live) == per_criterion(sandbox)
    assert read_summary(live)["total"]["mean"] == 7
    for trial in (0, 1):
        assert pushed_and_written(live, trial) == pushed_and_written(sandbox, trial)
        assert len(pushed_and_written(live, trial)[0]) == 2, "the fix and its test, two commits on the branch"
    assert "run one at a time" in capsys.readouterr().err
    versions = {(e["slug"].split("_")[0].lower(), e.get("version")) for e in services.composio.executed}
    assert versions == {(kit, TOOLKIT_VERSIONS[kit]) for kit in ("github", "gmail", "notion")}, "pinned"
    outcome = json.loads((live / "trials" / "trial-run" / "1" / "outcome.json").read_text())
    assert outcome["backend"] == "live"
    assert outcome["repos"][0]["full_name"].startswith("acme-evals/agent-evals-")
    assert [m["to"] for m in outcome["sent"]] == [["sam.rivera@acme.example"]], "trial 0's reply was reset"
    written = "".join(p.read_text(errors="replace") for p in live.rglob("*") if p.is_file())
    assert all(token not in written for token in ("ghp-fake", "ntn-fake")), "no token in the run directory"
    assert services.universe.world.repos == {}, "every trial repo was deleted"
    assert all(p.archived for p in services.universe.world.notion.pages if p.id != services.parent_page)


def test_the_regressed_replay_loses_the_same_points_live(project: Path, services: FakeServices) -> None:
    assert main(["seed-inbox", "--scenario", "trial-run"]) == 0
    sandbox, live = project / "runs" / "sandbox", project / "runs" / "live"
    args = ["run", "--scenario", "trial-run", "--agent", "replay:regressed"]
    assert main([*args, "--out", str(sandbox)]) == 1
    assert main([*args, "--world", "live", "--out", str(live)]) == 1
    assert per_criterion(live) == per_criterion(sandbox)


def parts(run: Path, scenario: str) -> dict[str, tuple[str, float | None, bool]]:
    grade = json.loads((run / "trials" / scenario / "0" / "grade.json").read_text())
    return {
        p["id"]: (p["status"], p["score"], p["judge"] is not None or p["layer"] == 2) for p in grade["parts"]
    }


def test_nightshift_live_gives_every_code_check_the_sandbox_result_and_never_a_different_judged_score(
    project: Path, services: FakeServices
) -> None:
    """Judged parts read evidence with run-specific facts (real timestamps, addresses); without an
    API key their human labels may not cover that evidence, and then they are unscored, never 0."""
    assert main(["seed-inbox", "--scenario", "nightshift"]) == 0
    sandbox, live = project / "runs" / "sandbox", project / "runs" / "live"
    args = ["run", "--scenario", "nightshift", "--agent", "replay:reference"]
    main([*args, "--out", str(sandbox)])
    main([*args, "--world", "live", "--out", str(live)])
    offline, online = parts(sandbox, "nightshift"), parts(live, "nightshift")
    assert online.keys() == offline.keys()
    for part, (status, score, judged) in online.items():
        if judged and status == "unscored":
            continue
        assert (status, score) == offline[part][:2], part
    code_only = [p for p, (_, _, judged) in offline.items() if not judged]
    assert code_only and all(online[p][1] == offline[p][1] == 1 for p in code_only)


async def trash_the_inbox(prompts: AgentPrompts, toolset: Toolset) -> str:
    """An agent that trashes every email in its inbox."""
    inbox = await toolset.call("GMAIL_FETCH_EMAILS", {"query": "in:inbox", "max_results": 10})
    for message in inbox["data"]["messages"]:
        await toolset.call("GMAIL_MOVE_TO_TRASH", {"message_id": message["messageId"]})
    return "trashed"


def test_each_trial_starts_with_the_seeded_emails_back_in_the_inbox(
    project: Path, services: FakeServices
) -> None:
    assert main(["seed-inbox", "--scenario", "trial-run"]) == 0
    out = project / "runs" / "trash"
    agent = "tests.world.test_live_backend:trash_the_inbox"
    main(
        [
            "run",
            "--world",
            "live",
            "--scenario",
            "trial-run",
            "--agent",
            agent,
            "--trials",
            "2",
            "--out",
            str(out),
        ]
    )
    for trial in (0, 1):
        calls = json.loads((out / "trials" / "trial-run" / str(trial) / "transcript.json").read_text())[
            "tool_calls"
        ]
        assert [m["subject"] for m in calls[0]["result"]["data"]["messages"]] == [
            "False positives from the moderation classifier"
        ]
        assert calls[1]["tool"] == "GMAIL_MOVE_TO_TRASH" and calls[1]["result"]["successful"]
    (message,) = services.universe.world.mailbox.messages
    assert "TRASH" in message.labels, "the last trial's trash stays until the next trial restores it"


async def delete_the_ticket_and_the_decision(prompts: AgentPrompts, toolset: Toolset) -> str:
    """An agent that deletes Sprint 4's row #131 (a page: NOTION_DELETE_BLOCK archives pages too) and
    the spec's decision paragraph, writes a note inside row #129 (the row page's own content), and
    pushes the README to main twice, changed and then reverted (main reads as seeded, yet was pushed to)."""
    sprint = await toolset.call("NOTION_SEARCH_NOTION_PAGE", {"query": "Sprint 4"})
    blocks = await toolset.call(
        "NOTION_FETCH_BLOCK_CONTENTS", {"block_id": sprint["data"]["results"][0]["id"]}
    )
    board = next(b for b in blocks["data"]["results"] if b["type"] == "child_database")
    rows = await toolset.call("NOTION_QUERY_DATABASE", {"database_id": board["id"]})
    row = next(r for r in rows["data"]["results"] if "#131" in json.dumps(r))
    await toolset.call("NOTION_DELETE_BLOCK", {"block_id": row["id"]})
    other = next(r for r in rows["data"]["results"] if "#129" in json.dumps(r))
    note = {
        "type": "paragraph",
        "paragraph": {"rich_text": [{"text": {"content": "Audit log ships Friday"}}]},
    }
    assert (await toolset.call("NOTION_APPEND_TEXT_BLOCKS", {"block_id": other["id"], "children": [note]}))[
        "successful"
    ]
    found = re.search(r"repository for this work is ([\w.-]+)/([\w.-]+)", prompts.system)
    assert found is not None
    where = {"owner": found[1], "repo": found[2].rstrip("."), "path": "README.md"}
    readme = await toolset.call("GITHUB_GET_REPOSITORY_CONTENT", where)
    seeded = base64.b64decode(readme["data"]["content"]).decode()
    for message, text in (("docs: a line", seeded + "A line.\n"), ("Revert docs: a line", seeded)):
        current = await toolset.call("GITHUB_GET_REPOSITORY_CONTENT", where)
        content = base64.b64encode(text.encode()).decode()
        update = {**where, "branch": "main", "message": message, "content": content}
        written = await toolset.call(
            "GITHUB_CREATE_OR_UPDATE_FILE_CONTENTS", {**update, "sha": current["data"]["sha"]}
        )
        assert written["successful"], written
    spec = await toolset.call("NOTION_SEARCH_NOTION_PAGE", {"query": "Threshold Spec"})
    blocks = await toolset.call("NOTION_FETCH_BLOCK_CONTENTS", {"block_id": spec["data"]["results"][0]["id"]})
    decision = next(b for b in blocks["data"]["results"] if "is 0.85" in json.dumps(b))
    await toolset.call("NOTION_DELETE_BLOCK", {"block_id": decision["id"]})
    return "deleted"


def seeded_blocks(run: Path) -> dict[str, list[tuple[object, ...]]]:
    outcome = json.loads((run / "trials" / "trial-run" / "0" / "outcome.json").read_text())

    def walk(blocks: list[dict[str, object]]) -> list[dict[str, object]]:
        return [x for b in blocks for x in [b, *walk(b["children"])]]  # type: ignore[arg-type]

    return {
        page["key"]: sorted(
            (str(b["key"]), b["type"], b["text"], str(b["cells"]), b["archived"])
            for b in walk(page["blocks"])
            if b["key"]
        )
        for page in outcome["pages"]
    }


def test_deleted_blocks_row_content_and_pushes_to_main_read_back_as_in_the_sandbox(
    project: Path, services: FakeServices
) -> None:
    agent = "tests.world.test_live_backend:delete_the_ticket_and_the_decision"
    sandbox, live = project / "runs" / "sandbox", project / "runs" / "live"
    main(["run", "--scenario", "trial-run", "--agent", agent, "--out", str(sandbox)])
    main(["run", "--world", "live", "--scenario", "trial-run", "--agent", agent, "--out", str(live)])
    assert seeded_blocks(live) == seeded_blocks(sandbox)
    commits, pushes, rows = pushed_and_written(live)
    assert (commits, pushes, rows) == pushed_and_written(sandbox)
    assert [m for m, *_ in commits] == ["docs: a line", "Revert docs: a line"] and pushes == 2
    assert commits[1][2] == 0 and "A line." in str(commits[0][1]["README.md"])
    assert rows[("sprint4", "#129")] == [("paragraph", "Audit log ships Friday", "agent")]
    archived = [
        (key, kind) for blocks in seeded_blocks(live).values() for key, kind, *_, gone in blocks if gone
    ]
    assert sorted(archived) == [("131", "page"), ("decision", "paragraph")]


def recorded_seed(run: Path) -> dict[str, list[tuple[object, ...]]]:
    """The seeded pages the backend recorded on trial 0's outcome, keyed blocks only (ids differ)."""
    outcome = Outcome.model_validate_json((run / "trials" / "trial-run" / "0" / "outcome.json").read_text())
    assert outcome.seeded is not None
    return {
        str(page.key): sorted(
            (str(b.key), b.type, b.text, str(b.cells), b.archived, b.created_by)
            for top in page.blocks
            for b in top.walk()
        )
        for page in outcome.seeded.pages
    }


def test_live_records_the_pages_it_seeded_as_the_sandbox_does_whatever_the_agent_deleted(
    project: Path, services: FakeServices
) -> None:
    agent = "tests.world.test_live_backend:delete_the_ticket_and_the_decision"
    sandbox, live = project / "runs" / "sandbox", project / "runs" / "live"
    main(["run", "--scenario", "trial-run", "--agent", agent, "--out", str(sandbox)])
    main(["run", "--world", "live", "--scenario", "trial-run", "--agent", agent, "--out", str(live)])
    seeded = recorded_seed(live)
    assert seeded == recorded_seed(sandbox)
    rows = [block for blocks in seeded.values() for block in blocks]
    assert ("131", "page") in [row[:2] for row in rows] and not any(row[4] for row in rows)
    assert {row[5] for row in rows} == {"seed"}


def test_a_resumed_trial_replaces_the_repo_its_killed_attempt_left(
    project: Path, services: FakeServices
) -> None:
    from github import Auth, Github

    gh = Github(auth=Auth.Token("ghp-fake"), base_url=services.github.url)
    gh.get_organization("acme-evals").create_repo("agent-evals-resumed-t0", auto_init=True)
    assert main(["seed-inbox", "--scenario", "trial-run"]) == 0
    out = project / "runs" / "resumed"
    assert (
        main(
            [
                "run",
                "--world",
                "live",
                "--scenario",
                "trial-run",
                "--agent",
                "replay:reference",
                "--out",
                str(out),
            ]
        )
        == 0
    )
    assert read_summary(out)["total"]["mean"] == 7
    assert services.universe.world.repos == {}


def untouched(outcome: Outcome) -> dict[str, object]:
    """What must not depend on the backend: files, page titles, properties, blocks and their keys."""

    def block(b: Block) -> tuple[object, ...]:
        return (
            b.type,
            b.text,
            b.key,
            b.checked,
            b.cells,
            [block(c) for c in b.children],
            b.archived,
            b.created_by,
        )

    return {
        "files": outcome.repos[0].seed_files,
        "pages": [
            (p.key, p.title, p.path, p.properties, [block(b) for b in p.blocks]) for p in outcome.pages
        ],
        "sent": outcome.sent,
    }


@pytest.mark.parametrize("name", ["trial-run", "nightshift"])
def test_a_freshly_seeded_live_world_reads_back_as_the_sandbox_world(
    services: FakeServices, name: str
) -> None:
    scenario = load_scenario(ROOT / "scenario", name)

    async def both() -> tuple[Outcome, Outcome]:
        live = await LiveBackend().create(scenario, 0, "fresh")
        try:
            return await live.snapshot(), await (
                await SandboxBackend().create(scenario, 0, "fresh")
            ).snapshot()
        finally:
            await live.close()

    live, sandbox = asyncio.run(both())
    assert untouched(live) == untouched(sandbox)
    assert live.pages and any(p.properties for p in live.pages) == any(p.properties for p in sandbox.pages)


def test_a_setup_that_fails_halfway_removes_what_it_had_created(
    project: Path, services: FakeServices
) -> None:
    created: list[str] = []

    def refuse_the_third_page(request: Request) -> None:
        if request.method == "POST" and request.path == "/v1/pages":
            created.append(request.path)
            if len(created) == 3:  # the container and the first scenario page exist by now
                raise HttpError(
                    400, {"object": "error", "status": 400, "code": "validation_error", "message": "no"}
                )

    services.notion.before = refuse_the_third_page
    assert main(["seed-inbox", "--scenario", "trial-run"]) == 0
    code = main(["run", "--world", "live", "--scenario", "trial-run", "--agent", "replay:reference"])
    assert code == 3
    assert services.universe.world.repos == {}
    trial_pages = [p for p in services.universe.world.notion.pages if p.id != services.parent_page]
    assert len(trial_pages) == 2 and all(p.archived for p in trial_pages)


@pytest.mark.parametrize(
    ("server", "refused", "named"),
    [
        ("github", r"/compare/[0-9a-f]{40}\.\.\.", "live snapshot failed"),  # the seed...head reads
        ("notion", "row", "live snapshot failed"),  # a board row's own content (its block children)
    ],
)
def test_history_or_row_content_the_token_may_not_read_fails_the_snapshot_never_reads_empty(
    services: FakeServices, server: str, refused: str, named: str
) -> None:
    """A 403 on what the snapshot reads (GitHub's documented answer to a token without access)
    is an infrastructure error for the trial: never an outcome with no commits or empty rows."""
    from evals.core.errors import InfrastructureError

    scenario = load_scenario(ROOT / "scenario", "trial-run")
    fake = services.github if server == "github" else services.notion
    body = {"message": "Resource not accessible by integration"}
    if server == "notion":
        body = {
            "object": "error",
            "status": 403,
            "code": "restricted_resource",
            "message": "Insufficient permissions",
        }

    def refuse(request: Request) -> None:
        if refused == "row":  # the children of Sprint 4's rows (#129, ...), nothing else
            rows = [p.id for p in services.universe.world.notion.pages if p.database and p.title[:1] == "#"]
            if rows and any(f"/blocks/{row}/children" in request.path for row in rows):
                raise HttpError(403, body)
        elif re.search(refused, request.path):
            raise HttpError(403, body)

    async def snapshot() -> None:
        live = await LiveBackend().create(scenario, 0, "refused")
        fake.before = refuse
        try:
            await live.snapshot()
        finally:
            fake.before = None
            await live.close()

    with pytest.raises(InfrastructureError, match=named):
        asyncio.run(snapshot())
    assert any(served.status == 403 for served in fake.served), "the refused read was made"
