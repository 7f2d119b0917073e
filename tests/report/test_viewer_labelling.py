"""What the viewer's labelling panel is given: every judged part with evidence, and the agreement."""

from __future__ import annotations

from typing import Any

from evals.report.viewer.labelling import judged_parts

SHA = "a" * 64


def part(pid: str, criterion: str, judged: bool, sha: str | None = SHA) -> dict[str, Any]:
    judge = {"status": "scored", "source": "model", "score": 1} if judged else None
    return {"id": pid, "criterion": criterion, "judge": judge, "evidence_sha256": sha}


def test_only_parts_a_judge_decided_on_hashed_evidence_are_listed_in_page_order() -> None:
    trials = [
        {"parts": [part("T1a", "T1", False), part("T1b", "T1", True), part("T5", "T5", True, sha=None)]},
        {"parts": []},
        {"parts": [part("T5", "T5", True), part("T1b", "T1", True)]},
    ]
    assert judged_parts(trials) == [[0, "T1b", "T1"], [2, "T5", "T5"], [2, "T1b", "T1"]]
