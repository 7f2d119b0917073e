"""A scenario folder's layout: the one place that names its files.

    scenario.yaml   what the scenario is (personas, repo, prompts, parameters, tier)
    emails.yaml     the inbox it starts with          notion.yaml   the Notion pages
    prompts/        system and task prompts           repo/         the repository's files
    rubric.yaml     what is graded (evals/grade/rubric.py)
    judge/          judge prompts, one file each      labels.yaml   human labels for judged evidence
    labels/         the labelled set the judge is measured by: one JSON line per label, with provenance
    checks/         the scenario's own checks         probes/       its behaviour probe scripts and stubs
    replays/        scripted runs of its tools, `reference.yaml` first
    README.md       its data dictionary, for people
    about.yaml      what it is for: purpose, behaviour, tier, traps and their sources of truth

Every loader (the scenario's data, its rubric, labels, checks, replays, the fingerprint) asks this
class where a file is, so a renamed file is renamed once.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

REFERENCE = "reference"  # the replay every scenario ships, which `evals check-scenario` holds to full marks


@dataclass(frozen=True)
class ScenarioFolder:
    path: Path

    META = "scenario.yaml"
    EMAILS = "emails.yaml"
    NOTION = "notion.yaml"
    RUBRIC = "rubric.yaml"
    LABELS = "labels.yaml"
    README = "README.md"
    ABOUT = "about.yaml"
    REPLAYS = "replays"
    CHECKS = "checks"
    PROBES = "probes"
    LABELLED = "labels"  # reviewers' labels (evals/grade/labelled.py): measure the judge, never grade
    # Read as they are, never rendered with an instance's values (code, and the labels' hashes).
    UNRENDERED_DIRS = frozenset({CHECKS, PROBES, LABELLED, "__pycache__"})
    UNRENDERED_FILES = frozenset({README, LABELS, ABOUT})

    @property
    def name(self) -> str:
        return self.path.name

    @property
    def meta(self) -> Path:
        return self.path / self.META

    @property
    def emails(self) -> Path:
        return self.path / self.EMAILS

    @property
    def notion(self) -> Path:
        return self.path / self.NOTION

    @property
    def rubric(self) -> Path:
        return self.path / self.RUBRIC

    @property
    def labels(self) -> Path:
        return self.path / self.LABELS

    @property
    def labelled(self) -> Path:
        return self.path / self.LABELLED

    @property
    def about(self) -> Path:
        return self.path / self.ABOUT

    @property
    def checks(self) -> Path:
        return self.path / self.CHECKS

    def replay(self, name: str) -> Path:
        return self.path / self.REPLAYS / f"{name}.yaml"

    def replays(self) -> list[str]:
        """The replay names it ships, sorted, `reference` first when there is one."""
        names = sorted(p.stem for p in (self.path / self.REPLAYS).glob("*.yaml"))
        return sorted(names, key=lambda n: n != REFERENCE)

    def is_scenario(self) -> bool:
        return self.meta.is_file()


def list_scenarios(scenarios_dir: Path) -> list[str]:
    """The scenario folders under `scenarios_dir`, by name."""
    if not scenarios_dir.is_dir():
        return []
    return sorted(p.name for p in scenarios_dir.iterdir() if ScenarioFolder(p).is_scenario())
