"""A synthetic Nightshift-shaped rubric, trials and baseline, for tests of the back half and the report."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from evals.baseline.bless import baseline_from_run
from evals.core.config import GateConfig, Threshold
from evals.gate.aggregate import aggregate
from evals.gate.baseline_file import Baseline
from evals.gate.compare import Settings, compare
from evals.gate.operating import tally
from evals.gate.summary import Summary, build_summary
from evals.gate.verdict import Verdict, verdict
from evals.grade.rubric import Rubric
from evals.records.model import RunMeta, TrialRecord
from evals.report.markdown import ViewerLink, render

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
        RunMeta.model_validate({**META, **meta}),
        agg,
        comparison,
        decided,
        fingerprint,
        records,
        operating=tally([]),  # as a definition with no operating.jsonl yet gives every report
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
