"""Making a finished run the baseline, and refusing runs that would make a misleading one."""

from __future__ import annotations

from pathlib import Path

from evals.baseline import BASELINE_VERSION, Baseline, BaselineScenario, BaselineTrial, now
from evals.errors import BadInputError
from evals.records import TrialRecord
from evals.summary import Summary

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
