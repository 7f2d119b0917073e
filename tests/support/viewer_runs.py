"""Runs the viewer tests read: one task per tier, and a Notion page the agent creates.

`tiered_run` runs board-move (L1), trial-run (L2) and Nightshift (L3) offline with their own replays
(`--agent auto`, two trials each): Nightshift's published runs score differently from each other and
trial-run full marks. Board-move's reference gains, in the test's copy of the project, two steps that
create a page under the sprint board and write a paragraph on it (replays are not part of the eval
definition, so the baseline still compares): a page the task did not ask for, so board-move loses its
collateral-write part and fails both trials, and the tiers' pass rates differ.
"""

from __future__ import annotations

from pathlib import Path

import yaml

from evals.cli import main

TIERED = ("board-move", "trial-run", "nightshift")
NEW_PAGE = "Sprint retro notes"
NEW_TEXT = "Shipped the ticket; the CSV export went out on time."


def add_new_page_steps(project: Path) -> None:
    """Board-move's reference, then NOTION_CREATE_NOTION_PAGE and NOTION_APPEND_TEXT_BLOCKS."""
    path = project / "scenario" / "board-move" / "replays" / "reference.yaml"
    replay = yaml.safe_load(path.read_text(encoding="utf-8"))
    replay["steps"] += [
        {
            "tool": "NOTION_CREATE_NOTION_PAGE",
            "args": {"parent_id": "${sprint.data.results.0.id}", "title": NEW_PAGE},
            "save": "retro",
        },
        {
            "tool": "NOTION_APPEND_TEXT_BLOCKS",
            "args": {
                "block_id": "${retro.data.id}",
                "children": [
                    {
                        "type": "paragraph",
                        "paragraph": {"rich_text": [{"type": "text", "text": {"content": NEW_TEXT}}]},
                    }
                ],
            },
        },
    ]
    path.write_text(yaml.safe_dump(replay, sort_keys=False), encoding="utf-8")


def tiered_run(project: Path, name: str = "tiered") -> Path:
    """The run directory of the three tasks, two trials each, with its summary.json."""
    add_new_page_steps(project)
    out = project / "runs" / name
    args = ["run", "--agent", "auto", "--trials", "2", "--out", str(out)]
    for task in TIERED:
        args += ["--scenario", task]
    assert main(args) in (0, 1)  # a verdict, whichever: the viewer shows both
    return out
