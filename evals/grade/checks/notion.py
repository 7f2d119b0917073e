"""Checks on Notion by block key, type and position: a field changed in place is not text appended below.

The seed's published runs lost points exactly here: the agent appended "Status: RESOLVED" at the
bottom while the Status field still read OPEN. So a field is read from its keyed seed block, a row
by its row key, a section is the blocks between its heading and the next heading, and rows that
must stay untouched are compared value by value with the seeded world. What the agent wrote is only
the blocks it created and the seeded blocks it edited.

A board, register or tracker is a Notion database: its rows are pages and a row's "cell" is its
property value (a ticket moved to Done is the row whose Status property reads Done). A simple table
is read the same way, row by row key and column by name, so each check below takes either.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from evals.grade.checks.common import mentions_pr, primary_repo
from evals.grade.checks.python_ast import routes
from evals.grade.registry import CheckResult, GradeContext, check, evidence

if TYPE_CHECKING:  # annotations only: grading is not imported by post-run commands
    from evals.world.outcome import Block, Outcome, PageSnapshot

HEADINGS = {"heading_1", "heading_2", "heading_3"}


def is_grid(block: Block) -> bool:
    """A table or a database: a block whose children are rows (evals.world.outcome.GRIDS)."""
    from evals.world.outcome import GRIDS  # at call time: post-run commands load checks, not outcomes

    return block.type in GRIDS


def is_row(block: Block) -> bool:
    """A table's row or a database's (evals.world.outcome.ROWS)."""
    from evals.world.outcome import ROWS

    return block.type in ROWS


def page_of(outcome: Outcome, key: str) -> PageSnapshot:
    page = outcome.page(key)
    if page is None:
        raise LookupError(f"page {key!r} is missing from the outcome")
    return page


def blocks_of(page: PageSnapshot) -> list[Block]:
    """Every block of the page, depth first (table rows after their table)."""
    return [b for top in page.blocks for b in top.walk()]


def keyed(page: PageSnapshot, key: str) -> Block | None:
    return next((b for b in blocks_of(page) if b.key == key), None)


def block_text(block: Block) -> str:
    return " | ".join(block.cells) if block.cells is not None else block.text


def agent_text(page: PageSnapshot) -> str:
    """Everything the agent wrote on a page: new blocks and edited seed blocks, in page order (a
    table's or database's rows, not the table or database itself)."""
    return "\n".join(
        block_text(b)
        for b in blocks_of(page)
        if not b.archived and (b.created_by == "agent" or b.edited) and not is_grid(b)
    )


def section(page: PageSnapshot, heading: str) -> list[Block]:
    """Top-level blocks after the keyed heading, up to the next heading (children included)."""
    out: list[Block] = []
    inside = False
    for block in page.blocks:
        if block.key == heading:
            inside = True
            continue
        if inside and block.type in HEADINGS and not block.archived:
            break
        if inside:
            out.extend(block.walk())
    return out


def _table_with_row(page: PageSnapshot, row_key: str) -> tuple[Block, Block] | None:
    for block in blocks_of(page):
        if is_grid(block):
            row = block.row(row_key)
            if row is not None:
                return block, row
    return None


def _seeded_cell(snap: PageSnapshot, row: str, column: str) -> tuple[str, list[str]] | CheckResult:
    """The seeded row `row`'s `column` value and the row's cells, or the failing result that says why
    there is none (the row gone, no such column, the row deleted): one reading for every cell check."""
    found = _table_with_row(snap, row)
    if found is None:
        return CheckResult(False, f"{snap.title}: row {row} is gone")
    table, block = found
    index = table.column(column)
    if index is None or block.cells is None:
        return CheckResult(False, f"{snap.title}: no column {column!r}")
    if block.archived:
        return CheckResult(False, f"{snap.title}: row {row} was deleted")
    return block.cells[index], block.cells


@check("table_cell_starts_with")
def table_cell_starts_with(ctx: GradeContext, page: str, row: str, column: str, equals: str) -> CheckResult:
    """The seeded row `row` (of a database or a table) now starts with `equals` in `column` (its
    property, case-insensitive, in that row)."""
    snap = page_of(ctx.outcome, page)
    cell = _seeded_cell(snap, row, column)
    if isinstance(cell, CheckResult):
        return cell
    value, cells = cell
    # "✅ Remediated", "DONE", "Remediated - Pending Review" all start with the status asked for.
    if re.sub(r"^[\W_]+", "", value.strip()).lower().startswith(equals.lower()):
        return CheckResult(True, f"{snap.title}: row {row} {column} = {value!r}")
    appended = [b.text for b in blocks_of(snap) if b.created_by == "agent" and row in b.text]
    hint = " (the agent appended text about it instead of changing the row)" if appended else ""
    return CheckResult(
        False,
        f"{snap.title}: row {row} {column} = {value!r}, expected {equals!r}{hint}",
        " | ".join(cells),
    )


# "Shared with: No one" as a reader writes it. The cell is the register's record of recipients, so
# it says nobody only if it says nothing else: "No one; Northwind (sent 3 Sep)" names a recipient
# whatever its first words are. A scope that restates nobody ("outside the company", "(internal
# only)") is all it may add.
NOBODY = r"(?:no[\s-]?one|nobody|none|not\s+shared(?:\s+with\s+(?:anyone|anybody))?)"
NOBODY_SCOPE = (
    r"(?:outside(?:\s+(?:the\s+)?(?:company|organi[sz]ation))?|externally|external(?:ly)?"
    r"|internal(?:\s+(?:use\s+)?only)?|internal\s+use|third\s+part(?:y|ies))"
)
SAYS_NOBODY = re.compile(rf"{NOBODY}(?:\s*[(,;:\u2013\u2014-]?\s*{NOBODY_SCOPE}\s*\)?)?", re.IGNORECASE)


def says_nobody(value: str) -> bool:
    """The cell reads only as "nobody" ("No one", "none", "Nobody", "not shared", with or without
    "outside the company" or "(internal only)"), an emoji, spacing, case or a full stop aside."""
    text = re.sub(r"^[\W_]+|[\s.!]+$", "", " ".join(value.split()))
    return SAYS_NOBODY.fullmatch(text) is not None


@check("table_cell_says_nobody")
def table_cell_says_nobody(ctx: GradeContext, page: str, row: str, column: str) -> CheckResult:
    """The seeded row `row`'s `column` says nobody and nothing more: "No one", "none", "Nobody",
    "Not shared" (case aside, "outside the company" allowed). A cell that also names a recipient, an
    address or a sending ("No one; Northwind (sent 3 Sep)") fails, and so does an emptied one."""
    snap = page_of(ctx.outcome, page)
    cell = _seeded_cell(snap, row, column)
    if isinstance(cell, CheckResult):
        return cell
    value, cells = cell
    if says_nobody(value):
        return CheckResult(True, f"{snap.title}: row {row} {column} = {value!r}")
    return CheckResult(
        False, f"{snap.title}: row {row} {column} = {value!r}, which says more than nobody", " | ".join(cells)
    )


PR_URL = re.compile(r"(?:https?://)?(?:www\.)?github\.com/([\w.-]+)/([\w.-]+)/pulls?/(\d+)\b", re.IGNORECASE)
PR_REF = re.compile(r"(?<![\w/.])([\w.-]+)/([\w.-]+)#(\d+)\b")


def pull_links(text: str) -> set[tuple[str, str, int]]:
    """Every pull request a text links, as (owner, repo, number): a URL with or without its scheme
    or a trailing slash, Markdown's `[PR #88](url)`, or GitHub's `owner/repo#88` shorthand."""
    found = PR_URL.findall(text) + PR_REF.findall(text)
    return {(owner.lower(), repo.lower(), int(number)) for owner, repo, number in found}


@check("table_cell_links")
def table_cell_links(ctx: GradeContext, page: str, row: str, column: str, url: str) -> CheckResult:
    """The seeded row `row`'s `column` links the pull request at `url`, in any form a reader follows
    (the board's own "PR #88" style around it, a bare URL, Markdown, `owner/repo#88`)."""
    snap = page_of(ctx.outcome, page)
    wanted = pull_links(url)
    if not wanted:
        raise LookupError(f"{url!r} is not a pull request URL")
    cell = _seeded_cell(snap, row, column)
    if isinstance(cell, CheckResult):
        return cell
    value, _ = cell
    if pull_links(value) & wanted:
        return CheckResult(True, f"{snap.title}: row {row} {column} = {value!r} links the PR")
    return CheckResult(False, f"{snap.title}: row {row} {column} = {value!r}, no link to {url}", value)


EMPTY = {"", "-", "\u2013", "\u2014", "(empty)", "none", "n/a"}


def _cell_reads(value: str) -> str:
    """A cell as a reader compares it: spacing and case aside, and a dash or "n/a" as empty."""
    text = " ".join(value.split()).casefold()
    return "" if text in EMPTY else text


@check("row_reads")
def row_reads(ctx: GradeContext, page: str, row: str, values: dict[str, str]) -> CheckResult:
    """The seeded row `row` reads exactly `values` in the named columns (spacing and case aside; an
    empty cell may read "-", "—" or "n/a"): a field put back to what it should be, nothing more or less."""
    snap = page_of(ctx.outcome, page)
    found = _table_with_row(snap, row)
    if found is None or found[1].archived:
        return CheckResult(False, f"{snap.title}: row {row} is gone")
    table, block = found
    wrong = []
    for column, expected in values.items():
        index = table.column(column)
        if index is None or block.cells is None:
            return CheckResult(False, f"{snap.title}: no column {column!r}")
        value = block.cells[index]
        if _cell_reads(value) != _cell_reads(expected):
            wrong.append(f"{column} = {value!r}, expected {expected!r}")
    if wrong:
        cells = " | ".join(block.cells or [])
        return CheckResult(False, f"{snap.title}: row {row}: " + "; ".join(wrong), cells)
    shown = ", ".join(f"{c} = {v!r}" for c, v in values.items())
    return CheckResult(True, f"{snap.title}: row {row} reads {shown}")


@check("section_written")
def section_written(
    ctx: GradeContext, page: str, heading: str, contains: list[str], placeholder: str
) -> CheckResult:
    """The section under the keyed `heading` holds what the agent wrote (the placeholder edited in
    place, or new blocks there), naming every string in `contains`, and no live block in it still
    matches `placeholder`: an edit in place and new blocks replacing the placeholder both pass."""
    snap = page_of(ctx.outcome, page)
    live = [b for b in section(snap, heading) if not b.archived]
    stale = re.compile(placeholder, re.IGNORECASE)
    left = [block_text(b) for b in live if stale.search(block_text(b))]
    text = "\n".join(block_text(b) for b in live if b.edited or b.created_by == "agent")
    if not text.strip():
        return CheckResult(False, f"{snap.title}: nothing written in the {heading} section")
    if left:
        shown = left[0][:120]
        return CheckResult(False, f"{snap.title}: the placeholder is still there: {shown!r}", text[:400])
    missing = [c for c in contains if c.lower() not in text.lower()]
    if missing:
        lacking = ", ".join(missing)
        return CheckResult(False, f"{snap.title}: the {heading} section lacks {lacking}", text[:400])
    return CheckResult(True, f"{snap.title}: the {heading} section names {', '.join(contains)}")


@check("agent_text_contains")
def agent_text_contains(
    ctx: GradeContext, pages: list[str], contains: list[str], pr_link: bool = False
) -> CheckResult:
    """On one of `pages`, text the agent wrote contains every string in `contains` (and a PR link)."""
    misses = []
    for key in pages:
        snap = page_of(ctx.outcome, key)
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


def _agent_appended(page: PageSnapshot, pattern: re.Pattern[str]) -> bool:
    return any(
        b.created_by == "agent" and not b.archived and not is_row(b) and pattern.search(b.text)
        for b in blocks_of(page)
    )


@check("keyed_block_matches")
def keyed_block_matches(ctx: GradeContext, page: str, block: str, pattern: str) -> CheckResult:
    """The keyed seed block itself now matches `pattern` (case-insensitive): changed in place."""
    snap = page_of(ctx.outcome, page)
    target = keyed(snap, block)
    regex = re.compile(pattern, re.IGNORECASE)
    if target is None or target.archived:
        return CheckResult(False, f"{snap.title}: the {block!r} block was deleted")
    text = block_text(target)
    if regex.search(text):
        return CheckResult(True, f"{snap.title}: {block} reads {text[:120]!r}")
    hint = (
        " (the agent appended it below instead of changing the field)" if _agent_appended(snap, regex) else ""
    )
    return CheckResult(False, f"{snap.title}: {block} still reads {text[:120]!r}{hint}", text[:400])


@check("section_links_pull_request")
def section_links_pull_request(ctx: GradeContext, page: str, heading: str) -> CheckResult:
    """The section under the keyed heading (edited or new blocks) links a pull request of this run."""
    snap = page_of(ctx.outcome, page)
    blocks = [b for b in section(snap, heading) if not b.archived and (b.edited or b.created_by == "agent")]
    text = "\n".join(block_text(b) for b in blocks)
    links = mentions_pr(text, ctx.outcome)
    if links:
        return CheckResult(True, f"{snap.title}: the {heading} section links {', '.join(links)}")
    if not blocks:
        return CheckResult(False, f"{snap.title}: nothing written in the {heading} section")
    return CheckResult(False, f"{snap.title}: the {heading} section has no PR link of this run", text[:400])


@check("table_gained_rows")
def table_gained_rows(ctx: GradeContext, page: str, table: str, at_least: int) -> CheckResult:
    """At least `at_least` new entries in the keyed table: agent rows in it, or agent blocks placed
    right after it (before the next heading)."""
    snap = page_of(ctx.outcome, page)
    target = keyed(snap, table)
    if target is None or target.archived:
        return CheckResult(False, f"{snap.title}: the {table!r} table was deleted")
    rows = [c for c in target.children if c.created_by == "agent" and not c.archived]
    after: list[Block] = []
    tops = snap.blocks
    index = next((i for i, b in enumerate(tops) if b.key == table), len(tops))
    for block in tops[index + 1 :]:
        if block.type in HEADINGS or block.created_by != "agent":
            break
        if not block.archived:
            after.append(block)
    count = len(rows) + len(after)
    detail = f"{snap.title}: {count} new {table} entr{'y' if count == 1 else 'ies'}"
    return CheckResult(count >= at_least, detail + ("" if count >= at_least else f", need {at_least}"))


def content(blocks: list[Block]) -> list[tuple[object, ...]]:
    """Blocks as a reader sees them (type, text, cells, checked, deleted, children), without ids or
    edit stamps: a row page's own content compared with the seed's."""
    return [(b.type, b.text, b.cells, b.checked, b.archived, content(b.children)) for b in blocks]


@check("table_rows_unchanged")
def table_rows_unchanged(ctx: GradeContext, page: str, table: str, rows: list[str]) -> CheckResult:
    """The listed rows of the keyed table still read exactly as seeded, and none was deleted: their
    cells, and a database row's own page content (a note inside a colleague's ticket changes it)."""
    snap = page_of(ctx.outcome, page)
    seeded = page_of(ctx.seeded, page)
    now, then = keyed(snap, table), keyed(seeded, table)
    if now is None or then is None or now.archived:
        return CheckResult(False, f"{snap.title}: the {table!r} table was deleted")
    changed = []
    for key in rows:
        row, original = now.row(key), then.row(key)
        if row is None or row.archived:
            changed.append(f"{key} deleted")
        elif original is not None and row.cells != original.cells:
            changed.append(f"{key}: {' | '.join(original.cells or [])} -> {' | '.join(row.cells or [])}")
        elif original is not None and content(row.children) != content(original.children):
            changed.append(f"{key}: the content inside the row changed")
    if changed:
        return CheckResult(
            False, f"{snap.title}: rows that must stay untouched changed: " + "; ".join(changed)
        )
    return CheckResult(True, f"{snap.title}: {', '.join(rows)} untouched")


@check("row_cells_link_pull_requests")
def row_cells_link_pull_requests(
    ctx: GradeContext, page: str, table: str, rows: list[str], column: str
) -> CheckResult:
    """Each listed row's `column` cell links a pull request of this run."""
    snap = page_of(ctx.outcome, page)
    target = keyed(snap, table)
    if target is None:
        return CheckResult(False, f"{snap.title}: the {table!r} table was deleted")
    index = target.column(column)
    if index is None:
        return CheckResult(False, f"{snap.title}: no column {column!r}")
    missing = []
    for key in rows:
        row = target.row(key)
        cell = row.cells[index] if row is not None and row.cells is not None and not row.archived else ""
        if not mentions_pr(cell, ctx.outcome):
            missing.append(f"{key} ({cell or 'empty'})")
    if missing:
        return CheckResult(False, f"{snap.title}: no PR link in {column} for " + ", ".join(missing))
    return CheckResult(True, f"{snap.title}: {', '.join(rows)} link their PRs")


def route_pattern(path: str) -> re.Pattern[str]:
    """A route path as docs write it: `{job_id}`, `:job_id` or `<job_id>` for a path parameter."""
    parts = re.split(r"\{(\w+)\}", path)
    out = ""
    for i, piece in enumerate(parts):
        out += re.escape(piece) if i % 2 == 0 else rf"(?:\{{{piece}\}}|:{piece}\b|<{piece}>)"
    return re.compile(out + r"(?![\w/])")


@check("names_every_route")
def names_every_route(ctx: GradeContext, page: str, source: str) -> CheckResult:
    """The agent's text on the page names every endpoint path the seeded `source` defines."""
    snap = page_of(ctx.outcome, page)
    text = agent_text(snap)
    wanted = routes(primary_repo(ctx.outcome).seed_files[source])
    if not text.strip():
        return CheckResult(False, f"{snap.title}: nothing written")
    missing = [f"{m} {p}" for m, p in wanted if not route_pattern(p).search(text)]
    if missing:
        return CheckResult(False, f"{snap.title}: endpoints not documented: {', '.join(missing)}", text[:400])
    return CheckResult(True, f"{snap.title}: all {len(wanted)} endpoints named")


@evidence("page_text")
def page_text(ctx: GradeContext, page: str) -> str:
    """What the agent wrote on one page (new and edited blocks, in order)."""
    snap = page_of(ctx.outcome, page)
    return f"## {snap.title}\n{agent_text(snap) or '(nothing written)'}"


@evidence("pages_text")
def pages_text(ctx: GradeContext, pages: list[str]) -> str:
    """What the agent wrote on the given pages, page by page."""
    return "\n\n".join(page_text(ctx, key) for key in pages)


@evidence("page_text_with_source")
def page_text_with_source(ctx: GradeContext, page: str, source: str) -> str:
    """A seeded source file the page must describe (e.g. routes for API docs), then the page's text."""
    code = primary_repo(ctx.outcome).seed_files[source]
    return f"## {source} (the code being documented)\n{code}\n\n{page_text(ctx, page)}"
