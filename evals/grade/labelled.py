"""The labelled set the judge is measured by: every person's score on a judged part, with provenance.

Two sources, both keyed by (part, evidence hash): the bundled `labels.yaml` (the offline judge's
answers, written from the author's replays) and `labels/*.jsonl`, one JSON line per label, written by
reviewers from the run viewer (its "Label" panel exports exactly these lines) or by hand:

    {"part": "C16", "evidence_sha256": "…64 hex…", "score": 0, "by": "ana", "why": "11 bullets",
     "date": "2026-12-01", "run": "nightly-1234"}

`run` says where the evidence came from (a nightly's run directory, `replay:NAME`, the seed's
published run), so a disputed label can be traced to the transcript it was given on. The JSONL files
measure the judge and grade nothing: the offline judge answers from `labels.yaml` alone, and the
fingerprint leaves `labels/` out, so adding a label never makes a run not comparable. A line that
does not read is bad input naming its file and line, never skipped: agreement computed from the
labels that happened to parse would vouch for a judge on evidence nobody checked.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from pydantic import Field, ValidationError

from evals.core.errors import BadInputError
from evals.core.loading import describe_validation_error
from evals.core.model import FrozenModel
from evals.grade.labels import load_labels
from evals.scenario.folder import ScenarioFolder

BUNDLED = "bundled labels.yaml"  # the `run` of a label from labels.yaml: given on the bundled replays


class LabelLine(FrozenModel):
    """One line of a `labels/*.jsonl` file: a person's score on one judged part of one run."""

    part: str = Field(min_length=1)
    evidence_sha256: str = Field(pattern=r"^[0-9a-f]{64}$")
    score: int = Field(ge=0)
    by: str = Field(min_length=1, description="the reviewer")
    why: str = Field(default="", description="one line: what decided the score")
    date: str = Field(pattern=r"^\d{4}-\d{2}-\d{2}", description="when it was labelled (ISO date)")
    run: str = Field(min_length=1, description="the run (or replay) whose evidence was labelled")


@dataclass(frozen=True)
class Labelled:
    """A label in the set, and the file (and line) it came from."""

    line: LabelLine
    source: str

    @property
    def key(self) -> tuple[str, str]:
        return (self.line.part, self.line.evidence_sha256)


def read_label_lines(path: Path) -> list[LabelLine]:
    """Every line of one JSONL labels file; a line that does not read is bad input, named."""
    out: list[LabelLine] = []
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise BadInputError(f"{path}: cannot read: {exc}") from exc
    for number, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip():
            continue
        try:
            out.append(LabelLine.model_validate_json(raw))
        except ValidationError as exc:
            raise BadInputError(
                describe_validation_error(Path(f"{path}:{number}"), exc)
                + '\n(each line of a labels/*.jsonl file is one label: docs/judge.md, "Labelling")'
            ) from exc
    return out


def load_labelled(folder: Path) -> list[Labelled]:
    """A task's labelled set: labels.yaml first, then each labels/*.jsonl in name order, each line
    in file order. Several labels of one (part, evidence) are all kept: `latest` picks one."""
    out = [
        Labelled(
            LabelLine(
                part=label.part,
                evidence_sha256=label.evidence_sha256,
                score=label.score,
                by=label.by,
                why=label.why,
                date="0000-00-00",
                run=BUNDLED,
            ),
            ScenarioFolder.LABELS,
        )
        for label in load_labels(folder).values()
    ]
    labelled_dir = ScenarioFolder(folder).labelled
    for path in sorted(labelled_dir.glob("*.jsonl")) if labelled_dir.is_dir() else []:
        rel = f"{ScenarioFolder.LABELLED}/{path.name}"
        out += [Labelled(line, rel) for line in read_label_lines(path)]
    return out


def latest(labelled: list[Labelled]) -> dict[tuple[str, str], Labelled]:
    """One label per (part, evidence): the newest by date, a later file or line winning a tie, so a
    reviewer who re-labels a part overrides the older label without editing anyone's file."""
    out: dict[tuple[str, str], Labelled] = {}
    for item in labelled:
        held = out.get(item.key)
        if held is None or item.line.date >= held.line.date:
            out[item.key] = item
    return out


def disputed(labelled: list[Labelled]) -> list[tuple[str, str]]:
    """(part, evidence) pairs people scored differently: worth a conversation before trusting either."""
    scores: dict[tuple[str, str], set[int]] = {}
    for item in labelled:
        scores.setdefault(item.key, set()).add(item.line.score)
    return sorted(k for k, s in scores.items() if len(s) > 1)
