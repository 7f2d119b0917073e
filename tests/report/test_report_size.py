"""However many trials, the report fits one GitHub comment (65,536 characters) with its verdict on top."""

from __future__ import annotations

import random

from evals.core.errors import BadInputError
from evals.grade.rubric import Rubric, load_rubric
from evals.report.markdown import MARKER, MAX_CHARS, fit
from tests.support.paths import ROOT
from tests.support.synthetic import make_baseline, report_for, synthetic_rubric, trial_record

NIGHTSHIFT = ROOT / "scenario" / "nightshift"


def nightshift_rubric() -> Rubric:
    """Nightshift's own 25-point rubric; a synthetic one of the same shape while it is being written."""
    try:
        return load_rubric(NIGHTSHIFT)
    except BadInputError:
        return synthetic_rubric()


def test_fifty_trials_of_nightshift_render_under_the_limit_with_the_verdict_intact() -> None:
    rubric = nightshift_rubric()
    assert rubric.max_points == 25
    rng = random.Random(50)
    part_ids = [p.id for _, p in rubric.parts()]
    records = [trial_record(rubric, t, set(rng.sample(part_ids, rng.randint(3, 12)))) for t in range(50)]
    for record in records:  # long judge critiques and check details, as real ones can be
        assert record.grade is not None
        for part in record.grade.parts:
            part.reason = (part.reason + " because " + "the evidence shows otherwise; " * 20)[:600]
    report, gate, summary = report_for(records, make_baseline(rubric), rubric=rubric, trials=50)
    assert summary["gate"] is not None and gate.verdict == "regression"
    assert len(report) <= MAX_CHARS
    lines = report.splitlines()
    assert lines[0] == MARKER
    assert lines[1].startswith("## ") and f"**{gate.verdict}**" in lines[1]
    assert "**Criteria**" in report and "**What dropped**" in report
    assert "viewer.html" in report and "<summary>trial" not in report  # per-trial details are in the viewer


def test_a_head_too_long_for_a_comment_is_cut_after_the_verdict() -> None:
    head = f"{MARKER}\n## ❌ Agent evals: **regression**\n\n" + "- a reason that goes on and on\n" * 5000
    report = fit(head, ["<details><summary>trial 0</summary>\n\nx\n\n</details>"])
    assert len(report) <= MAX_CHARS
    assert report.splitlines()[1] == "## ❌ Agent evals: **regression**"
    assert report.rstrip().endswith("the full report is in the run's artifact._")
    assert "<details>" not in report
