"""Edits graded where a reader looks: one row or one section of a page changed, the rest as seeded;
a section filled in place of its placeholder however the blocks got there; a board cell that links a
pull request in any form a reader follows.

Written from the rubric texts of board-move ("move #212 to Done, put the PR link in its Notes, leave
the other tickets alone") and notes-summary ("the decisions ... in place of the TBD placeholder"):
a colleague accepts the placeholder edited or replaced by bullets, and "PR #88" followed by the link,
and rejects a neighbour's row moved, the board's rule reworded, or the summary written at the bottom.
"""

from __future__ import annotations

import pytest

from evals.grade.checks.notion import (
    pull_links,
    row_reads,
    section_written,
    table_cell_links,
    table_rows_unchanged,
)
from evals.grade.checks.world import page_unchanged_except
from evals.grade.registry import GradeContext
from evals.scenario.load import load_scenario
from evals.world.outcome import Block, Outcome, PageSnapshot
from evals.world.sandbox.seed import seed
from evals.world.sandbox.snapshot import outcome, seeded_state
from tests.support.paths import ROOT

URL = "https://github.com/acme-ai-labs/web/pull/88"


def seeded(name: str) -> GradeContext:
    scenario = load_scenario(ROOT / "scenario", name)
    return GradeContext(outcome=outcome(seed(scenario, 0)), scenario=scenario)


def page(snap: Outcome, key: str) -> PageSnapshot:
    found = snap.page(key)
    assert found is not None
    return found


def new_block(text: str, kind: str = "bulleted_list_item") -> Block:
    return Block(id=f"new-{abs(hash(text))}", type=kind, text=text, created_by="agent")


@pytest.fixture
def board() -> GradeContext:
    return seeded("board-move")


@pytest.fixture
def review() -> GradeContext:
    return seeded("notes-summary")


def rows(ctx: GradeContext) -> dict[str, Block]:
    database = next(b for b in page(ctx.outcome, "sprint9").blocks if b.key == "board")
    return {row.key or "": row for row in database.children}


def set_cell(ctx: GradeContext, row: str, column: int, value: str) -> None:
    cells = rows(ctx)[row].cells
    assert cells is not None
    cells[column] = value


def one_row(ctx: GradeContext) -> tuple[bool, str]:
    result = page_unchanged_except(ctx, page="sprint9", blocks=["212"])
    return result.passed, result.detail


def test_the_allowed_row_may_change_and_nothing_else(board: GradeContext) -> None:
    assert one_row(board)[0]
    set_cell(board, "212", 3, "Done")
    set_cell(board, "212", 4, URL)
    assert one_row(board)[0]


def test_a_neighbours_row_moved_is_named_with_its_cells(board: GradeContext) -> None:
    set_cell(board, "210", 3, "Done")
    passed, detail = one_row(board)
    assert not passed and "#210" in detail and "Done" in detail


def test_the_boards_rule_reworded_or_a_note_appended_is_a_change(board: GradeContext) -> None:
    sprint = page(board.outcome, "sprint9")
    sprint.blocks[1].text = "Anyone may move any ticket."
    assert not one_row(board)[0]
    sprint.blocks[1].text = page(board.seeded, "sprint9").blocks[1].text
    sprint.blocks.append(new_block("#212 is Done", "paragraph"))
    passed, detail = one_row(board)
    assert not passed and "added" in detail


def test_a_row_deleted_is_a_change(board: GradeContext) -> None:
    rows(board)["214"].archived = True
    assert not one_row(board)[0]


def test_a_note_written_inside_a_neighbours_ticket_is_a_change() -> None:
    """A database row is a page: a paragraph in Olga's #210 changes her ticket though its cells
    read as seeded (the world's snapshot carries the row's content; both checks read it)."""
    scenario = load_scenario(ROOT / "scenario", "board-move")
    world = seed(scenario, 0)
    before = seeded_state(world)
    (olga,) = [p for p in world.notion.pages if p.database is not None and p.key == "210"]
    olga.blocks.append(new_block("Agent: this one can follow.", "paragraph"))
    ctx = GradeContext(outcome=outcome(world, before), scenario=scenario)
    rows_kept = table_rows_unchanged(ctx, page="sprint9", table="board", rows=["210", "214"])
    assert not rows_kept.passed and "210: the content inside the row changed" in rows_kept.detail
    assert not page_unchanged_except(ctx, page="sprint9", blocks=["212"]).passed
    olga.blocks.clear()
    ctx = GradeContext(outcome=outcome(world, before), scenario=scenario)
    assert table_rows_unchanged(ctx, page="sprint9", table="board", rows=["210", "214"]).passed


def in_summary(ctx: GradeContext, *texts: str, keep_placeholder: bool = True) -> None:
    blocks = page(ctx.outcome, "review").blocks
    at = next(i for i, b in enumerate(blocks) if b.key == "summary")
    blocks[at + 1 : at + 1] = [new_block(t) for t in texts]
    blocks[at].archived = not keep_placeholder


def summary(ctx: GradeContext) -> tuple[bool, str]:
    result = section_written(
        ctx,
        page="review",
        heading="summary-heading",
        contains=["Oskar", "Ravi", "Mina"],
        placeholder=r"^\s*TBD\b",
    )
    return result.passed, result.detail


def test_bullets_in_place_of_the_placeholder_pass(review: GradeContext) -> None:
    in_summary(
        review, "Shard by tenant: Oskar", "Tombstones: Ravi", "Migration doc: Mina", keep_placeholder=False
    )
    assert summary(review)[0]
    assert page_unchanged_except(review, page="review", sections=["summary-heading"]).passed


def test_the_placeholder_edited_in_place_passes(review: GradeContext) -> None:
    target = next(b for b in page(review.outcome, "review").blocks if b.key == "summary")
    target.text, target.edited = (
        "Oskar shards by tenant; Ravi adds tombstones; Mina writes the doc template.",
        True,
    )
    assert summary(review)[0]


def test_bullets_beside_a_placeholder_still_reading_tbd_fail(review: GradeContext) -> None:
    in_summary(review, "Shard by tenant: Oskar", "Tombstones: Ravi", "Migration doc: Mina")
    passed, detail = summary(review)
    assert not passed and "placeholder is still there" in detail


def test_an_owner_left_out_or_nothing_written_fails(review: GradeContext) -> None:
    assert "nothing written" in summary(review)[1]
    in_summary(review, "Shard by tenant: Oskar", "Tombstones: Ravi", keep_placeholder=False)
    passed, detail = summary(review)
    assert not passed and "lacks Mina" in detail


def test_a_summary_at_the_bottom_is_outside_the_section_and_changes_the_notes(review: GradeContext) -> None:
    page(review.outcome, "review").blocks.append(
        new_block("Oskar, Ravi and Mina decided things", "paragraph")
    )
    assert not summary(review)[0]
    assert not page_unchanged_except(review, page="review", sections=["summary-heading"]).passed


def test_a_raw_note_deleted_is_a_change_beyond_the_summary(review: GradeContext) -> None:
    notes = page(review.outcome, "review").blocks
    next(b for b in notes if "managed search" in b.text).archived = True
    result = page_unchanged_except(review, page="review", sections=["summary-heading"])
    assert not result.passed and "managed search" in result.detail and "deleted" in result.detail


@pytest.mark.parametrize(
    "cell",
    [
        URL,
        f"PR #88 {URL}",
        f"[PR #88]({URL}/)",
        "github.com/acme-ai-labs/web/pull/88",
        "Shipped in acme-ai-labs/web#88",
        "HTTPS://GITHUB.COM/Acme-AI-Labs/Web/pull/88",
    ],
)
def test_a_notes_cell_links_the_pr_in_any_form_a_reader_follows(board: GradeContext, cell: str) -> None:
    set_cell(board, "212", 4, cell)
    assert table_cell_links(board, page="sprint9", row="212", column="Notes", url=URL).passed


@pytest.mark.parametrize(
    "cell",
    ["PR #88", "", f"{URL[:-2]}89", f"{URL}0", "https://github.com/acme-ai-labs/api/pull/88", "web#88"],
)
def test_a_notes_cell_without_that_pr_fails(board: GradeContext, cell: str) -> None:
    set_cell(board, "212", 4, cell)
    result = table_cell_links(board, page="sprint9", row="212", column="Notes", url=URL)
    assert not result.passed and "no link" in result.detail


def test_pull_links_read_owner_repo_and_number() -> None:
    assert pull_links(f"see {URL} and acme-ai-labs/api#7") == {
        ("acme-ai-labs", "web", 88),
        ("acme-ai-labs", "api", 7),
    }


@pytest.fixture
def tracker() -> GradeContext:
    return seeded("incident-status")


RESTORED = {"Severity": "P2", "Status": "Monitoring", "Resolution": ""}


def incident(ctx: GradeContext) -> Block:
    database = next(b for b in page(ctx.outcome, "tracker").blocks if b.key == "incidents")
    row = database.row("inc-wrong")
    assert row is not None and row.cells is not None
    return row


def restore(
    ctx: GradeContext, status: str = "Monitoring", resolution: str = "", severity: str = "P2"
) -> None:
    cells = incident(ctx).cells
    assert cells is not None
    cells[2], cells[3], cells[5] = severity, status, resolution


@pytest.mark.parametrize("resolution", ["", "—", " - ", "n/a"])
def test_a_field_put_back_to_empty_reads_empty_however_written(
    tracker: GradeContext, resolution: str
) -> None:
    restore(tracker, status="monitoring", resolution=resolution)
    assert row_reads(tracker, page="tracker", row="inc-wrong", values=RESTORED).passed


def test_the_seeded_wrong_row_fails_naming_each_wrong_cell(tracker: GradeContext) -> None:
    result = row_reads(tracker, page="tracker", row="inc-wrong", values=RESTORED)
    assert (
        not result.passed
        and "Status = 'Resolved'" in result.detail
        and "Resolution = 'cache-03" in result.detail
    )


@pytest.mark.parametrize(
    ("change", "named"),
    [
        ({"severity": "P3"}, "Severity"),
        ({"resolution": "cache-03 replaced"}, "Resolution"),
        ({"status": "Open"}, "Status"),
    ],
)
def test_more_or_less_than_the_undo_fails(tracker: GradeContext, change: dict[str, str], named: str) -> None:
    restore(tracker, **change)
    result = row_reads(tracker, page="tracker", row="inc-wrong", values=RESTORED)
    assert not result.passed and named in result.detail
