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

A measurement counts the labels of a window (`windowed`): by default the newest 90 days by the
label's date, ending on the newest dated label or a date passed in (never the clock, so the same
files give the same measurement on any day), because a judge is trusted on the transcripts agents
write now, not on a year-old set. Labels without a date (`labels.yaml`, whose format has none) are
the frozen reference set on the bundled replays, whose evidence never ages: they are counted in
every window and said apart ("and N undated"), so the drift alarm keeps re-judging them each night.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta
from pathlib import Path

from pydantic import Field, ValidationError, field_validator

from evals.core.errors import BadInputError
from evals.core.loading import describe_validation_error
from evals.core.model import FrozenModel
from evals.grade.labels import load_labels
from evals.scenario.folder import ScenarioFolder

BUNDLED = "bundled labels.yaml"  # the `run` of a label from labels.yaml: given on the bundled replays
UNDATED = "0000-00-00"  # the date of a labels.yaml label: its format records none
WINDOW_DAYS = 90  # the default window: the labels of the newest 90 days


class LabelLine(FrozenModel):
    """One line of a `labels/*.jsonl` file: a person's score on one judged part of one run."""

    part: str = Field(min_length=1)
    evidence_sha256: str = Field(pattern=r"^[0-9a-f]{64}$")
    score: int = Field(ge=0)
    by: str = Field(min_length=1, description="the reviewer")
    why: str = Field(default="", description="one line: what decided the score")
    date: str = Field(pattern=r"^\d{4}-\d{2}-\d{2}", description="when it was labelled (ISO date)")
    run: str = Field(min_length=1, description="the run (or replay) whose evidence was labelled")

    @field_validator("date")
    @classmethod
    def _a_real_day(cls, value: str) -> str:
        """A day the calendar has: the window is decided by it, so "2026-13-45" is bad input, not
        a label silently outside (or inside) every window. `0000-00-00` is the undated label."""
        if value == UNDATED:
            return value
        try:
            date.fromisoformat(value[:10])
        except ValueError:
            raise ValueError(f"date {value!r} is not a calendar day (YYYY-MM-DD)") from None
        return value


@dataclass(frozen=True)
class Labelled:
    """A label in the set, and the file (and line) it came from."""

    line: LabelLine
    source: str

    @property
    def key(self) -> tuple[str, str]:
        return (self.line.part, self.line.evidence_sha256)

    @property
    def day(self) -> date | None:
        """The day it was labelled; None for a labels.yaml label (undated)."""
        return None if self.line.date == UNDATED else date.fromisoformat(self.line.date[:10])


MAX_FILE_BYTES = 16 * 1024 * 1024  # ~40,000 labels: more is not a labels file a person wrote
MAX_LINE_BYTES = 64 * 1024  # one label, its reason one line: far below this


def read_label_lines(path: Path) -> list[LabelLine]:
    """Every line of one JSONL labels file; a line that does not read is bad input, named.

    The read is bounded (MAX_FILE_BYTES, MAX_LINE_BYTES): the files come from pull requests, and a
    huge file or line (or a link to /dev/zero) must be a clear error naming the file, not a command
    that eats the runner's memory before saying anything."""
    out: list[LabelLine] = []
    how = '(each line of a labels/*.jsonl file is one label: docs/judge.md, "Labelling")'
    try:
        with path.open("rb") as handle:
            data = handle.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise BadInputError(f"{path}: cannot read: {exc}") from exc
    if len(data) > MAX_FILE_BYTES:
        raise BadInputError(
            f"{path}: larger than {MAX_FILE_BYTES // (1024 * 1024)} MiB, not read; split it into "
            f"several labels/*.jsonl files {how}"
        )
    for number, raw in enumerate(data.split(b"\n"), start=1):
        if len(raw) > MAX_LINE_BYTES:
            raise BadInputError(
                f"{path}:{number}: a line longer than {MAX_LINE_BYTES // 1024} KiB, not read {how}"
            )
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise BadInputError(f"{path}:{number}: not UTF-8 ({exc.reason}) {how}") from exc
        if not text.strip():
            continue
        try:
            out.append(LabelLine.model_validate_json(text))
        except ValidationError as exc:
            where = Path(f"{path}:{number}")
            raise BadInputError(describe_validation_error(where, exc) + "\n" + how) from exc
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
                date=UNDATED,
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


class LabelWindow(FrozenModel):
    """Which labels a measurement counted, so the report can say it ("· the newest 90 days")."""

    days: int | None = Field(description="the window's length in days; None: every label counted")
    start: str | None = Field(default=None, description="the first day counted (ISO); None: no dated label")
    end: str | None = Field(default=None, description="the last day counted: the newest label's, or given")
    dated: int = Field(default=0, description="dated labels counted")
    undated: int = Field(default=0, description="labels.yaml labels (no date): counted in every window")
    older: int = Field(default=0, description="dated labels before the window: not counted")
    newer: int = Field(default=0, description="dated labels after the day given: not counted")

    def words(self) -> str:
        """The window in words, with its counts: what the figures are about."""
        counted = f"{self.dated} dated label(s)" + (f" and {self.undated} undated" if self.undated else "")
        left = [f"{n} {what} not counted" for n, what in ((self.older, "older"), (self.newer, "newer")) if n]
        tail = "; " + ", ".join(left) if left else ""
        if self.days is None:
            return f"all labels ({counted})"
        span = f"{self.start} – {self.end}: " if self.start else "no dated label: "
        return f"the newest {self.days} days ({span}{counted}{tail})"


Key = tuple[str, str]


def windowed(
    sets: dict[str, dict[Key, Labelled]], days: int | None = WINDOW_DAYS, end: date | None = None
) -> tuple[dict[str, dict[Key, Labelled]], LabelWindow]:
    """The labels (one per part and evidence, as `latest` picked them) of the newest `days` days, up
    to `end` (default: the newest dated label among them), across every task measured; undated
    labels always. `days=None` keeps every label. The newest label of a part decides whether it is
    in: a part re-labelled yesterday is measured on yesterday's score."""
    everything = [item for known in sets.values() for item in known.values()]
    undated = sum(1 for item in everything if item.day is None)
    if days is None:
        return sets, LabelWindow(days=None, dated=len(everything) - undated, undated=undated)
    dated = [d for item in everything if (d := item.day) is not None]
    last = end or max(dated, default=None)
    if last is None:  # nothing dated: only the undated set is left to count
        return sets, LabelWindow(days=days, undated=undated)
    first = last - timedelta(days=days - 1)
    kept = {
        name: {k: item for k, item in known.items() if item.day is None or first <= item.day <= last}
        for name, known in sets.items()
    }
    return kept, LabelWindow(
        days=days,
        start=first.isoformat(),
        end=last.isoformat(),
        dated=sum(1 for d in dated if first <= d <= last),
        undated=undated,
        older=sum(1 for d in dated if d < first),
        newer=sum(1 for d in dated if d > last),
    )
