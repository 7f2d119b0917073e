"""Token usage: what an agent's or a judge's model calls consumed, in the API's four counters.

Its own module because three places price or add it (the agents, the pricing file, the judge's
cost) and none of them should import another's machinery to do so: `compare` prices a stored run
without loading any agent code.
"""

from __future__ import annotations

from evals.core.model import StrictModel


class Usage(StrictModel):
    input_tokens: int = 0
    output_tokens: int = 0
    cache_read_input_tokens: int = 0
    cache_creation_input_tokens: int = 0

    def add(self, other: Usage) -> Usage:
        return Usage(**{k: getattr(self, k) + getattr(other, k) for k in Usage.model_fields})
