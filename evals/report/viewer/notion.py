"""The Notion pages a trial changed, each change shown against what the backend seeded.

An outcome holds each page's final blocks; its `seeded` state holds the pages as they stood before
the agent's first call. A reviewer asking "what did the agent do to this page" needs both: the block
it edited as it was and as it is (a table row as the cells that changed, under their column names;
text as an inline word diff, or as a before/after pair when too little is shared for a diff to read),
the blocks it added, the ones it archived, the properties it changed, and whether the page itself is
new. An outcome written before the seeded state was recorded shows the final text only, and says so.
"""

from __future__ import annotations

import difflib
import re
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # read, never built here: `compare` of a run without outcomes never imports them
    from evals.world.outcome import Block, Outcome, PageSnapshot

INLINE_MIN_RATIO = 0.4  # below this share of common words, two texts read better as a before/after pair
CONTEXT = 60  # characters of unchanged text kept on each side of a change
_WORDS = re.compile(r"\s+|[^\s]+")


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else f"{text[:limit]}… [{len(text) - limit} more characters]"


def _squeeze(text: str, first: bool, last: bool) -> str:
    """Unchanged text between changes, its middle left out when long (the start of the block keeps
    only its tail, the end only its head)."""
    keep_head = 0 if first else CONTEXT
    keep_tail = 0 if last else CONTEXT
    if len(text) <= keep_head + keep_tail + 20:
        return text
    return f"{text[:keep_head]}…{text[len(text) - keep_tail :] if keep_tail else ''}"


def inline_diff(before: str, after: str, limit: int) -> list[list[str]] | None:
    """`before` → `after` as segments `[op, text]` (op `=` kept, `-` removed, `+` added), word by
    word, unchanged stretches shortened to their context; None when the two share too little."""
    a, b = _WORDS.findall(before), _WORDS.findall(after)
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    if matcher.ratio() < INLINE_MIN_RATIO:
        return None
    segments: list[list[str]] = []
    codes = matcher.get_opcodes()
    for n, (tag, i1, i2, j1, j2) in enumerate(codes):
        if tag == "equal":
            segments.append(["=", _squeeze("".join(a[i1:i2]), n == 0, n == len(codes) - 1)])
            continue
        if i2 > i1:
            segments.append(["-", _clip("".join(a[i1:i2]), limit)])
        if j2 > j1:
            segments.append(["+", _clip("".join(b[j1:j2]), limit)])
    return segments


def _columns(table: Block | None) -> list[str]:
    if table is not None and table.columns is not None:  # a database: its property names
        return list(table.columns)
    if table is None or not table.children or table.children[0].cells is None:
        return []
    return list(table.children[0].cells)


def _cells(before: Block, after: Block, header: list[str], limit: int) -> list[dict[str, Any]]:
    """The cells of a table row that changed, by column name (or number, past the header)."""
    old, new = before.cells or [], after.cells or []
    out = []
    for n in range(max(len(old), len(new))):
        was, now = (old[n] if n < len(old) else ""), (new[n] if n < len(new) else "")
        if was != now:
            column = header[n] if n < len(header) and header[n] else f"column {n + 1}"
            out.append({"column": column, "before": _clip(was, limit), "after": _clip(now, limit)})
    return out


def _text(block: Block) -> str:
    return " | ".join(block.cells) if block.cells is not None else block.text


def _walk(blocks: list[Block], parent: Block | None = None) -> list[tuple[Block, Block | None]]:
    """(block, its parent block) for every block, depth first."""
    out: list[tuple[Block, Block | None]] = []
    for block in blocks:
        out.append((block, parent))
        out.extend(_walk(block.children, block))
    return out


def block_change(
    block: Block, parent: Block | None, seeded: dict[str, Block] | None, limit: int
) -> dict[str, Any] | None:
    """How one block differs from its seeded self, or None when it reads as seeded.

    `seeded` is every seeded block by id (None: not recorded). `before` is the seeded text (None for a
    block the agent added, or when the seed was not recorded); an edited block also carries either
    `diff` (inline segments, None for a before/after pair) or, for a table row, `cells` (the changed
    ones) and `row` (its first column, which names it); and `checked_before`."""
    if block.created_by != "seed":
        state = "added"
    elif block.archived:
        state = "archived"
    elif block.edited:
        state = "edited"
    else:
        return None
    change: dict[str, Any] = {
        "state": state,
        "type": block.type,
        "text": _clip(_text(block), limit),
        "checked": block.checked,
        "before": None,
    }
    old = seeded.get(block.id) if seeded is not None and state != "added" else None
    if state != "added" and seeded is None:
        change["before_unknown"] = True  # an outcome from before the seeded state was recorded
    if old is None:
        return change
    change["before"] = _clip(_text(old), limit)
    change["checked_before"] = old.checked
    if state == "edited":
        if block.cells is not None or old.cells is not None:
            header = _columns(parent)
            change["cells"] = _cells(old, block, header, limit)
            first = (block.cells or old.cells or [""])[0]
            change["row"] = f"{header[0]} {first}" if header and header[0] else first  # which row
        elif old.text != block.text:
            change["diff"] = inline_diff(old.text, block.text, limit)
    return change


def _properties(page: PageSnapshot, old: PageSnapshot | None, limit: int) -> list[dict[str, Any]]:
    """Properties that changed (every property of a new page), before → after."""
    before = old.properties if old is not None else {}
    names = list(page.properties) + [n for n in before if n not in page.properties]
    return [
        {
            "name": name,
            "before": _clip(before[name], limit) if name in before else None,
            "after": _clip(page.properties[name], limit) if name in page.properties else None,
        }
        for name in names
        if before.get(name) != page.properties.get(name)
    ]


def page_change(
    page: PageSnapshot, old: PageSnapshot | None, seeded: dict[str, Block] | None, limit: int
) -> dict[str, Any] | None:
    """One page's changes, or None when the agent left it as seeded."""
    walked = _walk(page.blocks)
    changed = [c for b, parent in walked if (c := block_change(b, parent, seeded, limit)) is not None]
    created = page.created_by != "seed"
    properties = _properties(page, old, limit) if created or old is not None else []
    title_before = old.title if old is not None and old.title != page.title else None
    if not (changed or created or page.archived or properties or title_before):
        return None
    return {
        "title": page.title,
        "title_before": title_before,
        "url": page.url,
        "created": created,
        "archived": page.archived,
        "properties": properties,
        "changed": changed,
        "unchanged": len(walked) - len(changed),
    }


def pages_view(outcome: Outcome, limit: int) -> list[dict[str, Any]]:
    """Every page the agent created, archived or changed, against the seeded state when recorded."""
    seeded_pages = {p.id: p for p in outcome.seeded.pages} if outcome.seeded is not None else None
    seeded_blocks = (
        {b.id: b for p in seeded_pages.values() for b, _ in _walk(p.blocks)}
        if seeded_pages is not None
        else None
    )
    out = []
    for page in outcome.pages:
        old = seeded_pages.get(page.id) if seeded_pages is not None else None
        if (view := page_change(page, old, seeded_blocks, limit)) is not None:
            out.append(view)
    return out
