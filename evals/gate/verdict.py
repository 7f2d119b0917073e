"""`verdict(comparison) -> Verdict`: the gate.

Verdicts and exit codes:
- `pass` (0): the total did not drop more than the threshold, or there is no baseline (a notice).
- `regression` (1): the total dropped more than the threshold *and* the confidence interval of the
  change lies wholly below zero, so noise cannot explain it.
- `inconclusive` (0, with a warning): the drop is past the threshold but the interval still holds
  zero, even after `run` spent the trial budget. Seed runs of one agent scored 16, 19 and 20, so a
  gate that failed on such a drop would flip on noise and be ignored; the report says how large a
  drop this k can detect, and the reviewer decides.
- `not-comparable` (4): the eval definition changed since the baseline (names what changed).
- `error` (3): more than `max_error_share` of a scenario's trials failed for infrastructure reasons,
  or the run left unmeasured what the baseline measured (evals/gate/compare.py `unmeasured`).

The rule itself (`decide`) and the adaptive step (`extra_trials`) are small pure functions over a
`stats.Estimate` (and the guard tests), so the simulation benchmark (evals/gate/simulate.py) exercises
exactly the live rule. When to look and what a look may decide is evals/gate/sequential.py.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Literal

from pydantic import Field

from evals.core.config import GateConfig
from evals.core.errors import ExitCode
from evals.core.model import StrictModel
from evals.gate.compare import Comparison, GuardComparison, TotalComparison
from evals.gate.guards import GuardTest, interim_level, undecided
from evals.gate.quiet import quiet_only
from evals.gate.sequential import (
    look,
    next_look,
    no_more_needed,
    noisy_clusters,
    scenario_interim,
    scenario_interval,
    scenario_regressions,
    scenario_undecided,
)
from evals.gate.stats import Estimate

VerdictName = Literal["pass", "regression", "inconclusive", "not-comparable", "error"]
Decision = Literal["pass", "regression", "inconclusive"]

EXIT_CODES: dict[str, ExitCode] = {
    "pass": ExitCode.PASS,
    "regression": ExitCode.REGRESSION,
    "inconclusive": ExitCode.PASS,
    "not-comparable": ExitCode.NOT_COMPARABLE,
    "error": ExitCode.INFRASTRUCTURE,
}
NO_BASELINE = (
    "no baseline: nothing to compare with (bless one from a run: `evals baseline bless --run RUN_DIR`)"
)
BLESS_AGAIN = (
    "totals graded by different definitions are not compared; bless a baseline from a run of "
    "this definition (`evals baseline bless --run DIR --force`, or the next nightly run)"
)


class Verdict(StrictModel):
    """What the gate decided, why (reasons), what the agent did that a reviewer must see whatever
    the verdict (alerts: the model refused), and what a reviewer should know besides (notices)."""

    verdict: VerdictName
    reasons: list[str] = Field(default_factory=list)
    alerts: list[str] = Field(default_factory=list)
    notices: list[str] = Field(default_factory=list)

    @property
    def exit_code(self) -> ExitCode:
        return EXIT_CODES[self.verdict]


def decide(estimate: Estimate, allowed_drop: float, confidence: float) -> Decision:
    """A drop past the threshold is a regression when the interval excludes no change."""
    if estimate.delta >= -allowed_drop:
        return "pass"
    _, high = estimate.interval(confidence)
    return "regression" if high < 0 else "inconclusive"


def decide_all(
    estimate: Estimate,
    allowed_drop: float,
    confidence: float,
    guards: Sequence[GuardTest] = (),
    scenarios: Mapping[str, float] | None = None,
) -> Decision:
    """The total's decision, overruled by any guard that regressed (a guard regresses on its own) and,
    with `scenarios` (each scenario's own allowed drop: `threshold.per_scenario`), by any scenario
    whose own drop is a regression at its Bonferroni share of `confidence`: a threshold on a suite's
    total would otherwise hide one task's regression in the suite's points."""
    if any(t.regressed for t in guards):
        return "regression"
    if scenarios and scenario_regressions(estimate, scenarios, confidence):
        return "regression"
    return decide(estimate, allowed_drop, confidence)


def extra_trials(
    estimate: Estimate,
    k: int,
    allowed_drop: float,
    gate: GateConfig,
    deterministic: bool = False,
    guards: Sequence[GuardTest] = (),
    ramp: int = 0,
    scenarios: Mapping[str, float] | None = None,
) -> int:
    """How many trials per scenario to add before deciding (0: decide now). `max_trials` 0 disables it.

    Only while the verdict is undecided (evals/gate/sequential.py): never for a deterministic agent or a
    run whose trials have no spread (unless a quiet task's exact test, evals/gate/quiet.py, needs them),
    never once a look has decided the total either way, unless a
    guard passes so much less often than in the baseline that it would be significant at
    `max_trials` if its rate held (evals/gate/guards.py: `promising`). Like the total, a guard stops the
    run early only past an interim line (`interim_level`, one-sided 0.1%); a guard significant at
    `guard_alpha` but short of it keeps the run going, and the verdict (`decide_all`) tests it at
    `guard_alpha` on the trials the run ends with. The simulation counts its false alarms with
    the total's. With `scenarios` (each scenario's own allowed drop, `threshold.per_scenario`), a
    scenario past its own interim line stops the run too, and one whose own look has not passed it
    keeps an otherwise passing run going while `max_trials` could still decide it
    (`sequential.scenario_undecided`). Trials are added up to the next look of a fixed schedule
    (`min_trials`, then every `look_every`, up to `max_trials`; after every trial below `ramp`:
    `sequential.next_look`).
    """
    if k >= gate.max_trials or deterministic:
        return 0
    if no_more_needed(estimate, deterministic) and not undecided(quiet_only(guards), gate.max_trials):
        return 0  # a run of identical trials adds nothing, unless a quiet task's exact test needs more
    if any(t.regressed_at(interim_level(gate.interim_confidence)) for t in guards):
        return 0  # a guard fell past the interim line: regression, nothing to wait for
    if scenarios and scenario_interim(estimate, scenarios, gate):
        return 0  # one scenario fell past its own interim line: regression, nothing to wait for
    total = look(estimate, allowed_drop, gate)
    if total == "regression":
        return 0
    if (
        total == "pass"
        and not undecided(guards, gate.max_trials)
        and not _scenario_undecided(estimate, scenarios or {}, gate)
    ):
        return 0
    return next_look(k, gate, ramp) - k


def _scenario_undecided(estimate: Estimate, allowed: Mapping[str, float], gate: GateConfig) -> bool:
    """Some tested scenario is undecided and more trials would decide it (`scenario_undecided`)."""
    m, tested = noisy_clusters(estimate, allowed)
    return any(scenario_undecided(c, allowed[c.name], gate, m) for c in tested)


NAMED_DROPS = 3  # criteria a regression's reason names with their titles; the report's table lists all
TITLE_CHARS = 40


def dropped_criteria(comparison: Comparison, several: bool) -> list[str]:
    """Criteria whose mean fell, largest fall first, prefixed by scenario when the run has several;
    the first NAMED_DROPS with their title and Δ (a reader sees what broke without the table)."""
    fell = sorted(
        (
            (v.delta, f"{name}/{c}" if several else c, v.title)
            for name, entry in comparison.scenarios.items()
            for c, v in entry.criteria.items()
            if v.delta is not None and v.delta < 0
        ),
        key=lambda item: item[0],
    )
    named = [
        f"{ident} {_short(title)} ({delta:+.2f})" if title else f"{ident} ({delta:+.2f})"
        for delta, ident, title in fell[:NAMED_DROPS]
    ]
    rest = [ident for _, ident, _ in fell[NAMED_DROPS:]]
    return named + ([f"also {', '.join(rest)}"] if rest else [])


def _short(title: str) -> str:
    return title if len(title) <= TITLE_CHARS else title[: TITLE_CHARS - 1].rstrip() + "…"


def _statement(total: TotalComparison) -> str:
    return (
        f"total {total.run:.2f} vs baseline {total.baseline:.2f} "
        f"(Δ {total.delta:+.2f}, {total.interval_text()}; "
        f"allowed drop {total.allowed_drop:g})"
    )


def guard_reason(g: GuardComparison, several: bool) -> str:
    """One regressed guard, named, with its pass rate before and after and the test that decided."""
    name = f"{g.scenario}/{g.part}" if several else g.part
    where = "baseline trials" if g.baseline_runs == 1 else f"trials of the last {g.baseline_runs} baselines"
    return (
        f"guard {name} regressed: full marks in {g.baseline_passed}/{g.baseline_trials} {where} "
        f"({g.baseline_pass_rate:.0%}), {g.passed}/{g.trials} now ({g.pass_rate:.0%}); one-sided Fisher "
        f"p = {g.p_value:.3g}, Holm-adjusted {g.p_adjusted:.3g} < {g.alpha:g}"
    )


def quiet_reason(t: GuardTest) -> str:
    """One quiet task that scores less than the one score every baseline trial had (evals/gate/quiet.py)."""
    c = t.counts
    return (
        f"scenario {c.name} regressed: that score in {c.base_pass}/{c.base_n} baseline trials, "
        f"{c.run_pass}/{c.run_n} now; one-sided Fisher p = {t.p:.3g} < {t.alpha:.3g} (Bonferroni across "
        f"the compared scenarios)"
    )


def scenario_reason(estimate: Estimate, allowed: Mapping[str, float], name: str, confidence: float) -> str:
    """One scenario that regressed on its own (`threshold.per_scenario`), with its Δ, its interval at
    its Bonferroni share of the gate's confidence, and its own allowed drop."""
    m, _ = noisy_clusters(estimate, allowed)
    level = 1 - (1 - confidence) / max(1, m)
    c = next(c for c in estimate.clusters if c.name == name)
    low, high = scenario_interval(c, level)
    return (
        f"scenario {name} regressed on its own: mean {c.mean_run:.2f} vs baseline {c.mean_base:.2f} "
        f"(Δ {c.delta:+.2f}, {level:.1%} CI {low:+.2f} to {high:+.2f}, one of {m} scenarios tested; "
        f"its allowed drop {allowed[name]:g})"
    )


def verdict(comparison: Comparison, several_scenarios: bool, *, provisional: bool = False) -> Verdict:
    """Turn what compare found into the verdict, its reasons, alerts and notices.

    `provisional`: this run deferred every check that executes the agent's code (the job holding the
    model key, `EVALS_DEFER_EXECUTION`), so what it left unmeasured is a notice here, not an error. The
    caller says so: the gate reads no environment, and a simulation or a test cannot flip it by accident."""
    decided = _decide_verdict(comparison, several_scenarios)
    if comparison.unmeasured and not comparison.errored and not comparison.changed:
        if provisional:
            # The job that holds the model key deferred every check that runs the agent's code: its
            # parts are unscored here by design, and this verdict is provisional (the PR's verdict
            # job and the nightly's merge score them, where this rule holds). Erroring here would
            # fail that job on every run, and a failed `evals` job is published as `error`.
            unmeasured = [
                f"provisional (checks deferred to the verdict job): {r}" for r in comparison.unmeasured
            ]
            decided = decided.model_copy(update={"notices": [*decided.notices, *unmeasured]})
        else:
            decided = _unmeasured(decided, comparison.unmeasured)
    return decided.model_copy(update={"alerts": list(comparison.alerts)})


def _unmeasured(decided: Verdict, unmeasured: list[str]) -> Verdict:
    """What the run could not measure never turns into a pass: `pass` and `inconclusive` become
    `error`, named first. A regression already shown on the parts both sides scored stays one (more
    measurement could only add to the drop), with what was unmeasured among its reasons."""
    if decided.verdict == "regression":
        return decided.model_copy(update={"reasons": [*decided.reasons, *unmeasured]})
    return Verdict(verdict="error", reasons=list(unmeasured), notices=decided.notices)


def _decide_verdict(comparison: Comparison, several_scenarios: bool) -> Verdict:
    if comparison.errored:
        return Verdict(verdict="error", reasons=list(comparison.errored))
    if comparison.no_baseline:
        return Verdict(verdict="pass", notices=[NO_BASELINE])
    if comparison.changed:
        return Verdict(
            verdict="not-comparable",
            reasons=[f"eval definition changed since the baseline: {c}" for c in comparison.changed],
            notices=[BLESS_AGAIN],
        )
    guards = [guard_reason(g, several_scenarios) for g in comparison.regressed_guards]
    total, estimate = comparison.total, comparison.estimate
    if total is None or estimate is None:
        return Verdict(
            verdict="regression" if guards else "pass", reasons=guards, notices=list(comparison.notices)
        )
    each = comparison.scenario_allowed
    tests = [*comparison.guard_tests, *comparison.quiet_tests]
    decision = decide_all(estimate, total.allowed_drop, total.confidence, tests, each)
    reasons = list(guards) + [quiet_reason(t) for t in comparison.quiet_tests if t.regressed]
    fell = scenario_regressions(estimate, each, total.confidence) if each else []
    for name in fell:
        assert each is not None
        reasons.append(scenario_reason(estimate, each, name, total.confidence))
    on_total = decide(estimate, total.allowed_drop, total.confidence)
    if on_total == "regression":
        dropped = ", ".join(dropped_criteria(comparison, several_scenarios)) or "spread over criteria"
        reasons.append(f"{_statement(total)}; dropped: {dropped}")
    elif on_total == "inconclusive":
        reasons.append(
            f"{_statement(total)}: the drop is past the threshold but noise could explain it "
            f"(k={total.k}; smallest drop this k detects: {total.detects()})"
        )
    elif guards or fell or any(t.regressed for t in comparison.quiet_tests):
        reasons.append(f"{_statement(total)}: the total alone is within the threshold")
    return Verdict(verdict=decision, reasons=reasons, notices=list(comparison.notices))


def budget_notice(spent: float, limit: float) -> str:
    """The notice on a verdict that the money ran out before the statistics decided."""
    return (
        f"the cost budget (${limit:.2f}), not the statistics, ended this run: ${spent:.2f} spent "
        f"(agent and judge); the verdict is decided on the trials that finished"
    )
