"""The nightly A/A check: the night's own trials split in two and gated against each other.

Both halves are the same agent on the same definition and the same night's instances, so the
truth is "no change" and any regression verdict is a false alarm. It costs no model call: the
trials are the nightly's, already run and graded.

**The split.** Each scenario's graded trials, in trial order, go alternately to half A and half B
(with every trial present: even indices to A, odd to B). Alternating, not first half against second,
because the nightly's shards run contiguous blocks of trial indices (`--trial-slice`): a first/second
split would set shard 0 against shard 1 and measure whatever differs between two jobs (a slow API
window, a runner, a rate limit) as if it were the agent. Alternation puts both shards, and the replays
that cycle by trial index, into both halves. Errored trials carry no score and are left out (the
night's own verdict counts them); a scenario with fewer than two graded trials cannot be split and is
named in `unsplit`, and a night with none to split is recorded as `too-few-trials`, never as a pass.

**The rule is the PR gate's, not a copy.** Half A is made a baseline by `baseline_from_run` (as
`baseline bless` does) and half B is summarised against it by `EvalDefinition.summarise`: the same
aggregate, compare (clusters, Welch interval, unscored parts), guards (Fisher, Holm) and verdict code
the PR's verdict runs. What differs, and is said in docs/gate.md: half A has no guard history
(its guards are tested against its own trials), the halves are k/2 trials each, and no trials can be
added, so this measures one look at the last look's line.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from evals.baseline.bless import baseline_from_run
from evals.core.errors import BadInputError
from evals.core.stamps import now
from evals.definition import EvalDefinition
from evals.gate.operating import UNSPLIT, AACheck
from evals.gate.summary import Summary
from evals.records.model import RunMeta, TrialRecord
from evals.records.rundir import RunDir
from evals.run.finish import checked_records


def split(records: Iterable[TrialRecord]) -> tuple[list[TrialRecord], list[TrialRecord]]:
    """(half A, half B): each scenario's graded trials in trial order, alternately to A and to B."""
    by_scenario: dict[str, list[TrialRecord]] = {}
    for r in records:
        if r.graded:
            by_scenario.setdefault(r.scenario, []).append(r)
    half_a: list[TrialRecord] = []
    half_b: list[TrialRecord] = []
    for trials in by_scenario.values():
        ordered = sorted(trials, key=lambda r: r.trial)
        half_a += ordered[0::2]
        half_b += ordered[1::2]
    return half_a, half_b


def fired(summary: Summary) -> list[str]:
    """What called a regression: the total (and the scenarios whose Δ fell, most first), each guard."""
    if summary.verdict != "regression":
        return []
    out = []
    gate = summary.gate
    if gate is not None and gate.delta < -gate.allowed_drop and gate.ci[1] < 0:
        fell = sorted((c.delta, name) for name, c in summary.comparison.items() if c.delta < 0)
        out += ["total", *(f"scenario {name} (Δ {delta:+.2f})" for delta, name in fell)]
    out += [f"guard {g.scenario}/{g.part}" for g in summary.guards if g.regressed]
    return out


def _record(rd: RunDir, meta: RunMeta, **fields: object) -> AACheck:
    return AACheck.model_validate(
        {"run": rd.path.name, "started": meta.started, "recorded": now(), "commit": meta.commit, **fields}
    )


def aa_check(definition: EvalDefinition, rd: RunDir, meta: RunMeta) -> AACheck:
    """Gate half B of the run's validated records against half A; the record of what it said."""
    half_a, half_b = split(checked_records(definition, rd, meta))
    halves = {
        name: (sum(r.scenario == name for r in half_a), sum(r.scenario == name for r in half_b))
        for name in definition.scenarios
    }
    unsplit = [name for name, (a, b) in halves.items() if b == 0]
    names = [name for name in definition.scenarios if name not in unsplit]
    common = {"scenarios": names, "unsplit": unsplit, "halves": {n: halves[n] for n in names}}
    if not names:
        return _record(rd, meta, verdict=UNSPLIT, **common)
    both = replace(definition, scenarios={name: definition.scenarios[name] for name in names})
    half_a = [r for r in half_a if r.scenario in both.scenarios]
    try:
        baseline = baseline_from_run(both.summarise(half_a, meta), half_a, rd.path, force=True)
    except BadInputError as exc:  # a half with no scored part: nothing to compare
        return _record(rd, meta, verdict="error", reasons=[str(exc)], **common)
    summary = replace(both, baseline=baseline).summarise(half_b, meta)
    gate = summary.gate
    return _record(
        rd,
        meta,
        verdict=summary.verdict,
        delta=gate.delta if gate else None,
        ci=gate.ci if gate else None,
        allowed_drop=gate.allowed_drop if gate else None,
        reasons=summary.reasons,
        fired=fired(summary),
        **common,
    )


def describe(check: AACheck) -> str:
    """The console's line for one check."""
    k = ", ".join(f"{n} {a}+{b}" for n, (a, b) in check.halves.items()) or "none"
    text = f"A/A check of {check.run}: {check.verdict} (trials per half: {k})"
    if check.delta is not None and check.ci is not None:
        text += f"; Δ {check.delta:+.2f}, CI {check.ci[0]:+.2f} to {check.ci[1]:+.2f}"
    if check.unsplit:
        text += f"; too few graded trials to split: {', '.join(check.unsplit)}"
    if check.false_alarm:
        text += f"; a false alarm ({', '.join(check.fired)})"
    return text
