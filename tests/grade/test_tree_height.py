"""`tree_height`: the nesting of a tree `ast.parse` made, as `nesting` measures any parsed value.

The grader bounds every Python source it reads (`bounded_tree`, evals/grade/checks/python_ast.py)
by this height; these tests hold it to `nesting` on real sources and at the bound itself.
"""

from __future__ import annotations

import ast

import pytest

from evals.grade.artefact import MAX_NESTING, AgentArtefactError, bounded_tree, nesting, tree_height
from tests.support.paths import ROOT


def test_the_same_height_as_nesting_on_the_harness_and_scenario_sources() -> None:
    paths = sorted([*(ROOT / "evals").rglob("*.py"), *(ROOT / "scenario").rglob("*.py")])
    measured = 0
    for path in paths:
        try:
            tree = ast.parse(path.read_text(encoding="utf-8"))
        except SyntaxError:  # a parameterised task's template (`{{param:...}}`), not Python yet
            continue
        assert tree_height(tree) == nesting(tree), path
        measured += 1
    assert measured > 100


@pytest.mark.parametrize("depth", [MAX_NESTING - 10, MAX_NESTING + 10])
def test_the_same_height_as_nesting_around_the_bound(depth: int) -> None:
    for source in (
        "X = " + "1+" * depth + "1",
        "X = " + "[" * depth + "]" * depth,
        "\n".join("    " * i + f"if a{i}:" for i in range(min(depth, 95)))
        + "\n"
        + "    " * min(depth, 95)
        + "pass\n",
    ):
        tree = ast.parse(source)
        assert tree_height(tree) == nesting(tree)


def test_bounded_tree_refuses_what_nests_past_the_limit_as_bounded_does() -> None:
    shallow, deep = ast.parse("X = " + "1+" * 10 + "1"), ast.parse("X = " + "1+" * (MAX_NESTING + 10) + "1")
    assert bounded_tree(shallow, "the Python source") is shallow
    with pytest.raises(AgentArtefactError, match=f"the Python source nests deeper than {MAX_NESTING} levels"):
        bounded_tree(deep, "the Python source")
