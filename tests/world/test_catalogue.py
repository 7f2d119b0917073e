"""The tool catalogue is built from each service module's toolkit, explicitly, once per caller."""

from __future__ import annotations

import pytest

from evals.world.sandbox.tools import github, gmail, notion, notion_rows
from evals.world.sandbox.tools.base import Params, Toolkit
from evals.world.sandbox.tools.catalogue import build


class Empty(Params):
    pass


def test_the_catalogue_is_every_toolkits_tools_by_slug() -> None:
    tools = build()
    toolkits = (github.TOOLS, gmail.TOOLS, notion.TOOLS, notion_rows.TOOLS)
    for toolkit in toolkits:
        assert toolkit.tools and all(tools[slug] is tool for slug, tool in toolkit.tools.items())
    assert len(tools) == sum(len(t.tools) for t in toolkits)
    assert {tool.toolkit for tool in tools.values()} == {"github", "gmail", "notion"}


def test_a_slug_defined_twice_is_refused_within_and_across_toolkits() -> None:
    first, second = Toolkit("first"), Toolkit("second")

    @first.tool("X_PING", Empty)
    def ping(world: object, p: Empty) -> str:
        """Ping."""
        return "pong"

    with pytest.raises(ValueError, match="X_PING defined twice"):
        first.tool("X_PING", Empty)(ping)
    second.tool("X_PING", Empty)(ping)
    with pytest.raises(ValueError, match="X_PING defined by more than one toolkit"):
        build((first, second))
    assert build((first,))["X_PING"].description == "Ping."
