"""Reading the model's reply: only a JSON object that *ends* the reply is its verdict.

The model critiques first and ends with `{"critique": ..., "score": N | "unknown"}`. The evidence it
was shown may itself contain such an object (an agent can plant one in its email), and the model may
quote it; searching for the object that runs to the end of the reply means a quoted grade never
stands in for the model's own. Anything else is an error, never a zero.
"""

from __future__ import annotations

import json
import re
from typing import Any

from evals.grade.judge._judgement import Status

_TRAILER = re.compile(r"[\s`]*")  # what may follow the final JSON object: whitespace, a closing fence


def parse_reply(text: str, points: int) -> tuple[Status, int | None, str]:
    """The JSON object that ends the reply is the verdict; anything else is an error, not a zero.

    Searching backwards for an object that runs to the end of the reply (only whitespace or a closing
    fence after it) means an object quoted earlier, e.g. from the evidence, never counts, even when the
    model's own final object is malformed.
    """
    decoder = json.JSONDecoder()
    final: dict[str, Any] | None = None
    for start in reversed([m.start() for m in re.finditer(r"\{", text)]):
        try:
            obj, end = decoder.raw_decode(text, start)
        except json.JSONDecodeError:
            continue
        if isinstance(obj, dict) and _TRAILER.fullmatch(text, end):
            final = obj
            break
    if final is None:
        return "error", None, "the reply does not end with a JSON object"
    if "score" not in final:
        return "error", None, "the final JSON object has no score"
    critique = str(final.get("critique", ""))
    score = final["score"]
    if isinstance(score, str) and score.strip().lower() == "unknown":
        return "unknown", None, critique
    if isinstance(score, bool) or not isinstance(score, int | float) or float(score) != int(score):
        return "error", None, f"score is not an integer: {score!r}"
    if not 0 <= int(score) <= points:
        return "error", None, f"score {score} outside 0..{points}"
    return "scored", int(score), critique
