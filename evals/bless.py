"""Making a finished run the baseline, and refusing runs that would make a misleading one."""

from __future__ import annotations

from pathlib import Path

from evals.baseline import BASELINE_VERSION, Baseline, BaselineScenario, BaselineTrial, now
from evals.errors import BadInputError
from evals.records import TrialRecord
from evals.summary import Summary


def check_blessable(summary: Summary, records: list[TrialRecord], run_dir: Path) -> None:
    """Refuse runs that would make a misleading baseline: errored, empty, or missing a scenario."""
    if summary.verdict == "error":
        raise BadInputError(f"{run_dir}: the run's verdict is error; not blessing it")
    for name, agg in summary.scenarios.items():
        if not any(r.scenario == name and r.graded for r in records):
            raise BadInputError(f"{run_dir}: scenario {name} has no graded trial; not blessing it")
        if agg.total.mean is None:
            raise BadInputError(f"{run_dir}: scenario {name} has no scored part; not blessing it")


def _trials(records: list[TrialRecord], scenario: str) -> list[BaselineTrial]:
    return [
        BaselineTrial(trial=r.trial, total=r.grade.total, parts={p.id: p.score for p in r.grade.parts})
        for r in records
        if r.scenario == scenario and r.status == "ok" and r.grade is not None
    ]


def baseline_from_run(summary: Summary, records: list[TrialRecord], run_dir: Path) -> Baseline:
    check_blessable(summary, records, run_dir)
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
