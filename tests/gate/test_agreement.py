"""The agreement statistics against worked examples, and a constant judge called what it is.

Cohen's κ: the worked examples of Wikipedia's "Cohen's kappa" article (50 proposals read by two
readers). Gwet's AC1: the same tables through Gwet (2008)'s two-category formula, pe = 2π(1 − π),
worked by hand in each test's comment, and the Feinstein–Cicchetti "kappa paradox" table
(118, 5, 2, 0), where κ is about 0 despite 94 % agreement and AC1 stays high.
"""

from __future__ import annotations

from collections import Counter

import pytest

from evals.gate.agreement import bootstrap_intervals, cohen_kappa, gwet_ac1, measure


def table(yy: int, yn: int, ny: int, nn: int) -> list[tuple[int, int]]:
    """(label, judge) pairs of a 2×2 table: yes = 1, first rater = the label."""
    return [(1, 1)] * yy + [(1, 0)] * yn + [(0, 1)] * ny + [(0, 0)] * nn


def test_cohen_kappa_wikipedia_examples() -> None:
    assert cohen_kappa(Counter(table(20, 5, 10, 15)), [0, 1]) == pytest.approx(0.4)
    # same observed agreement (60 %), different marginals, different κ
    assert cohen_kappa(Counter(table(45, 15, 25, 15)), [0, 1]) == pytest.approx(0.1304, abs=1e-4)
    assert cohen_kappa(Counter(table(25, 35, 5, 35)), [0, 1]) == pytest.approx(0.2593, abs=1e-4)


def test_gwet_ac1_worked_examples() -> None:
    # 20/5/10/15: π(yes) = (25 + 30) / 100 = 0.55, pe = 2·0.55·0.45 = 0.495, AC1 = (0.7 − 0.495) / 0.505
    assert gwet_ac1(Counter(table(20, 5, 10, 15)), [0, 1]) == pytest.approx(0.205 / 0.505)
    # the paradox: po = 118/125 = 0.944; π = (123/125 + 120/125) / 2 = 0.972, pe = 2·0.972·0.028
    paradox = Counter(table(118, 5, 2, 0))
    assert gwet_ac1(paradox, [0, 1]) == pytest.approx((0.944 - 0.054432) / (1 - 0.054432))
    kappa = cohen_kappa(paradox, [0, 1])
    assert kappa is not None and kappa == pytest.approx(-0.0234, abs=1e-4)


def test_constant_judge_gets_kappa_zero_and_is_called_that() -> None:
    # 53 of 67 labels full marks, a judge that gives full marks without reading: 79 % raw agreement
    pairs = [(1, 1)] * 53 + [(0, 1)] * 14
    a = measure(pairs, [0, 1], resamples=200)
    assert a.raw == pytest.approx(53 / 67, abs=1e-4)
    assert a.constant == pytest.approx(53 / 67, abs=1e-4)
    assert a.kappa == 0
    assert a.no_better_than_constant
    assert a.verdict_words().startswith("no better than a constant judge")
    assert a.judge_higher == 14 and a.judge_lower == 0
    assert a.confusion == {"0→1": 14, "1→1": 53}


def test_a_reading_judge_is_better_than_constant() -> None:
    pairs = [(1, 1)] * 50 + [(0, 0)] * 12 + [(0, 1)] * 2 + [(1, 0)] * 3
    a = measure(pairs, [0, 1], resamples=500)
    assert a.raw is not None and a.constant is not None and a.raw > a.constant
    assert a.kappa is not None and a.kappa > 0.7
    assert a.kappa_ci is not None and 0 < a.kappa_ci[0] < a.kappa < a.kappa_ci[1]
    assert a.ac1_ci is not None and a.ac1_ci[0] < (a.ac1 or 0) < a.ac1_ci[1]
    assert a.verdict_words() == "better than a constant judge"


def test_all_one_category_is_undecidable_not_perfect() -> None:
    a = measure([(1, 1)] * 5, [0, 1], resamples=100)
    assert a.kappa is None and a.kappa_ci is None
    assert a.verdict_words().startswith("cannot tell")


def test_no_labels_is_not_measured() -> None:
    a = measure([], [0, 1], unscored=3)
    assert a.labels == 0 and a.unscored == 3 and a.raw is None
    assert a.verdict_words().startswith("not measured")


def test_bootstrap_is_deterministic_and_too_few_has_none() -> None:
    pairs = table(8, 2, 1, 5)
    assert bootstrap_intervals(pairs, [0, 1], resamples=300) == bootstrap_intervals(
        pairs, [0, 1], resamples=300
    )
    assert bootstrap_intervals([(1, 1)], [0, 1]) == (None, None)
