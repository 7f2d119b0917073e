"""The nightly trend: the last 30 nights of `baseline/history.jsonl` as Mermaid charts, and a drift
notice when the total is sliding even though no single night crossed the gate's threshold.

GitHub renders Mermaid in Markdown (job summaries, comments, files), so the chart needs no image
host. Drift is called when either
- the mean of the last 7 nights is more than the threshold below the mean of the up to 7 nights
  before them (at least 3), or
- each of the last 3 nights scored lower than the night before it.

History lines written before per-category means were recorded are read as before: they count for
the total and are left out of the category chart.
"""

from __future__ import annotations

import itertools
import statistics
from dataclasses import dataclass
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from evals.core.config import Threshold
from evals.core.errors import BadInputError
from evals.core.jsonio import read_jsonl
from evals.core.loading import describe_validation_error
from evals.core.untrusted import md_text

NIGHTS = 30
WINDOW = 7
FALLING = 3


class Line(BaseModel):
    """Only what the trend reads of a history line; the rest is ignored (the file has more)."""

    model_config = ConfigDict(extra="ignore")


class CategoryPoint(Line):
    title: str = ""
    mean: float | None = None
    max: float | None = None


class ScenarioPoint(Line):
    mean: float | None = None
    categories: dict[str, CategoryPoint] = Field(default_factory=dict)


class TotalPoint(Line):
    mean: float | None = None
    max: float | None = None


class Night(Line):
    run: str
    started: str = ""
    total: TotalPoint
    scenarios: dict[str, ScenarioPoint] = Field(default_factory=dict)

    @property
    def label(self) -> str:
        """MM-DD of the night (the run's name when it has no start time)."""
        return self.started[5:10] if len(self.started) >= 10 else self.run[-10:]


def load_history(path: Path) -> list[Night]:
    """Every night in the file, in the order they were recorded."""
    if not path.is_file():
        raise BadInputError(f"{path}: no history yet (the nightly workflow appends one line per night)")
    nights = []
    for n, data in enumerate(read_jsonl(path), start=1):
        try:
            nights.append(Night.model_validate(data))
        except ValidationError as exc:
            raise BadInputError(describe_validation_error(Path(f"{path}: line {n}"), exc)) from exc
    return nights


def drift(totals: list[float], threshold: float) -> list[str]:
    """The drift notices for a series of nightly totals, oldest first (none: no drift)."""
    notices = []
    recent, before = totals[-WINDOW:], totals[-2 * WINDOW : -WINDOW]
    if len(recent) == WINDOW and len(before) >= 3:
        now, then = statistics.fmean(recent), statistics.fmean(before)
        if then - now > threshold:
            notices.append(
                f"the {WINDOW}-night mean fell by {then - now:.2f} points ({then:.2f} over the "
                f"{len(before)} nights before, {now:.2f} now), more than the threshold of {threshold:g}"
            )
    last = totals[-(FALLING + 1) :]
    if len(last) == FALLING + 1 and all(b < a for a, b in itertools.pairwise(last)):
        steps = " → ".join(f"{t:.2f}" for t in last)
        notices.append(f"the total dropped {FALLING} nights in a row ({steps})")
    return notices


def _chart(title: str, labels: list[str], axis: str, top: float, series: list[list[float]]) -> list[str]:
    xs = ", ".join(f'"{label}"' for label in labels)
    lines = ["```mermaid", "xychart-beta", f'  title "{title}"', f"  x-axis [{xs}]"]
    lines.append(f'  y-axis "{axis}" 0 --> {top:g}')
    lines += [f"  line [{', '.join(f'{v:.2f}' for v in values)}]" for values in series]
    return [*lines, "```"]


@dataclass(frozen=True)
class Series:
    key: str
    title: str
    values: list[float]


def category_series(nights: list[Night]) -> tuple[list[str], list[Series]]:
    """Each category's mean as a share of its points (0-100), over the nights that recorded them;
    keyed `scenario/category` when the history holds several scenarios."""
    recorded = [n for n in nights if any(s.categories for s in n.scenarios.values())]
    if not recorded:
        return [], []
    several = len({name for n in recorded for name in n.scenarios}) > 1
    keys: dict[str, str] = {}
    for n in recorded:
        for name, s in n.scenarios.items():
            for cat, point in s.categories.items():
                keys.setdefault(f"{name}/{cat}" if several else cat, point.title or cat)
    out = []
    for key, title in keys.items():
        values: list[float] = []
        for n in recorded:
            name, _, cat = key.rpartition("/") if several else ("", "", key)
            scenario = n.scenarios.get(name) if several else next(iter(n.scenarios.values()), None)
            found = scenario.categories.get(cat) if scenario else None
            share = 100 * found.mean / found.max if found and found.mean is not None and found.max else None
            values.append(share if share is not None else (values[-1] if values else 0.0))  # carry a gap
        out.append(Series(key, title, values))
    return [n.label for n in recorded], out


def _change(values: list[float]) -> str:
    recent, before = values[-WINDOW:], values[-2 * WINDOW : -WINDOW]
    if not before:
        return "–"
    d = statistics.fmean(recent) - statistics.fmean(before)
    return "= 0" if round(d, 1) == 0 else f"{'▲' if d > 0 else '▼'} {d:+.1f} pp"


def render_trend(nights: list[Night], threshold: float, count: int = NIGHTS) -> str:
    """The trend section: drift notice, total chart, category chart with its legend table."""
    scored = [n for n in nights if n.total.mean is not None][-count:]
    head = f"### Nightly trend (last {len(scored)} night{'s' if len(scored) != 1 else ''})"
    if not scored:
        return f"{head}\n\nNo scored night in the history yet.\n"
    totals = [n.total.mean for n in scored if n.total.mean is not None]
    notices = drift(totals, threshold)
    lines = [head, ""]
    lines += [f"> ⚠️ **Drift:** {notice}\n" for notice in notices] or [  # a blank line: one quote each
        f"No drift: the last {WINDOW} nights hold their level and the last {FALLING} did not each drop."
    ]
    top = max([n.total.max or 0 for n in scored] + totals)
    lines += ["", *_chart("Total, mean points per night", [n.label for n in scored], "points", top, [totals])]
    labels, series = category_series(scored)
    if series:
        title = "Categories, % of their points (lines in the order of the table)"
        lines += ["", *_chart(title, labels, "% of points", 100, [s.values for s in series]), ""]
        lines += ["| # | category | last night | change of the 7-night mean |", "|---|---|---|---|"]
        lines += [
            f"| {i} | {md_text(s.title, 60)}{f' ({md_text(s.key, 60)})' if '/' in s.key else ''} "
            f"| {s.values[-1]:.0f}% | {_change(s.values)} |"
            for i, s in enumerate(series, start=1)
        ]
    return "\n".join(lines) + "\n"


def trend_of(history: Path, threshold: Threshold, count: int = NIGHTS) -> str:
    """The trend section of a history file, with drift measured against the gate's own threshold
    at the latest night's maximum (the threshold may be a share of the points)."""
    nights = load_history(history)
    latest_max = next((n.total.max for n in reversed(nights) if n.total.max), 0.0)
    return render_trend(nights, threshold.allowed_drop(latest_max or 0.0), count)
