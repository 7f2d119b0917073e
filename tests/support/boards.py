"""Change a sandbox world's boards the way an agent's row tools would, for checks to grade: a board
is a database whose rows are pages (evals.world.sandbox.model), read by graders as a
`child_database` block with row blocks (evals.world.sandbox.snapshot)."""

from __future__ import annotations

from evals.world.sandbox.model import Database, Page, World


def board(world: World, page: str, key: str) -> Database:
    holder = next(p for p in world.notion.pages if p.key == page)
    return next(d for d in world.notion.databases if d.key == key and d.page == holder.id)


def row(world: World, page: str, key: str, row_key: str) -> Page:
    database = board(world, page, key)
    return next(r for r in world.notion.rows(database.id) if r.key == row_key)


def set_value(world: World, page: str, key: str, row_key: str, column: str, value: str) -> None:
    """Write one property of a seeded row (the title column is the row's title)."""
    database = board(world, page, key)
    target = row(world, page, key, row_key)
    if column == database.title_column:
        target.title = value
    else:
        assert database.column(column) is not None, column
        target.properties[column] = value
    target.edited = True


def add_row(world: World, page: str, key: str, values: list[str], row_id: str) -> Page:
    """A row the agent added, with its values in column order."""
    database = board(world, page, key)
    names = [c.name for c in database.columns]
    new = Page(
        id=row_id,
        title=values[0],
        properties=dict(zip(names[1:], values[1:], strict=True)),
        database=database.id,
        created_by="agent",
    )
    world.notion.pages.append(new)
    return new
