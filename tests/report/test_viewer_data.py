"""What the viewer's data says: tasks grouped by tier with the report's figures, and each Notion
change shown against the seeded state (before and after), new pages marked new."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from evals.cli import main
from evals.report.viewer.data import run_view
from evals.report.viewer.notion import CONTEXT, inline_diff, pages_view
from evals.world.outcome import Outcome
from tests.support.viewer_runs import NEW_PAGE, NEW_TEXT, tiered_run


def _pages(trial: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {p["title"]: p for p in trial["outcome"]["pages"]}


def test_an_edited_nightshift_block_shows_its_seeded_text_and_what_the_agent_made_of_it(
    project: Path,
) -> None:
    out = project / "runs" / "nightshift"
    main(
        ["run", "--scenario", "nightshift", "--agent", "replay:reference", "--trials", "1", "--out", str(out)]
    )
    (trial,) = run_view(out)["trials"]
    pages = _pages(trial)
    assert not any(p["created"] for p in pages.values())  # the reference only edits seeded pages

    incident = pages["INC-2025-0714: Hydra pipeline OOMKills"]
    status = next(c for c in incident["changed"] if c["text"].startswith("Status:"))
    assert (status["state"], status["before"], status["text"]) == (
        "edited",
        "Status: OPEN",
        "Status: RESOLVED",
    )
    assert status["diff"] == [["=", "Status: "], ["-", "OPEN"], ["+", "RESOLVED"]]

    # a placeholder replaced by prose shares too little for an inline diff: a before/after pair
    rca = next(c for c in incident["changed"] if c["before"] == "TBD: to be completed by the incident owner.")
    assert rca["state"] == "edited" and rca["diff"] is None and "buffer_size" in rca["text"]

    # rows the agent added to the incident log have no "before"
    added = [c for c in incident["changed"] if c["state"] == "added"]
    # rows the agent added to a database are pages
    assert len(added) == 3 and all(c["before"] is None and c["type"] == "page" for c in added)

    # a table row: only the cells that changed, by column name, and which row it is
    sprint = pages["Sprint 4"]
    row = next(c for c in sprint["changed"] if c["row"].endswith("#142"))
    assert {"column": "Status", "before": "To Do", "after": "Done"} in row["cells"]
    assert all(c["before"] != c["after"] for c in row["cells"]) and len(row["cells"]) == 2


def _outcome(seeded: bool) -> Outcome:
    board = {
        "id": "p-board",
        "key": "board",
        "title": "Board",
        "url": "https://www.notion.so/board",
        "properties": {"Status": "Open"},
        "blocks": [
            {"id": "b-todo", "type": "to_do", "text": "Ship it", "checked": False},
            {"id": "b-old", "type": "paragraph", "text": "Old note"},
            {"id": "b-same", "type": "paragraph", "text": "As seeded"},
        ],
    }
    after = json.loads(json.dumps(board))
    after["properties"] = {"Status": "Closed"}
    after["blocks"][0].update(checked=True, edited=True)
    after["blocks"][1].update(archived=True)
    created = {
        "id": "p-new",
        "key": None,
        "title": "Retro",
        "url": "https://www.notion.so/new",
        "created_by": "agent",
        "properties": {"title": "Retro"},
        "blocks": [{"id": "b-new", "type": "paragraph", "text": "Went well", "created_by": "agent"}],
    }
    return Outcome.model_validate(
        {
            "scenario": "s",
            "trial": 0,
            "pages": [after, created],
            "seeded": {"pages": [board]} if seeded else None,
        }
    )


def test_a_page_the_agent_created_is_new_and_a_seeded_page_shows_its_changed_properties() -> None:
    board, new = pages_view(_outcome(seeded=True), 2_000)
    assert new["created"] and [c["state"] for c in new["changed"]] == ["added"]
    assert new["properties"] == [{"name": "title", "before": None, "after": "Retro"}]

    assert not board["created"] and board["unchanged"] == 1
    assert board["properties"] == [{"name": "Status", "before": "Open", "after": "Closed"}]
    todo, old = board["changed"]
    assert (todo["state"], todo["checked_before"], todo["checked"]) == ("edited", False, True)
    assert (old["state"], old["before"]) == ("archived", "Old note")


def test_an_outcome_without_the_seeded_state_shows_the_final_text_and_says_so() -> None:
    board, new = pages_view(_outcome(seeded=False), 2_000)
    assert all(c["before_unknown"] and c["before"] is None for c in board["changed"])
    assert "before_unknown" not in new["changed"][0] and new["created"]


def test_an_inline_diff_keeps_the_changes_and_shortens_what_did_not_change() -> None:
    before = "x" * 500 + " the limit is 2Gi and " + "y" * 500
    after = "x" * 500 + " the limit is 4Gi and " + "y" * 500
    diff = inline_diff(before, after, 2_000)
    assert diff is not None and ["-", "2Gi"] in diff and ["+", "4Gi"] in diff
    shown = "".join(text for _, text in diff)
    assert len(shown) < 2 * CONTEXT + 60 and shown.startswith("…") and shown.endswith("…")
    assert inline_diff("TBD", "An entirely different paragraph of text", 2_000) is None


def test_tasks_are_grouped_by_tier_with_the_figures_of_the_report(full_project: Path) -> None:
    out = tiered_run(full_project)
    data = run_view(out)
    tiers = json.loads((out / "summary.json").read_text(encoding="utf-8"))["tiers"]
    groups = data["groups"]
    assert [g["tier"] for g in groups] == ["L1", "L2", "L3"]
    assert [[t["name"] for t in g["tasks"]] for g in groups] == [
        ["board-move"],
        ["trial-run"],
        ["nightshift"],
    ]
    for group in groups:
        assert group["stats"] == tiers[group["tier"]]
        (task,) = group["tasks"]
        assert [data["trials"][i]["scenario"] for i in task["trials"]] == [task["name"]] * 2
    l3 = groups[2]["tasks"][0]
    # the tiers differ: board-move loses its collateral-write point for the page the test's copy adds
    assert l3["pass_at_1"] == tiers["L3"]["pass_at_1"] > tiers["L1"]["pass_at_1"]

    # the new page shows as new, its paragraph as added
    board = data["trials"][groups[0]["tasks"][0]["trials"][0]]
    page = _pages(board)[NEW_PAGE]
    assert page["created"] and page["changed"][0]["text"] == NEW_TEXT

    # without summary.json (a run not compared yet) the tasks are listed under one heading
    (out / "summary.json").unlink()
    (group,) = run_view(out)["groups"]
    assert group["tier"] is None and [t["name"] for t in group["tasks"]] == list(
        json.loads((out / "run.json").read_text())["scenarios"]
    )
