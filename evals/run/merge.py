"""Sharded runs: which trials a shard runs, and how shard run directories become one run again.

The nightly workflow spreads (scenario × trial slice) over a job matrix. A trial's world, prompts
and replay depend only on its scenario and index, so a shard that runs trial 3 produces what an
unsharded run would have for trial 3; merging is then a matter of putting every trial back exactly
once. Two shards that both hold a trial with *different* results mean the matrix overlapped or an
artifact was mixed up, and silently keeping one would count a trial twice or hide one, so that is
bad input naming the trial and the shards. The merged run is then summarised and gated like any
other run, through the same code as `grade` and `compare`.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from evals.core.errors import BadInputError
from evals.records.model import RunMeta, TrialRecord
from evals.records.rundir import RunDir

SLICE = re.compile(r"^(\d+)/(\d+)$")
# run.json fields every shard of one nightly run must agree on: a merge of runs of different
# agents, commits, judges, worlds or task instances would be a meaningless average.
MUST_AGREE = (
    "agent_spec",
    "commit",
    "agent_config_hash",
    "judge_model",
    "threshold",
    "world",
    "instance_seed",
)


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


def shard_matrix(
    scenarios: list[str], trials: str | int, slices: str | int
) -> dict[str, list[dict[str, str]]]:
    """The nightly job matrix: one shard per (scenario, trial slice), as GitHub's `include` list.

    Never more slices than trials, so no shard is empty. `name` is safe for an artifact name.
    """
    try:
        k, n = int(trials), int(slices)
    except ValueError as exc:
        raise BadInputError(f"trials {trials!r} and slices {slices!r} must be whole numbers") from exc
    if k < 1 or n < 1:
        raise BadInputError(f"trials ({k}) and slices ({n}) must be at least 1")
    if not scenarios:
        raise BadInputError("no scenarios to shard")
    n = min(n, k)
    return {
        "include": [
            {"scenario": s, "slice": f"{i}/{n}", "name": f"{s}-{i}-of-{n}"}
            for s in scenarios
            for i in range(n)
        ]
    }


@dataclass
class MergeResult:
    meta: RunMeta
    trials: int = 0
    missing: list[str] = field(default_factory=list)


def merged_meta(metas: dict[Path, RunMeta]) -> RunMeta:
    """One run.json for the whole: shards must agree on what was run; scenarios are the union."""
    first_path, first = next(iter(metas.items()))
    for path, meta in metas.items():
        for key in MUST_AGREE:
            if getattr(meta, key) != getattr(first, key):
                raise BadInputError(
                    f"{path}: run.json {key} is {getattr(meta, key)!r} but {first_path} has "
                    f"{getattr(first, key)!r}; shards of different runs cannot be merged"
                )
    scenarios: list[str] = []
    for meta in metas.values():
        scenarios += [s for s in meta.scenarios if s not in scenarios]
    return first.model_copy(
        update={
            "trial_slice": None,
            "scenarios": scenarios,
            "trials": max(m.trials for m in metas.values()),
            "started": min(m.started for m in metas.values()),
            "merged_from": [p.name for p in metas],
        }
    )


def _owners(shards: list[Path]) -> dict[tuple[str, int], tuple[Path, TrialRecord]]:
    """Which shard delivered each trial; the same trial with different results in two is an error."""
    owner: dict[tuple[str, int], tuple[Path, TrialRecord]] = {}
    for shard in shards:
        for record in RunDir(shard).read_records():
            key = (record.scenario, record.trial)
            if key in owner:
                other, seen = owner[key]
                if seen != record:
                    raise BadInputError(
                        f"trial {key[0]}#{key[1]} is in both {other} and {shard} with different results; "
                        "each trial must come from exactly one shard"
                    )
                continue
            owner[key] = (shard, record)
    return owner


def merge_runs(
    shards: list[Path], out: Path, recheck: Callable[[RunDir, TrialRecord], TrialRecord] | None = None
) -> MergeResult:
    """Copy every shard's trials into `out` once, and write its run.json and results.jsonl; each
    record through `recheck` first (the merge command's: layer 1 again, evals/run/recheck.py)."""
    if not shards:
        raise BadInputError("merge: name at least one shard run directory")
    if RunDir(out).has_results():
        raise BadInputError(f"{out}: already holds a run; choose another --out")
    meta = merged_meta({shard: RunDir(shard).read_meta() for shard in shards})
    owner = _owners(shards)
    rd = RunDir(out)
    rd.write_meta(meta)
    for (scenario, trial), (shard, record) in sorted(owner.items()):
        source = RunDir(shard).trial_dir(scenario, trial)
        if source.is_dir():
            shutil.copytree(source, rd.trial_dir(scenario, trial), dirs_exist_ok=True)
        rd.append_record(record if recheck is None else recheck(rd, record))
    expected = {(s, t) for s in meta.scenarios for t in range(meta.trials)}
    missing = sorted(expected - owner.keys())
    for scenario, trial in missing:
        rd.append_record(missing_record(meta, scenario, trial))
    return MergeResult(meta=meta, trials=len(owner), missing=[f"{s}#{t}" for s, t in missing])


def missing_record(meta: RunMeta, scenario: str, trial: int) -> TrialRecord:
    """A trial no shard delivered is an infrastructure failure: counted as errored, never scored.

    Recording it (rather than leaving it out) keeps the gate honest: a nightly whose shards mostly
    died gets the `error` verdict instead of a confident score over the few trials that survived.
    """
    return TrialRecord(
        scenario=scenario,
        trial=trial,
        status="error",
        agent=meta.agent,
        error="no shard delivered this trial (its shard job failed or its artifact is missing)",
    )
