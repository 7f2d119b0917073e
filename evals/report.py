"""report.md: the one page people read, in the PR comment and the job summary.

Verdict first; then totals with the confidence interval, pass rates, tokens, cost and turns against
the baseline; the categories and every criterion; for what dropped, the failed check or the judge's
reason with an evidence excerpt; what was unscored or errored; per-trial details last, folded.
GitHub rejects a comment over 65,536 characters, so the page is capped at `MAX_CHARS`: per-trial
details are dropped from the end first, and the verdict at the top is never cut. Built with tabulate.
"""

from __future__ import annotations

import os
import sys
from typing import Any, TextIO

from tabulate import tabulate

from evals.aggregate import ScenarioAggregate
from evals.compare import ScenarioComparison
from evals.gate import Verdict
from evals.summary import Summary, TrialSummary

MARKER = "<!-- agent-evals-gate:report -->"
MAX_CHARS = 65_000
OPT_OUT = "EVALS_JOB_SUMMARY"
ICONS = {"pass": "✅", "regression": "❌", "inconclusive": "⚠️", "not-comparable": "🚫", "error": "💥"}
EXCERPT = 200
TRUNCATED = "\n\n_Report truncated to fit a GitHub comment; the full report is in the run's artifact._\n"


def _num(value: float | int | None, digits: int = 2) -> str:
    if value is None:
        return "–"
    if isinstance(value, float):
        text = f"{value:.{digits}f}"
        return text.rstrip("0").rstrip(".") if "." in text else text
    return str(value)


def _arrow(delta: float | None, digits: int = 2) -> str:
    if delta is None:
        return "–"
    delta = round(delta, digits)
    if delta > 0:
        return f"▲ {delta:+.{digits}f}"
    if delta < 0:
        return f"▼ {delta:+.{digits}f}"
    return "= 0"


def _pct(value: float | None) -> str:
    return "–" if value is None else f"{value:.0%}"


def _pct_delta(delta: float | None) -> str:
    if delta is None:
        return "–"
    return "= 0" if delta == 0 else f"{'▲' if delta > 0 else '▼'} {delta * 100:+.0f} pp"


def _cell(text: object, limit: int = 160, table: bool = True) -> str:
    """One line of text for a table cell or list item: pipes escaped (tables), backticks neutralised,
    bounded length, so text an agent wrote cannot break the page's layout."""
    flat = " ".join(str(text).split()).replace("`", "'")
    if table:
        flat = flat.replace("|", "\\|")
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def _table(rows: list[list[Any]], headers: list[str]) -> str:
    return tabulate(rows, headers=headers, tablefmt="github", disable_numparse=True)


def render(summary: Summary) -> str:
    """The report, at most MAX_CHARS characters however many trials the run had."""
    head = "\n".join(_head(summary)).rstrip() + "\n"
    details = [
        _details_block(name, trial) for name in summary.scenarios for trial in summary.trials.get(name, [])
    ]
    return fit(head, details)


def fit(head: str, details: list[str], limit: int = MAX_CHARS) -> str:
    """Head in full (or cut from the end, past the verdict), then as many detail blocks as fit."""
    if len(head) > limit - len(TRUNCATED):
        return head[: limit - len(TRUNCATED)] + TRUNCATED
    if not details:
        return head
    out = head + "\n**Per-trial details**\n\n"
    shown = 0
    for block in details:
        note = f"\n_{len(details) - shown - 1} more trials not shown (size limit); see the run's artifact._\n"
        if len(out) + len(block) + 1 + len(note) > limit:
            break
        out += block + "\n"
        shown += 1
    if shown < len(details):
        out += f"\n_{len(details) - shown} more trials not shown (size limit); see the run's artifact._\n"
    return out


def _head(summary: Summary) -> list[str]:
    icon = ICONS.get(summary.verdict, "")
    lines = [MARKER, f"## {icon} Agent evals: **{summary.verdict}**", ""]
    lines += [f"- {reason}" for reason in summary.reasons]
    lines += [f"> {notice}" for notice in summary.notices]
    run = summary.run
    if summary.reasons or summary.notices:
        lines.append("")
    lines += [f"Agent `{run.agent}` · commit `{run.commit[:12] or 'unknown'}`"]
    lines += _trials_line(summary)
    lines += [""]
    lines += _total_table(summary)
    for name, agg in summary.scenarios.items():
        lines += _scenario_section(
            name, agg, summary.comparison.get(name), summary.trials.get(name, []), summary.several
        )
    return lines


def _trials_line(summary: Summary) -> list[str]:
    g = summary.gate
    k = summary.adaptive.trials
    start = summary.adaptive.started_with
    text = f"Trials per scenario: **{k}**"
    if start != k:
        text += f" (started with {start}; {k - start} added while the verdict was undecided)"
    if g:
        text += (
            f" · baseline k={g.baseline_k} · smallest drop this k detects "
            f"({g.power:.0%} power): **{_num(g.detectable_drop)}** points"
        )
        if g.budget:
            text += f" · trial budget {g.budget}"
    return [text, *_cost_line(summary)]


def _cost_line(summary: Summary) -> list[str]:
    """What this verdict cost, agent and judge, and per scenario (runs that recorded their spend)."""
    run = summary.run
    if run.spent_usd is None:
        return []
    per = [
        f"{name} ${a.usage.cost_usd + a.usage.judge_cost_usd:.2f}" for name, a in summary.scenarios.items()
    ]
    text = f"Cost of this verdict: **${run.spent_usd:.2f}** (agent and judge; {', '.join(per)})"
    if run.budget_usd is not None:
        text += f" · budget ${run.budget_usd:.2f}"
        if run.stopped_by_budget:
            text += " — **the budget ended the run**"
    return [text]


def _total_table(summary: Summary) -> list[str]:
    g = summary.gate
    total = summary.total
    if g:
        ci = f"{g.ci[0]:+.2f} to {g.ci[1]:+.2f} ({g.confidence:.0%})"
        row = ["**Total**", _num(g.baseline), f"{_num(g.run)} / {total.max}", _arrow(g.delta), ci]
        allowed = f"allowed drop {_num(g.allowed_drop)}"
    else:
        row = ["**Total**", _num(total.baseline), f"{_num(total.mean)} / {total.max}", "–", "–"]
        allowed = "no comparison"
    return [_table([row], ["", "baseline", "this run", "Δ", "confidence interval"]), "", f"_{allowed}_", ""]


def _per_trial(value: float | None, k: int) -> float | None:
    return float(value) / k if value is not None and k else None


def _minus(a: float | None, b: float | None) -> float | None:
    return a - b if a is not None and b is not None else None


def _rate_rows(agg: ScenarioAggregate, cmp: ScenarioComparison | None) -> list[list[str]]:
    base_pass = cmp.baseline_pass.model_dump() if cmp else {}
    run_pass = agg.rates.model_dump()
    rates = [("pass_at_1", "pass@1"), ("pass_at_k", f"pass@{agg.k}"), ("pass_pow_k", f"pass^{agg.k}")]
    rows = []
    for key, label in rates if agg.k > 1 else rates[:1]:
        b, r = base_pass.get(key), run_pass.get(key)
        rows.append([label, _pct(b), _pct(r), _pct_delta(_minus(r, b))])
    return rows


def _usage_rows(agg: ScenarioAggregate, cmp: ScenarioComparison | None) -> list[list[str]]:
    rows = _rate_rows(agg, cmp)
    usage = agg.usage
    base = cmp.baseline_usage if cmp else None
    base_k = cmp.baseline_k if cmp else 0
    tokens = _per_trial(usage.tokens, agg.k)
    base_tokens = _per_trial(base.tokens, base_k) if base else None
    cost = _per_trial(usage.cost_usd, agg.k)
    base_cost = _per_trial(base.cost_usd, base_k) if base else None
    turns, base_turns = usage.turns_mean, base.turns_mean if base else None
    rows.append(
        ["Tokens per trial", _num(base_tokens, 0), _num(tokens, 0), _arrow(_minus(tokens, base_tokens), 0)]
    )
    rows.append(
        ["Cost per trial (USD)", _num(base_cost, 4), _num(cost, 4), _arrow(_minus(cost, base_cost), 4)]
    )
    rows.append(["Turns (mean)", _num(base_turns, 1), _num(turns, 1), _arrow(_minus(turns, base_turns), 1)])
    if usage.judge_input_tokens:  # grading cost, shown when a model judge was actually called
        rows.append(["Judge cost, all trials (USD)", "", _num(usage.judge_cost_usd, 4), ""])
    return rows


def _overview(agg: ScenarioAggregate, cmp: ScenarioComparison | None, several: bool) -> list[str]:
    top = []
    if several:
        total = f"{_num(agg.total.mean)} / {agg.max_points}"
        top.append(["Total", _num(cmp.baseline if cmp else None), total, _arrow(cmp.delta if cmp else None)])
    top += _usage_rows(agg, cmp)
    top.append(["Trials (errored)", str(cmp.baseline_k) if cmp else "–", f"{agg.k} ({agg.errored})", ""])
    return [_table(top, ["", "baseline", "this run", "Δ"]), ""]


def _categories(agg: ScenarioAggregate, cmp: ScenarioComparison | None) -> list[str]:
    cats = cmp.categories if cmp else {}
    rows = []
    for c, v in agg.categories.items():
        d = cats.get(c)
        rows.append(
            [
                v.title,
                _num(d.baseline if d else None),
                f"{_num(v.mean)} / {v.max}",
                _arrow(d.delta if d else None),
                f"{_pct(d.baseline_pass_rate if d else None)} → {_pct(v.pass_rate)}",
            ]
        )
    return ["**Categories**", "", _table(rows, ["category", "baseline", "this run", "Δ", "full marks"])]


def _criteria(agg: ScenarioAggregate, cmp: ScenarioComparison | None) -> list[str]:
    crit = cmp.criteria if cmp else {}
    rows = []
    for c, v in agg.criteria.items():
        d = crit.get(c)
        rows.append(
            [
                c,
                _cell(v.title, 70),
                _num(d.baseline if d else None),
                f"{_num(v.mean)} / {v.max}",
                _arrow(d.delta if d else None),
                f"{_pct(d.baseline_pass_rate if d else None)} → {_pct(v.pass_rate)}",
            ]
        )
    headers = ["id", "criterion", "baseline", "this run", "Δ", "full marks"]
    return ["", "**Criteria**", "", _table(rows, headers)]


def _dropped(agg: ScenarioAggregate, cmp: ScenarioComparison | None, trials: list[TrialSummary]) -> list[str]:
    crit = cmp.criteria if cmp else {}
    dropped = [c for c, v in crit.items() if v.delta is not None and v.delta < 0]
    if not dropped:
        return []
    lines = ["", "**What dropped**", ""]
    for c in dropped:
        lines.append(f"- **{c}** {_cell(agg.criteria[c].title, 90, False)}: {_why(c, trials)}")
    return lines


def _unscored(agg: ScenarioAggregate, trials: list[TrialSummary]) -> list[str]:
    if not agg.unscored:
        return []
    lines = ["", "**Unscored** (the judge could not decide; excluded from means, never counted as 0)", ""]
    lines += [
        f"- {p} in {n} trial{'s' if n != 1 else ''}: {_unscored_reason(p, trials)}"
        for p, n in agg.unscored.items()
    ]
    return lines


def _errored(agg: ScenarioAggregate) -> list[str]:
    if not agg.errors:
        return []
    lines = ["", "**Errored trials** (infrastructure; excluded from scores)", ""]
    lines += [f"- trial {e.trial}: {_cell(e.error or 'unknown error', 300, False)}" for e in agg.errors[:20]]
    if len(agg.errors) > 20:
        lines.append(f"- … {len(agg.errors) - 20} more")
    return lines


def _scenario_section(
    name: str,
    agg: ScenarioAggregate,
    cmp: ScenarioComparison | None,
    trials: list[TrialSummary],
    several: bool,
) -> list[str]:
    lines = [f"### {name}", ""]
    lines += _overview(agg, cmp, several)
    lines += _categories(agg, cmp)
    lines += _criteria(agg, cmp)
    lines += _dropped(agg, cmp, trials)
    lines += _unscored(agg, trials)
    lines += _errored(agg)
    lines.append("")
    return lines


def _why(criterion: str, trials: list[TrialSummary]) -> str:
    """How often it failed, then the first failing part's reason (failed check or judge critique)
    with an evidence excerpt: one concrete case a reviewer can check."""
    failing = [
        (trial, part)
        for trial in trials
        for part in trial.parts
        if part.criterion == criterion and part.status == "failed"
    ]
    if not failing:
        return "lower on average across trials"
    ok = [t for t in trials if t.status == "ok"]
    count = len({t.trial for t, _ in failing})
    trial, part = failing[0]
    layer = "check" if part.layer == 1 else "judge"
    text = (
        f"failed in {count} of {len(ok)} trials; {part.id} ({layer}, trial {trial.trial}) — "
        f"{_cell(part.reason, 300, False)}"
    )
    excerpt = _cell(part.evidence_excerpt, EXCERPT, False)
    return text + (f" (evidence: `{excerpt}`)" if excerpt else "")


def _unscored_reason(part_id: str, trials: list[TrialSummary]) -> str:
    for trial in trials:
        for part in trial.parts:
            if part.id == part_id and part.status == "unscored":
                return _cell(part.reason, 200, False)
    return ""


def _details_block(scenario: str, trial: TrialSummary) -> str:
    head = f"{scenario} trial {trial.trial}: {trial.status}"
    if trial.status != "ok":
        error = _cell(trial.error or "", 500, False)
        return f"<details><summary>{head}</summary>\n\n{error}\n\n</details>"
    rows = [
        [p.id, _num(p.score), p.max_points, p.status, f"L{p.layer}", _cell(p.reason)] for p in trial.parts
    ]
    body = _table(rows, ["part", "score", "max", "status", "layer", "why"])
    return f"<details><summary>{head} · {_num(trial.total)} points</summary>\n\n{body}\n\n</details>"


def _escape(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def publish(report: str, gate: Verdict, stream: TextIO | None = None) -> None:
    """In GitHub Actions ($GITHUB_STEP_SUMMARY set): append the report to the job summary and turn
    the verdict's reasons into annotations. Outside Actions, nothing (no stray `::error` lines).

    A workflow whose `run` step is followed by a separate `compare` step sets EVALS_JOB_SUMMARY=0 on
    the first, so the page shows the report and its annotations once (GITHUB_* cannot be unset)."""
    summary_path = os.environ.get("GITHUB_STEP_SUMMARY")
    if not summary_path or os.environ.get(OPT_OUT, "").lower() in ("0", "false", "off", "no"):
        return
    with open(summary_path, "a", encoding="utf-8") as handle:
        handle.write(report + "\n")
    out = stream or sys.stdout
    level = {"regression": "error", "not-comparable": "error", "error": "error", "inconclusive": "warning"}
    kind = level.get(gate.verdict)
    if kind:
        for reason in gate.reasons:
            out.write(f"::{kind} title=Agent evals - {gate.verdict}::{_escape(reason)}\n")
    for notice in gate.notices:
        out.write(f"::notice title=Agent evals::{_escape(notice)}\n")
    out.flush()
