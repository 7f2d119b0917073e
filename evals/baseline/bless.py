"""Making a finished run the baseline, and refusing runs that would make a misleading one.

A bless also carries each guard part's history forward (`with_guard_history`): a guard is one point
that is nearly always earned, and six baseline trials cannot tell a fall from 95% to 50% (Fisher's
test needs about 45 baseline trials for that; docs/gate.md), so the new baseline pools its own
full-marks count with the earlier blesses' for that part, newest first, up to
`gate.guard_history_trials` trials. Only trials the gate would still compare are pooled: a part whose
definition changed (its per-part fingerprint), or a scenario whose data, judge model or rest of the
rubric changed, starts its history afresh. Each sample is keyed by its run, so blessing the same run
again replaces its sample instead of counting it twice.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from evals.core.errors import BadInputError
from evals.core.stamps import now
from evals.gate.baseline_file import (
    BASELINE_VERSION,
    Baseline,
    BaselineScenario,
    BaselineTrial,
    GuardSample,
    load_baseline,
    recent,
)
from evals.gate.guards import full_marks
from evals.gate.judge_record import JudgeCheck, bless_refusal, identity_of, project_checks
from evals.gate.part_fingerprint import comparability
from evals.gate.summary import Summary
from evals.grade.rubric import load_rubric
from evals.records.model import TrialRecord
from evals.scenario.folder import ScenarioFolder

REFUSED_VERDICTS = ("regression", "inconclusive", "not-comparable", "error")

NEXT_STEP = {
    "error": "finish its errored trials with `evals run --resume {run}` and bless that",
    "regression": "fix the agent, or if the drop is intended review the report and bless with --force",
    "inconclusive": "add trials (`evals run --trials N`) until the gate decides, or bless with --force",
    "not-comparable": "bless it with --force if the changed scenario or judge is meant to be the new "
    "reference (its scores cannot be compared with the old baseline)",
}


def describe(summary: Summary) -> str:
    """The verdict and Δ of a run, said every time it is blessed or refused."""
    total = summary.total
    line = f"verdict {summary.verdict}"
    if total.mean is not None:
        line += f", total {total.mean:.2f} / {total.max}"
    if total.delta is not None and total.baseline is not None:
        line += f" (baseline {total.baseline:.2f}, Δ {total.delta:+.2f})"
    return line


def check_blessable(summary: Summary, records: list[TrialRecord], run_dir: Path, force: bool = False) -> None:
    """Refuse runs that would make a misleading baseline: a verdict other than pass (unless `force`,
    because blessing a regression silently makes it the new normal), and, always, a run that is
    empty or missing a scenario."""
    if summary.verdict in REFUSED_VERDICTS and not force:
        raise BadInputError(
            f"{run_dir}: not blessing a run whose {describe(summary)}; "
            + NEXT_STEP[summary.verdict].format(run=run_dir)
        )
    for name, agg in summary.scenarios.items():
        if not any(r.scenario == name and r.graded for r in records):
            raise BadInputError(
                f"{run_dir}: scenario {name} has no graded trial; not blessing it "
                f"(run it again with `evals run --resume {run_dir}`, or bless only other scenarios "
                "with --scenario)"
            )
        if agg.total.mean is None:
            raise BadInputError(
                f"{run_dir}: scenario {name} has no scored part; not blessing it (label the judged "
                "parts with `evals labels` or run with ANTHROPIC_API_KEY set)"
            )


def model_judged(records: list[TrialRecord]) -> bool:
    """Whether a model (or its cache) decided any part: an offline run is judged by the labels."""
    return any(
        p.judge is not None and p.judge.source in ("model", "cache")
        for r in records
        if r.grade is not None
        for p in r.grade.parts
    )


def check_judge_measured(
    summary: Summary, records: list[TrialRecord], checks: list[JudgeCheck], run_dir: Path
) -> str:
    """Refuse (always, --force or not) a model-judged run whose judge was never measured against
    people as this judge (model and every prompt), changed since, or fell below the floor: its scores
    rest on a ruler nobody checked. Only a project with no measurement at all (`judge.jsonl` empty or
    absent: a new adopter before its first night with a key) gets a warning, returned, instead;
    refusing there would stop every bless until a first measurement. Once one is recorded the project
    measures its judge, and a judge it never measured is refused like a changed one."""
    if not model_judged(records):
        return ""
    if not project_checks(checks):
        return (
            "warning: the judge's agreement with people was never measured (`evals judge agreement "
            "--record`): this baseline's judged parts rest on a judge nobody checked (docs/judge.md)"
        )
    why = bless_refusal(checks, identity_of(summary.fingerprint))
    if why is not None:
        raise BadInputError(f"{run_dir}: not blessing a model-judged run: {why}")
    return ""


def _trials(records: list[TrialRecord], scenario: str) -> list[BaselineTrial]:
    return [
        BaselineTrial(trial=r.trial, total=r.grade.total, parts={p.id: p.score for p in r.grade.parts})
        for r in records
        if r.scenario == scenario and r.status == "ok" and r.grade is not None
    ]


def baseline_from_run(
    summary: Summary, records: list[TrialRecord], run_dir: Path, force: bool = False
) -> Baseline:
    check_blessable(summary, records, run_dir, force)
    scenarios = {
        name: BaselineScenario(
            k=agg.k,
            max_points=agg.max_points,
            total_mean=agg.total.mean,
            total_stdev=agg.total.stdev,
            criteria={c: v.mean for c, v in agg.criteria.items()},
            criteria_pass_rate={c: v.pass_rate for c, v in agg.criteria.items()},
            categories={c: v.mean for c, v in agg.categories.items()},
            categories_pass_rate={c: v.pass_rate for c, v in agg.categories.items()},
            parts={p: v.mean for p, v in agg.parts.items()},
            trials=_trials(records, name),
            pass_at_1=agg.pass_at_1,
            pass_at_k=agg.pass_at_k,
            pass_pow_k=agg.pass_pow_k,
            usage=agg.usage,
        )
        for name, agg in summary.scenarios.items()
    }
    run = summary.run
    return Baseline(
        version=BASELINE_VERSION,
        created=now(),
        source={"commit": run.commit, "date": run.started, "run": run_dir.name, "run_started": run.started},
        agent={"spec": run.agent, "config_hash": run.agent_config_hash},
        fingerprint=summary.fingerprint,
        scenarios=scenarios,
    )


def previous_baseline(out: Path, configured: Path) -> Baseline | None:
    """The baseline a bless replaces, whose guard history it continues: the file at `out`, else the
    one the gate compares with (a nightly candidate written elsewhere continues the committed one).
    A corrupt one stops the bless rather than silently dropping the history."""
    path = out if out.exists() else configured
    try:
        return load_baseline(path)
    except BadInputError as exc:
        raise BadInputError(
            f"{exc}\n(bless reads it to carry the guard history forward; move it aside to bless afresh)"
        ) from exc


def guard_parts(scenarios_dir: Path, names: Iterable[str]) -> dict[str, list[str]]:
    """Each scenario's guard parts, from its rubric (a run records scores, not which parts are
    guards). A scenario whose folder is gone has none: its baseline then keeps no guard history."""
    out: dict[str, list[str]] = {}
    for name in names:
        folder = scenarios_dir / name
        if ScenarioFolder(folder).rubric.is_file():
            out[name] = [part.id for _, part in load_rubric(folder).parts() if part.guard]
    return out


def comparable_parts(previous: Baseline, new: Baseline, name: str) -> set[str] | None:
    """The parts of scenario `name` whose trials in `previous` the gate would compare with `new`'s:
    an empty set when something scenario-wide changed (or `previous` lacks the scenario), None when
    every part is (a baseline blessed before part hashes existed, with an identical fingerprint)."""
    old_fp = previous.fingerprint.get("scenarios", {}).get(name)
    new_fp = new.fingerprint.get("scenarios", {}).get(name)
    if old_fp is None or new_fp is None or name not in previous.scenarios:
        return set()
    found = comparability(
        {"judge_model": previous.fingerprint.get("judge_model"), "scenarios": {name: old_fp}},
        {"judge_model": new.fingerprint.get("judge_model"), "scenarios": {name: new_fp}},
        {},
        100.0,  # any share of changed parts: those parts reset, the others keep their history
    )
    if found.blocking:
        return set()
    parts = new_fp.get("parts")
    if not isinstance(parts, dict):
        return None
    changed = set(found.changed.get(name, []))
    return {p for p in parts if p not in changed}


def own_sample(scenario: BaselineScenario, part: str, top: float, key: tuple[str, str]) -> GuardSample | None:
    """A baseline scenario's own full-marks count for `part` (None when no trial scored it)."""
    passed, trials = full_marks((t.parts.get(part) for t in scenario.trials), top)
    if trials == 0:
        return None
    return GuardSample(run=key[0], started=key[1], passed=passed, trials=trials)


def source_key(baseline: Baseline) -> tuple[str, str]:
    """The run a baseline was blessed from, as a guard sample's key."""
    src = baseline.source
    return (src.get("run") or "baseline", src.get("run_started") or src.get("date") or baseline.created)


def earlier_samples(previous: Baseline, name: str, part: str, top: float) -> list[GuardSample]:
    """What `previous` knows of `part`: its guard history, or, for a baseline blessed before guard
    histories (or before the part was a guard), one sample of its own trials."""
    base = previous.scenarios[name]
    if part in base.guard_history:
        return list(base.guard_history[part])
    own = own_sample(base, part, top, source_key(previous))
    return [] if own is None else [own]


def with_guard_history(
    new: Baseline,
    previous: Baseline | None,
    summary: Summary,
    guards: dict[str, list[str]],
    max_trials: int,
) -> Baseline:
    """`new` with each guard part's history: its own sample, then `previous`'s samples of that part
    while the part is comparable (less any sample of the same run), cut to `max_trials` trials."""
    key = source_key(new)
    scenarios = dict(new.scenarios)
    for name, scenario in new.scenarios.items():
        keep = comparable_parts(previous, new, name) if previous is not None else set()
        history: dict[str, list[GuardSample]] = {}
        for part in guards.get(name, []):
            stats = summary.scenarios[name].parts.get(part) if name in summary.scenarios else None
            own = None if stats is None else own_sample(scenario, part, stats.max, key)
            if own is None or stats is None:
                continue
            earlier: list[GuardSample] = []
            if previous is not None and (keep is None or part in keep):
                earlier = [s for s in earlier_samples(previous, name, part, stats.max) if s.key != key]
            history[part] = recent([own, *earlier], max_trials)
        if history:
            scenarios[name] = scenario.model_copy(update={"guard_history": history})
    return new.model_copy(update={"scenarios": scenarios})
