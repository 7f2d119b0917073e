"""What a scenario is for, for the people who choose, read and maintain it (`about.yaml`).

The suite is only as good as what its scenarios can tell apart, and a reader of a failing trial needs
to know what the scenario was testing and which document, mail or person decides each trap. This is
that record: the scenario's purpose, the one behaviour it adds to the suite (docs/scenarios.md's table
lists them), why it sits in its tier, the source of truth behind each trap (and whether the obvious
rule — follow the document, follow the newest mail, decline everything extra — loses points there),
and what it cannot tell apart. It grades nothing, so it is kept out of the fingerprint: editing it
never makes a baseline `not-comparable`.
"""

from __future__ import annotations

from pathlib import Path

from pydantic import Field

from evals.core.loading import load_model
from evals.core.model import FrozenModel
from evals.scenario.folder import ScenarioFolder


class Trap(FrozenModel):
    trap: str = Field(description="what looks right and is wrong, or looks wrong and is right")
    source_of_truth: str = Field(description="which document, mail or person decides it, and why")
    obvious_rule_loses: bool = Field(
        default=False,
        description="following the document, the newest mail, or declining every extra loses points here",
    )


class About(FrozenModel):
    purpose: str = Field(description="what a regression here would mean for the agent's users")
    behaviour: str = Field(description="the one behaviour this scenario adds to the suite")
    tier_why: str = Field(description="why it is L1, L2 or L3")
    traps: list[Trap] = Field(default_factory=list)
    limitations: list[str] = Field(default_factory=list, description="what it cannot tell apart")


def load_about(folder: Path) -> About | None:
    """The scenario's about.yaml, or None when it has none; a bad file is bad input, named."""
    path = ScenarioFolder(folder).about
    return load_model(About, path) if path.is_file() else None


def about_views(folders: dict[str, Path]) -> dict[str, dict[str, object]]:
    """Each scenario's about.yaml as plain data for the viewer (a scenario without one is left out):
    a reader of a failing trial sees what the scenario tests and which source decides each trap."""
    out: dict[str, dict[str, object]] = {}
    for name, folder in folders.items():
        about = load_about(folder)
        if about is not None:
            out[name] = about.model_dump(mode="json")
    return out
