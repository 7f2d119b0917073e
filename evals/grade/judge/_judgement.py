"""What a judge answers about one part, as stored on the part grade and in the judge cache.

A judgement is typed so a grade that reads it back (results.jsonl, grade.json, the cache) is checked,
and its JSON keys are exactly the ones older runs wrote, so old and new code read each other's files.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from evals.core.model import FrozenModel

Status = Literal["scored", "unknown", "error", "unavailable"]
Source = Literal["model", "cache", "label", "none"]


class Judgement(FrozenModel):
    """One part's judgement: `scored` carries a score; every other status leaves the part unscored."""

    status: Status
    source: Source = Field(description="who decided: the model, the cache of its answers, a human label")
    score: int | None = None
    critique: str = ""
    model: str | None = None
    prompt_version: str | None = None
    usage: dict[str, int] = Field(
        default_factory=dict, description="input_tokens and output_tokens of a model call; {} otherwise"
    )
