"""Checks on Notion by block type and position: a field changed in place is not text appended below.

The seed's published runs lost points exactly here (status appended at the bottom while the
Status field still read OPEN), so these checks read the seeded block by its key, and treat new
blocks only as new blocks.
"""

from __future__ import annotations

from evals.grade.checks.common import mentions_pr
from evals.grade.registry import CheckResult, GradeContext, check, evidence
from evals.outcome import Block, PageSnapshot


def _page(ctx: GradeContext, key: str) -> PageSnapshot:
    page = ctx.outcome.page(key)
    if page is None:
        raise LookupError(f"page {key!r} is missing from the outcome")
    return page


def _walk(page: PageSnapshot) -> list[Block]:
    return [b for block in page.blocks for b in block.walk()]


def _table_with_row(page: PageSnapshot, row_key: str) -> tuple[Block, Block] | None:
    for block in _walk(page):
        if block.type == "table":
            row = block.row(row_key)
            if row is not None:
                return block, row
    return None


@check("notion.table_cell")
def table_cell(ctx: GradeContext, page: str, row: str, column: str, equals: str) -> CheckResult:
    """The seeded table row `row` now reads `equals` in `column` (case-insensitive, same row block)."""
    snap = _page(ctx, page)
    found = _table_with_row(snap, row)
    if found is None:
        return CheckResult(False, f"{snap.title}: row {row} is gone")
    table, block = found
    index = table.column(column)
    if index is None or block.cells is None:
        return CheckResult(False, f"{snap.title}: no column {column!r}")
    if block.archived:
        return CheckResult(False, f"{snap.title}: row {row} was deleted")
    value = block.cells[index]
    if value.strip().lower().startswith(equals.lower()):
        return CheckResult(True, f"{snap.title}: row {row} {column} = {value!r}")
    appended = [b.text for b in _walk(snap) if b.created_by == "agent" and row in b.text]
    hint = " (the agent appended text about it instead of changing the row)" if appended else ""
    return CheckResult(
        False,
        f"{snap.title}: row {row} {column} = {value!r}, expected {equals!r}{hint}",
        " | ".join(block.cells),
    )


def agent_text(page: PageSnapshot) -> str:
    """Text the agent wrote on a page: blocks it created, and seeded blocks it edited."""
    parts = []
    for block in _walk(page):
        if block.archived:
            continue
        if block.created_by == "agent" or block.edited:
            parts.append(" | ".join(block.cells) if block.cells is not None else block.text)
    return "\n".join(parts)


@check("notion.agent_wrote")
def agent_wrote(
    ctx: GradeContext, pages: list[str], contains: list[str], pr_link: bool = False
) -> CheckResult:
    """On one of `pages`, text the agent wrote contains every string in `contains` (and a PR link)."""
    misses = []
    for key in pages:
        snap = _page(ctx, key)
        text = agent_text(snap)
        if not text:
            misses.append(f"{snap.title}: nothing written")
            continue
        missing = [c for c in contains if c.lower() not in text.lower()]
        if pr_link and not mentions_pr(text, ctx.outcome):
            missing.append("a pull request link")
        if not missing:
            return CheckResult(
                True, f"{snap.title}: the agent's text has {', '.join(contains) or 'the link'}"
            )
        misses.append(f"{snap.title}: missing {', '.join(missing)}")
    return CheckResult(False, "; ".join(misses))


@evidence("notion.agent_text")
def notion_agent_text(ctx: GradeContext, pages: list[str]) -> str:
    """What the agent wrote on the given pages, page by page."""
    out = []
    for key in pages:
        snap = _page(ctx, key)
        out.append(f"## {snap.title}\n{agent_text(snap) or '(nothing written)'}")
    return "\n\n".join(out)
