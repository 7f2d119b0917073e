"""Sharded runs: which trials a shard runs, and how shard run directories become one run again.

The nightly workflow spreads (scenario × trial slice) over a job matrix. A trial's world, prompts
and replay depend only on its scenario and index, so a shard that runs trial 3 produces what an
unsharded run would have for trial 3; merging is then a matter of putting every trial back exactly
once. Two shards that both hold a trial (the same shard given twice, a copied artifact, an
overlapping matrix) would count a trial twice or hide a missing one, so that is bad input naming
the trial and the shards; so is one directory named twice. The merged run is then summarised and
gated like any other run, through the same code as `grade` and `compare`.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from evals.core.errors import BadInputError, RunDataError
from evals.records.model import RunMeta, TrialRecord
from evals.records.rundir import RunDir
from evals.records.trials import planned_trials

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
    skipped = sorted({name for meta in metas.values() for name in meta.skipped or []})
    return first.model_copy(
        update={
            "trial_slice": None,
            "scenarios": scenarios,
            "trials": max(m.trials for m in metas.values()),
            "started": min(m.started for m in metas.values()),
            "merged_from": [p.name for p in metas],
            "skipped": skipped or None,
            "stopped_by_budget": True if any(m.stopped_by_budget for m in metas.values()) else None,
        }
    )


def _distinct(shards: list[Path]) -> None:
    """Each shard named once: the same directory twice would pass for two shards, and the trials
    its twin should have held would be counted as errored, never noticed (issue #29)."""
    seen: dict[Path, Path] = {}
    for shard in shards:
        real = shard.resolve()
        if real in seen:
            raise BadInputError(f"{shard}: the same shard as {seen[real]}, given twice; name each shard once")
        seen[real] = shard


def _owners(
    shards: list[Path], metas: dict[Path, RunMeta]
) -> dict[tuple[str, int], tuple[Path, TrialRecord]]:
    """Which shard delivered each trial. Each trial comes from exactly one shard and lies in that
    shard's own plan (its scenarios and trial slice): the same trial in two shards (a copied or
    overlapping shard) or a trial its shard never planned is an error naming both places."""
    owner: dict[tuple[str, int], tuple[Path, TrialRecord]] = {}
    for shard in shards:
        rd, meta = RunDir(shard), metas[shard]
        planned = set(planned_trials(meta))
        for record in rd.read_records():
            key = (record.scenario, record.trial)
            if record.scenario not in meta.scenarios or record.trial not in planned:
                raise RunDataError(
                    f"{rd.results_path}: trial {key[0]}#{key[1]} is not in this shard's plan "
                    f"({', '.join(meta.scenarios)}, slice {meta.trial_slice or 'all'} of {meta.trials})"
                )
            if key in owner:
                raise BadInputError(
                    f"trial {key[0]}#{key[1]} is in both {owner[key][0]} and {shard}; "
                    "each trial must come from exactly one shard"
                )
            owner[key] = (shard, record)
    return owner


def merge_runs(
    shards: list[Path], out: Path, recheck: Callable[[RunDir, TrialRecord], TrialRecord] | None = None
) -> MergeResult:
    """Copy every shard's trials into `out` once, and write its run.json and results.jsonl; each
    record through `recheck` first (the merge command's: layer 1 again, evals/run/recheck.py)."""
    if not shards:
        raise BadInputError("merge: name at least one shard run directory")
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise BadInputError(f"--out {out}: already exists; merge writes a new run directory")
    _distinct(shards)
    metas = {shard: RunDir(shard).read_meta() for shard in shards}
    meta = merged_meta(metas)
    owner = _owners(shards, metas)
    rd = RunDir(out)
    rd.write_meta(meta)
    for (scenario, trial), (shard, _) in sorted(owner.items()):
        source = RunDir(shard).trial_dir(scenario, trial)
        if source.is_dir():
            shutil.copytree(source, rd.trial_dir(scenario, trial), dirs_exist_ok=True)
    skipped = set(meta.skipped or [])
    expected = {(s, t) for s in meta.scenarios for t in range(meta.trials) if f"{s}#{t}" not in skipped}
    missing = sorted(expected - owner.keys())
    records = {key: record if recheck is None else recheck(rd, record) for key, (_, record) in owner.items()}
    records.update({(s, t): missing_record(meta, s, t) for s, t in missing})
    rd.write_records([records[key] for key in sorted(records)])
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
