"""Decide whether content is flagged from its toxicity score."""

from dataclasses import dataclass

FLAG_THRESHOLD = {{param:th.old}}


@dataclass(frozen=True)
class Decision:
    score: float
    flagged: bool


def is_flagged(score: float) -> bool:
    """True when the toxicity score is at or above the flagging threshold."""
    if not 0.0 <= score <= 1.0:
        raise ValueError(f"score must be between 0 and 1, got {score}")
    return score >= FLAG_THRESHOLD


def classify(score: float) -> Decision:
    return Decision(score=score, flagged=is_flagged(score))
