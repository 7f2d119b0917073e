"""Which trial indices a run plans: all of `range(trials)`, or one shard's contiguous slice of them.

Here, beside run.json's model, because the run that plans its trials (`evals run --trial-slice`) and
every reader that checks a run holds exactly those trials (evals/records/validate.py) must agree on
one definition of a slice.
"""

from __future__ import annotations

import re

from evals.core.errors import BadInputError
from evals.records.model import RunMeta

SLICE = re.compile(r"^(\d+)/(\d+)$")


def parse_slice(spec: str) -> tuple[int, int]:
    """`I/N` (0-based I < N) as a pair; anything else is a usage error."""
    match = SLICE.match(spec.strip())
    if not match:
        raise BadInputError(f"--trial-slice {spec!r}: expected I/N, e.g. 0/2")
    index, count = int(match.group(1)), int(match.group(2))
    if count < 1 or index >= count:
        raise BadInputError(f"--trial-slice {spec!r}: need 0 <= I < N")
    return index, count


def slice_trials(spec: str, trials: int) -> list[int]:
    """The contiguous block of trial indices slice `I/N` of `trials` covers.

    Blocks tile `range(trials)` exactly, so the N slices of one run cover every trial once.
    An empty block is refused: a shard that runs nothing would look like a finished shard.
    """
    index, count = parse_slice(spec)
    block = list(range(index * trials // count, (index + 1) * trials // count))
    if not block:
        raise BadInputError(f"--trial-slice {spec}: empty for {trials} trial(s); use at most {trials} slices")
    return block


def planned_trials(meta: RunMeta, scenario: str | None = None) -> list[int]:
    """The trial indices run.json plans for `scenario` (None: for every scenario on `trials`;
    adaptive trials included: `trials` grows with them). A scenario that allocation by measured
    noise kept below `trials` plans `scenario_trials[scenario]` (never with a shard's slice)."""
    if meta.trial_slice:
        return slice_trials(meta.trial_slice, meta.trials)
    if scenario is not None and meta.scenario_trials and scenario in meta.scenario_trials:
        return list(range(meta.scenario_trials[scenario]))
    return list(range(meta.trials))
