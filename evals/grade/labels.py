"""Human labels: a person's verdict on one part for one piece of evidence, keyed by its hash.

Without an API key the judge falls back to these; `calibrate` compares them with the model judge.
A label records who gave it and why, so a disputed grade can be traced to a person and a reason.
"""

from __future__ import annotations

from pathlib import Path

import yaml
from pydantic import Field

from evals.core.errors import BadInputError
from evals.core.loading import FastLoader, read_data, validate
from evals.core.model import FrozenModel
from evals.scenario.folder import ScenarioFolder

LABELS_FILE = ScenarioFolder.LABELS


class Label(FrozenModel):
    part: str
    evidence_sha256: str = Field(pattern=r"^[0-9a-f]{64}$")
    score: int = Field(ge=0)
    by: str
    why: str


class LabelFile(FrozenModel):
    labels: list[Label] = Field(default_factory=list)


def cut_by_comment(text: str) -> list[str]:
    """Plain (unquoted) scalars followed on their line by ` #...`: YAML reads that as a comment, so
    `why: The #131 row gives ...` loads as "The". Each entry names the line and what was kept."""
    lines = text.splitlines()
    found: list[str] = []
    try:
        root = yaml.compose(text, Loader=FastLoader)  # libyaml: same nodes and marks, much faster
    except yaml.YAMLError:
        return []  # not YAML at all: read_data says where, with the line quoted
    stack: list[yaml.Node] = [root] if root is not None else []
    while stack:
        node = stack.pop()
        if isinstance(node, yaml.MappingNode):
            stack.extend(v for pair in node.value for v in pair)
        elif isinstance(node, yaml.SequenceNode):
            stack.extend(node.value)
        # a plain scalar's style is None from PyYAML's parser and '' from libyaml's
        elif isinstance(node, yaml.ScalarNode) and not node.style and node.end_mark.line < len(lines):
            rest = lines[node.end_mark.line][node.end_mark.column :]
            if rest.lstrip().startswith("#") and rest.startswith((" ", "\t")):
                line = node.end_mark.line + 1
                found.append(f"line {line}: {node.value!r} is followed by {rest.strip()[:40]!r}")
    return sorted(found)


def load_labels(scenario_dir: Path) -> dict[tuple[str, str], Label]:
    path = scenario_dir / LABELS_FILE
    if not path.exists():
        return {}
    cut = cut_by_comment(path.read_text(encoding="utf-8"))
    if cut:
        raise BadInputError(
            f"{path}: a value is cut short by ` #` (YAML starts a comment there; quote the value): "
            + "; ".join(cut)
        )
    data = validate(LabelFile, read_data(path), path)
    out: dict[tuple[str, str], Label] = {}
    for label in data.labels:
        key = (label.part, label.evidence_sha256)
        if key in out and out[key].score != label.score:
            raise BadInputError(f"{path}: conflicting labels for {label.part} / {label.evidence_sha256[:12]}")
        out[key] = label
    return out
