"""Numbers that can exist (#40): the total's interval is cut to what the points allow, and the
smallest detectable drop past the task's points says to add trials instead of a number."""

from __future__ import annotations

from evals.gate.compare import TotalComparison, clip


def total(**change: object) -> TotalComparison:
    fields: dict[str, object] = dict(
        baseline=23.0, run=21.0, delta=-2.0, ci=(-51.84, 46.17), confidence=0.88, se=20.0,
        allowed_drop=1.5, detectable_drop=62.03, power=0.8, k=2, baseline_k=2, budget=15,
        max_points=25.0,
    )  # fmt: skip
    return TotalComparison.model_validate({**fields, **change})


def test_an_interval_past_the_scale_is_cut_to_it_and_says_so() -> None:
    (low, high), cut = clip((-51.84, 46.17), baseline=23.0, max_points=25.0)
    assert (low, high) == (-23.0, 2.0) and cut
    assert clip((-3.0, -1.0), baseline=23.0, max_points=25.0) == ((-3.0, -1.0), False)
    text = total(ci=(low, high), clipped=True).interval_text()
    assert text == "88% CI -23.00 to +2.00 (clipped to what a total of 0–25 allows)"
    assert "clipped" not in total(ci=(-3.0, -1.0)).interval_text()


def test_the_cut_keeps_every_sign_the_gate_reads() -> None:
    for ci in [(-60.0, -0.5), (-60.0, 0.0), (0.5, 60.0), (-60.0, 60.0)]:
        (low, high), _ = clip(ci, baseline=25.0, max_points=25.0)
        assert (high < 0) == (ci[1] < 0) and (low > 0) == (ci[0] > 0)


def test_a_detectable_drop_beyond_the_points_asks_for_trials() -> None:
    assert total().detects() == "more than the task's 25 points: add trials"
    assert total(detectable_drop=4.28).detects() == "4.28 points"
    assert total(detectable_drop=62.0, max_points=None).detects() == "62 points"
