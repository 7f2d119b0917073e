"""The label judge: a person's score for a part on one piece of evidence (scenario labels.yaml).

It is the judge when no model can be asked. It never reads the model cache, so an offline result
does not depend on what one machine happened to cache; evidence nobody labelled stays unscored.
"""

from __future__ import annotations

from collections.abc import Mapping

from evals.grade.judge._judgement import Judgement
from evals.grade.judge._protocol import JudgeRequest
from evals.grade.labels import Label


class LabelJudge:
    """Looks each request up by (part, evidence hash) in the human labels."""

    model: None = None

    def __init__(self, labels: Mapping[tuple[str, str], Label]) -> None:
        self.labels = labels

    def decide_all(self, requests: list[JudgeRequest]) -> list[Judgement]:
        return [self.decide(r) for r in requests]

    def decide(self, request: JudgeRequest) -> Judgement:
        label = self.labels.get((request.part, request.evidence_sha))
        if label is not None:
            return Judgement(
                status="scored",
                source="label",
                score=min(label.score, request.points),
                critique=f"{label.by}: {label.why}",
                prompt_version=request.prompt.version,
            )
        return Judgement(
            status="unavailable",
            source="none",
            critique=f"no ANTHROPIC_API_KEY and no human label for {request.part} "
            f"with evidence {request.evidence_sha[:12]}",
            prompt_version=request.prompt.version,
        )
