"""The sandbox tool catalogue: every service module's toolkit, joined by slug.

Explicit on purpose: the list of toolkits below is the catalogue, and `build()` is the only place
they meet, so adding a service is adding its module here.
"""

from __future__ import annotations

from evals.world.sandbox.tools import github, gmail, notion, notion_rows
from evals.world.sandbox.tools.base import Tool, Toolkit

TOOLKITS: tuple[Toolkit, ...] = (github.TOOLS, gmail.TOOLS, notion.TOOLS, notion_rows.TOOLS)


def build(toolkits: tuple[Toolkit, ...] = TOOLKITS) -> dict[str, Tool]:
    """Every tool by Composio slug; a slug two toolkits define is a programming error."""
    out: dict[str, Tool] = {}
    for toolkit in toolkits:
        for slug, tool in toolkit.tools.items():
            if slug in out:
                raise ValueError(f"tool {slug} defined by more than one toolkit")
            out[slug] = tool
    return out
