"""report.md for each verdict, against golden files in tests/snapshots/ (UPDATE_SNAPSHOTS=1 rewrites).

The reports are built through the live path (aggregate → baseline_from_run → compare →
build_summary → render) from synthetic, seeded trial results on a 20-criterion, 25-point rubric
shaped like Nightshift's, so a change to any of those stages shows up as a readable diff here.
"""

from __future__ import annotations

import os
import random
from pathlib import Path
from typing import Any

import pytest

from evals.aggregate import aggregate
from evals.baseline import Baseline
from evals.bless import baseline_from_run
from evals.compare import Settings, compare
from evals.config import GateConfig, Threshold
from evals.gate import Verdict, verdict
from evals.grade.rubric import Rubric
from evals.records import RunMeta, TrialRecord
from evals.report import MARKER, ViewerLink, render
from evals.summary import Summary, build_summary

SNAPSHOTS = Path(__file__).parent / "snapshots"
CATEGORIES = ["code", "infrastructure", "documentation", "communication"]
TWO_POINT = {"C2", "C4", "C5", "C9", "C11"}
JUDGED = {"C13", "C17", "C20"}
FINGERPRINT: dict[str, Any] = {
    "judge_model": "claude-haiku-4-5",
    "scenarios": {
        "nightshift": {
            "data": "d" * 8,
            "data_files": {"emails.yaml": "e" * 8},
            "rubric": "r" * 8,
            "judge_prompts": {"judge/C13.md": "a" * 8, "judge/C17.md": "b" * 8},
        }
    },
}
META: dict[str, Any] = {
    "agent": "claude (claude-sonnet-4-5)",
    "agent_spec": "claude",
    "trials": 4,
    "scenarios": ["nightshift"],
    "commit": "0123456789abcdef0123",
    "started": "2026-11-30T01:00:00Z",
}


def synthetic_rubric() -> Rubric:
    """20 criteria, 25 points, four categories: the shape of Nightshift's rubric."""
    criteria = []
    for n in range(1, 21):
        cid = f"C{n}"
        ids = [f"{cid}a", f"{cid}b"] if cid in TWO_POINT else [cid]
        parts: list[dict[str, Any]] = []
        for pid in ids:
            if cid in JUDGED:
                parts.append(
                    {
                        "id": pid,
                        "points": 1,
                        "judge": {"prompt": f"judge/{cid}.md", "evidence": "mail.to_persona"},
                    }
                )
            else:
                parts.append({"id": pid, "points": 1, "checks": [{"check": "python.constant_equals"}]})
        criteria.append(
            {
                "id": cid,
                "title": f"Criterion {n} of the night",
                "category": CATEGORIES[(n - 1) // 5],
                "parts": parts,
            }
        )
    return Rubric.model_validate(
        {
            "max_points": 25,
            "pass_threshold": 18,
            "categories": {c: {"title": c.title()} for c in CATEGORIES},
            "criteria": criteria,
        }
    )


def trial_record(
    rubric: Rubric,
    trial: int,
    fail: set[str],
    unscored: set[str] = frozenset(),
    status: str = "ok",  # type: ignore[assignment]
) -> TrialRecord:
    """One results.jsonl line: parts in `fail` score 0 with a reason and evidence, `unscored` None."""
    if status != "ok":
        return TrialRecord.model_validate(
            {
                "scenario": "nightshift",
                "trial": trial,
                "status": status,
                "error": "Anthropic API 529 overloaded after 3 retries",
                "grade": None,
                "metrics": {},
            }
        )
    parts = []
    for criterion, part in rubric.parts():
        judged = part.judge is not None
        if part.id in unscored:
            score, state, reason = (
                None,
                "unscored",
                "judge answered unknown: the evidence does not show the reply",
            )
        elif part.id in fail:
            score, state = 0.0, "failed"
            reason = (
                f"judge: the update for {part.id} omits the root cause"
                if judged
                else f"check failed: {part.id} expected 2048, found 1024"
            )
        else:
            score, state, reason = 1.0, "passed", f"{part.id} ok"
        parts.append(
            {
                "id": part.id,
                "criterion": criterion.id,
                "category": criterion.category,
                "max_points": part.points,
                "score": score,
                "status": state,
                "layer": 2 if judged else 1,
                "reason": reason,
                "evidence_excerpt": f"buffer_size = 1024  # {part.id} | from e2" if state == "failed" else "",
            }
        )
    total = sum(p["score"] or 0 for p in parts)
    grade = {
        "scenario": "nightshift",
        "trial": trial,
        "total": total,
        "max_scored": sum(p["max_points"] for p in parts if p["score"] is not None),
        "unscored": [p["id"] for p in parts if p["score"] is None],
        "criteria": {},
        "categories": {},
        "passed": total >= rubric.pass_threshold,
        "parts": parts,
    }
    return TrialRecord.model_validate(
        {
            "scenario": "nightshift",
            "trial": trial,
            "status": "ok",
            "error": None,
            "grade": grade,
            "metrics": {
                "input_tokens": 52000 + 100 * trial,
                "output_tokens": 4100,
                "cost_usd": 0.21,
                "turns": 31 + trial,
            },
        }
    )


def noisy_trials(
    rubric: Rubric, k: int, seed: int, weak: dict[str, float], start: int = 0
) -> list[TrialRecord]:
    """k trials where each part in `weak` fails with the given probability (seeded)."""
    rng = random.Random(seed)
    return [
        trial_record(rubric, start + t, {p for p, q in weak.items() if rng.random() < q}) for t in range(k)
    ]


BASE_WEAK = {"C3": 0.3, "C8": 0.3, "C12": 0.4, "C15": 0.3, "C18": 0.2, "C2b": 0.3}


def summarise(
    records: list[TrialRecord],
    baseline: Baseline | None,
    settings: GateConfig | None = None,
    fingerprint: dict[str, Any] = FINGERPRINT,
    rubric: Rubric | None = None,
    **meta: Any,
) -> Summary:
    """The live back half (aggregate → compare → verdict → summary) on synthetic records."""
    rubric = rubric or synthetic_rubric()
    agg = {"nightshift": aggregate(records, rubric)}
    comparison = compare(
        agg, fingerprint, baseline, Settings(Threshold(points=1.5), settings or GateConfig(), 0.5)
    )
    decided = verdict(comparison, several_scenarios=False)
    return build_summary(
        RunMeta.model_validate({**META, **meta}), agg, comparison, decided, fingerprint, records
    )


def make_baseline(rubric: Rubric, fingerprint: dict[str, Any] = FINGERPRINT) -> Baseline:
    records = noisy_trials(rubric, 10, seed=1, weak=BASE_WEAK)
    summary = summarise(records, None, fingerprint=fingerprint, rubric=rubric, trials=10)
    return baseline_from_run(summary, records, Path("runs/nightly-2026-11-29"))


def report_for(
    records: list[TrialRecord],
    baseline: Baseline | None,
    settings: GateConfig | None = None,
    fingerprint: dict[str, Any] = FINGERPRINT,
    rubric: Rubric | None = None,
    **meta: Any,
) -> tuple[str, Verdict, dict[str, Any]]:
    summary = summarise(records, baseline, settings, fingerprint, rubric, **meta)
    # the local link (viewer.html next to report.md), whatever environment the tests run in
    return render(summary, ViewerLink("viewer.html")), summary.verdict_of(), summary.model_dump(mode="json")


def assert_snapshot(name: str, text: str) -> None:
    path = SNAPSHOTS / f"{name}.md"
    if os.environ.get("UPDATE_SNAPSHOTS") or not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8"), f"{path} differs; UPDATE_SNAPSHOTS=1 to accept"


@pytest.fixture
def rubric() -> Rubric:
    return synthetic_rubric()


def test_a_run_like_the_baseline_passes(rubric: Rubric) -> None:
    report, gate, _ = report_for(noisy_trials(rubric, 4, seed=2, weak=BASE_WEAK), make_baseline(rubric))
    assert gate.verdict == "pass"
    assert report.startswith(f"{MARKER}\n## ✅ Agent evals: **pass**")
    assert_snapshot("report_pass", report)


def test_a_clear_drop_is_a_regression_with_reasons_and_evidence(rubric: Rubric) -> None:
    weak = {**BASE_WEAK, "C1": 1.0, "C13": 1.0, "C7": 0.9}
    report, gate, summary = report_for(
        noisy_trials(rubric, 6, seed=3, weak=weak), make_baseline(rubric), trials=6
    )
    assert gate.verdict == "regression"
    assert summary["gate"]["ci"][1] < 0
    dropped = report.split("**What dropped**")[1]
    assert "C1a" not in dropped and "**C1**" in dropped and "expected 2048, found 1024" in dropped
    assert "**C13**" in dropped and "judge" in dropped and "omits the root cause" in dropped
    assert "buffer_size = 1024" in dropped
    assert "**C1** Criterion 1 of the night: failed in 6 of 6 trials" in dropped
    first_screen = "\n".join(report.splitlines()[:25])  # what the PR comment shows first
    for name in (
        "C1 Criterion 1 of the night",
        "C13 Criterion 13 of the night",
        "C7 Criterion 7 of the night",
    ):
        assert name in first_screen
    assert "▼ -100 pp" in first_screen and "viewer.html#nightshift/0/C1" in first_screen
    assert_snapshot("report_regression", report)


def test_a_drop_the_noise_explains_is_inconclusive(rubric: Rubric) -> None:
    pool = ["C7", "C9a", "C14", "C19", "C3", "C8", "C12", "C15"]
    totals = [25, 18, 24, 19, 25, 17]
    records = [trial_record(rubric, t, set(pool[: 25 - total])) for t, total in enumerate(totals)]
    report, gate, summary = report_for(
        records, make_baseline(rubric), GateConfig(max_trials=6), trials=6, trials_started=4, trials_budget=6
    )
    assert gate.verdict == "inconclusive", summary["gate"]
    assert gate.exit_code == 0
    low, high = summary["gate"]["ci"]
    assert summary["gate"]["delta"] < -1.5 and low < 0 < high
    assert "(started with 4; 2 added while the verdict was undecided)" in report
    assert "smallest drop this k detects" in report
    assert_snapshot("report_inconclusive", report)


def test_a_changed_judge_prompt_is_not_comparable_and_named(rubric: Rubric) -> None:
    changed = {
        **FINGERPRINT,
        "scenarios": {
            "nightshift": {
                **FINGERPRINT["scenarios"]["nightshift"],
                "judge_prompts": {"judge/C13.md": "a" * 8, "judge/C17.md": "c" * 8},
            }
        },
    }
    report, gate, _ = report_for(
        noisy_trials(rubric, 4, seed=2, weak=BASE_WEAK), make_baseline(rubric), fingerprint=changed
    )
    assert gate.verdict == "not-comparable" and gate.exit_code == 4
    assert "judge prompt judge/C17.md changed" in report.splitlines()[3]
    assert_snapshot("report_not_comparable", report)


def test_mostly_errored_trials_are_an_error_not_a_regression(rubric: Rubric) -> None:
    records = [trial_record(rubric, 0, set())] + [
        trial_record(rubric, t, set(), status="error") for t in (1, 2, 3)
    ]
    report, gate, _ = report_for(records, make_baseline(rubric))
    assert gate.verdict == "error" and gate.exit_code == 3
    assert "3 of 4 trials failed for infrastructure reasons" in report
    assert report.count("529 overloaded") >= 3
    assert_snapshot("report_error", report)


def test_unscored_parts_are_listed_and_never_counted_as_zero(rubric: Rubric) -> None:
    records = [trial_record(rubric, t, set(), unscored={"C17"}) for t in range(4)]
    report, _, summary = report_for(records, make_baseline(rubric))
    assert summary["criteria"]["C17"]["mean"] is None
    assert "- C17 in 4 trials: judge answered unknown" in report


def _pass_rows(report: str) -> dict[str, str]:
    """The Δ cell of each pass-rate row of the scenario's overview table."""
    cells = [line.split("|") for line in report.splitlines() if line.startswith("| pass")]
    return {c[1].strip(): c[-2].strip() for c in cells}


def test_a_pass_rate_change_chance_explains_is_marked_and_a_real_one_keeps_its_arrow(rubric: Rubric) -> None:
    """pass@k and pass^k follow the passed-of-trials rate: one failure in six against ten passes is
    chance (Fisher p = 0.38, marked n.s., no arrow); six failures in six is not (p < 0.001)."""
    baseline = make_baseline(rubric)
    below = {"C1", "C2a", "C4a", "C5a", "C6", "C7", "C8", "C9a", "C10"}  # 16 of 25: under the pass line
    one_fails = [trial_record(rubric, t, below if t == 0 else set()) for t in range(6)]
    report, _, summary = report_for(one_fails, baseline)
    assert summary["comparison"]["nightshift"]["pass_p"] == pytest.approx(0.375, abs=1e-3)
    assert _pass_rows(report)["pass@1"] == "-17 pp n.s." and "_n.s.: not significant" in report
    all_fail = [trial_record(rubric, t, below) for t in range(6)]
    report, _, summary = report_for(all_fail, baseline)
    assert summary["comparison"]["nightshift"]["pass_p"] < 0.001
    assert _pass_rows(report)["pass@1"] == "▼ -100 pp" and "n.s." not in report
