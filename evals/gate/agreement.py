"""How far the judge agrees with people: raw agreement beside a constant judge, chance-corrected.

Raw agreement flatters a judge when the labels are skewed: on labels that are 79 % full marks, a
judge that gives full marks without reading anything agrees 79 % of the time. So every figure comes
with what a *constant* judge (always the humans' majority label) would get, and two chance-corrected
coefficients:

- Cohen's κ = (pₒ − pₑ) / (1 − pₑ), pₑ = Σₖ pⱼₖ·pₕₖ from each side's own marginals (Cohen 1960). A
  constant judge gets exactly 0: its pₑ equals its pₒ. Undefined (None) when every label and every
  verdict is the same category: there is nothing to correct for, and nothing to learn.
- Gwet's AC1 = (pₒ − pₑ) / (1 − pₑ), pₑ = 1/(q−1)·Σₖ πₖ(1 − πₖ), πₖ the mean of the two sides'
  shares of category k, q the number of categories a score can take (Gwet 2008). It stays near pₒ
  when labels are skewed, where κ collapses (the "kappa paradox"), but it also credits a constant
  judge on skewed labels, so the words about a judge (`verdict_words`) lean on κ and the constant.

Intervals are percentile bootstraps over the labelled parts, from a fixed seed, so the same labels
give the same interval on every machine. Scores are nominal categories (0, 1, … up to the part's
points); a part with several points counts a 2 judged as 1 as a disagreement, as a reviewer would.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Sequence

from pydantic import Field

from evals.core.model import FrozenModel

RESAMPLES = 2000
SEED = 20240101  # fixed: the same labels give the same interval everywhere
CONFIDENCE = 0.95
MIN_LABELS = 10  # fewer, and a bootstrap interval is an artefact of the handful resampled: no claim

Cell = tuple[int, int]  # (human score, judge score)


def _shares(
    cells: Counter[Cell], n: int, categories: Sequence[int]
) -> tuple[dict[int, float], dict[int, float]]:
    human = dict.fromkeys(categories, 0.0)
    judge = dict.fromkeys(categories, 0.0)
    for (h, j), count in cells.items():
        human[h] += count / n
        judge[j] += count / n
    return human, judge


def observed(cells: Counter[Cell], n: int) -> float:
    return sum(c for (h, j), c in cells.items() if h == j) / n


def cohen_kappa(cells: Counter[Cell], categories: Sequence[int]) -> float | None:
    """Cohen's κ of a confusion (None when both sides put everything in one category)."""
    n = sum(cells.values())
    if n == 0:
        return None
    human, judge = _shares(cells, n, categories)
    pe = sum(human[k] * judge[k] for k in categories)
    if pe >= 1.0 - 1e-12:
        return None
    return (observed(cells, n) - pe) / (1.0 - pe)


def gwet_ac1(cells: Counter[Cell], categories: Sequence[int]) -> float | None:
    """Gwet's AC1 of a confusion over `categories` (at least two; None without any pair)."""
    n = sum(cells.values())
    q = len(categories)
    if n == 0 or q < 2:
        return None
    human, judge = _shares(cells, n, categories)
    pe = sum(((human[k] + judge[k]) / 2) * (1 - (human[k] + judge[k]) / 2) for k in categories) / (q - 1)
    return (observed(cells, n) - pe) / (1.0 - pe)


def _percentile(values: list[float], p: float) -> float:
    """Linear interpolation between order statistics (numpy's default)."""
    ordered = sorted(values)
    at = p * (len(ordered) - 1)
    low = int(at)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (at - low)


def bootstrap_intervals(
    pairs: Sequence[Cell],
    categories: Sequence[int],
    *,
    confidence: float = CONFIDENCE,
    resamples: int = RESAMPLES,
    seed: int = SEED,
) -> tuple[tuple[float, float] | None, tuple[float, float] | None]:
    """Percentile intervals for κ and AC1, resampling the labelled parts with replacement.
    A resample where κ is undefined is left out of κ's interval; None when too few remain."""
    if len(pairs) < 2:
        return None, None
    rng = random.Random(seed)
    kappas: list[float] = []
    ac1s: list[float] = []
    for _ in range(resamples):
        cells = Counter(rng.choices(pairs, k=len(pairs)))
        k = cohen_kappa(cells, categories)
        if k is not None:
            kappas.append(k)
        a = gwet_ac1(cells, categories)
        if a is not None:
            ac1s.append(a)
    tail = (1 - confidence) / 2

    def interval(values: list[float]) -> tuple[float, float] | None:
        if len(values) < resamples // 2:
            return None
        return (round(_percentile(values, tail), 4), round(_percentile(values, 1 - tail), 4))

    return interval(kappas), interval(ac1s)


class Agreement(FrozenModel):
    """The judge against people on one criterion (or all of them): what a reader needs to trust it."""

    labels: int = Field(description="labelled parts the judge scored (unscored ones are counted apart)")
    unscored: int = Field(default=0, description="labelled parts the judge left unscored: not in any figure")
    agree: int = 0
    raw: float | None = Field(default=None, description="share of labelled parts where judge and label agree")
    majority_label: int | None = Field(default=None, description="the humans' most common score")
    constant: float | None = Field(
        default=None, description="the raw agreement a judge always giving the majority label would get"
    )
    kappa: float | None = None
    kappa_ci: tuple[float, float] | None = None
    ac1: float | None = None
    ac1_ci: tuple[float, float] | None = None
    judge_higher: int = Field(default=0, description="parts the judge scored above the label (too lenient)")
    judge_lower: int = Field(default=0, description="parts the judge scored below the label (too strict)")
    confusion: dict[str, int] = Field(
        default_factory=dict, description='"label→judge": count, e.g. "0→1" = label 0, judge 1'
    )

    @property
    def no_better_than_constant(self) -> bool:
        """The judge is not shown to beat always answering the majority label."""
        if self.raw is None or self.constant is None:
            return False
        if self.raw <= self.constant:
            return True
        return self.kappa is not None and self.kappa <= 0

    def verdict_words(self) -> str:
        """What to make of it, in words: the figures alone let a constant judge look good."""
        if self.labels == 0:
            return "not measured: no labelled part was scored by the judge"
        if self.kappa is None:
            return (
                f"cannot tell: every label and every verdict is {self.majority_label}, so agreement says "
                "nothing about whether the judge reads the evidence"
            )
        if self.no_better_than_constant:
            return (
                f"no better than a constant judge: always answering {self.majority_label} would agree on "
                f"{_pct(self.constant)} of these parts"
            )
        if self.labels < MIN_LABELS:
            return f"too few labels to tell ({self.labels}; at least {MIN_LABELS} before any claim)"
        if self.kappa_ci is not None and self.kappa_ci[0] <= 0:
            return "not shown better than a constant judge: κ's interval reaches 0 (label more parts)"
        return "better than a constant judge"


def _pct(value: float | None) -> str:
    return "–" if value is None else f"{value:.0%}"


def measure(
    pairs: Iterable[Cell],
    categories: Iterable[int],
    *,
    unscored: int = 0,
    confidence: float = CONFIDENCE,
    resamples: int = RESAMPLES,
) -> Agreement:
    """Agreement of (label, judge) score pairs; `categories` the scores a part can take (0..points)."""
    pairs = list(pairs)
    cats = sorted(set(categories) | {c for pair in pairs for c in pair})
    if not pairs:
        return Agreement(labels=0, unscored=unscored)
    cells = Counter(pairs)
    n = len(pairs)
    human = Counter(h for h, _ in pairs)
    majority = max(sorted(human), key=lambda k: human[k])  # ties: the lowest score, deterministically
    kappa_ci, ac1_ci = bootstrap_intervals(pairs, cats, confidence=confidence, resamples=resamples)
    kappa = cohen_kappa(cells, cats)
    ac1 = gwet_ac1(cells, cats)
    return Agreement(
        labels=n,
        unscored=unscored,
        agree=sum(c for (h, j), c in cells.items() if h == j),
        raw=round(observed(cells, n), 4),
        majority_label=majority,
        constant=round(human[majority] / n, 4),
        kappa=None if kappa is None else round(kappa, 4),
        kappa_ci=kappa_ci if kappa is not None else None,
        ac1=None if ac1 is None else round(ac1, 4),
        ac1_ci=ac1_ci,
        judge_higher=sum(c for (h, j), c in cells.items() if j > h),
        judge_lower=sum(c for (h, j), c in cells.items() if j < h),
        confusion={f"{h}→{j}": c for (h, j), c in sorted(cells.items())},
    )
