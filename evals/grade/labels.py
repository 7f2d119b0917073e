"""Human labels: a person's verdict on one part for one piece of evidence, keyed by its hash.

Without an API key the judge falls back to these; `calibrate` compares them with the model judge.
A label records who gave it and why, so a disputed grade can be traced to a person and a reason.
"""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

from evals.errors import BadInputError
from evals.loading import read_data, validate

LABELS_FILE = "labels.yaml"


class Label(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    part: str
    evidence_sha256: str = Field(pattern=r"^[0-9a-f]{64}$")
    score: int = Field(ge=0)
    by: str
    why: str


class LabelFile(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    labels: list[Label] = Field(default_factory=list)


def load_labels(scenario_dir: Path) -> dict[tuple[str, str], Label]:
    path = scenario_dir / LABELS_FILE
    if not path.exists():
        return {}
    data = validate(LabelFile, read_data(path), path)
    out: dict[tuple[str, str], Label] = {}
    for label in data.labels:
        key = (label.part, label.evidence_sha256)
        if key in out and out[key].score != label.score:
            raise BadInputError(f"{path}: conflicting labels for {label.part} / {label.evidence_sha256[:12]}")
        out[key] = label
    return out
