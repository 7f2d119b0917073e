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

from evals.gate import GateResult

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


def render(summary: dict[str, Any], gate: GateResult) -> str:
    """The report, at most MAX_CHARS characters however many trials the run had."""
    head = "\n".join(_head(summary, gate)).rstrip() + "\n"
    details = [
        _details_block(name, trial)
        for name in summary["scenarios"]
        for trial in summary.get("trials", {}).get(name, [])
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


def _head(summary: dict[str, Any], gate: GateResult) -> list[str]:
    icon = ICONS.get(gate.verdict, "")
    lines = [MARKER, f"## {icon} Agent evals: **{gate.verdict}**", ""]
    lines += [f"- {reason}" for reason in gate.reasons]
    lines += [f"> {notice}" for notice in gate.notices]
    run = summary["run"]
    if gate.reasons or gate.notices:
        lines.append("")
    lines += [
        f"Agent `{run.get('agent', '')}` · commit `{(run.get('commit') or '')[:12] or 'unknown'}`",
    ]
    lines += _trials_line(summary)
    lines += [""]
    lines += _total_table(summary)
    for name, agg in summary["scenarios"].items():
        lines += _scenario_section(
            name,
            agg,
            gate.scenarios.get(name, {}),
            summary.get("trials", {}).get(name, []),
            len(summary["scenarios"]) > 1,
        )
    return lines


def _trials_line(summary: dict[str, Any]) -> list[str]:
    g = summary.get("gate")
    adaptive = summary.get("adaptive") or {}
    k = adaptive.get("trials") or summary["run"].get("trials")
    start = adaptive.get("started_with") or k
    text = f"Trials per scenario: **{k}**"
    if start != k:
        text += f" (started with {start}; {k - start} added before deciding, because the scores are noisy)"
    if g:
        text += (
            f" · baseline k={g['baseline_k']} · smallest drop this k detects "
            f"({g['power']:.0%} power): **{_num(g['detectable_drop'])}** points"
        )
        if g.get("budget"):
            text += f" · trial budget {g['budget']}"
    return [text]


def _total_table(summary: dict[str, Any]) -> list[str]:
    g = summary.get("gate")
    total = summary["total"]
    if g:
        ci = f"{g['ci'][0]:+.2f} to {g['ci'][1]:+.2f} ({g['confidence']:.0%})"
        row = ["**Total**", _num(g["baseline"]), f"{_num(g['run'])} / {total['max']}", _arrow(g["delta"]), ci]
        allowed = f"allowed drop {_num(g['allowed_drop'])}"
    else:
        row = ["**Total**", _num(total.get("baseline")), f"{_num(total['mean'])} / {total['max']}", "–", "–"]
        allowed = "no comparison"
    return [_table([row], ["", "baseline", "this run", "Δ", "confidence interval"]), "", f"_{allowed}_", ""]


def _usage_rows(agg: dict[str, Any], cmp: dict[str, Any]) -> list[list[str]]:
    base_pass = cmp.get("baseline_pass", {})
    base_usage = cmp.get("baseline_usage", {})
    usage = agg["usage"]
    rows = []
    rates = [("pass_at_1", "pass@1"), ("pass_at_k", f"pass@{agg['k']}"), ("pass_pow_k", f"pass^{agg['k']}")]
    for key, label in rates if agg["k"] > 1 else rates[:1]:
        b, r = base_pass.get(key), agg.get(key)
        rows.append([label, _pct(b), _pct(r), _pct_delta(r - b if r is not None and b is not None else None)])

    def per_trial(value: Any, k: int) -> float | None:
        return float(value) / k if value is not None and k else None

    base_k = cmp.get("baseline_k") or 0
    tokens = per_trial(usage["input_tokens"] + usage["output_tokens"], agg["k"])
    base_tokens = (
        per_trial(base_usage.get("input_tokens", 0) + base_usage.get("output_tokens", 0), base_k)
        if base_usage
        else None
    )
    cost = per_trial(usage["cost_usd"], agg["k"])
    base_cost = per_trial(base_usage.get("cost_usd"), base_k) if base_usage else None
    turns, base_turns = usage.get("turns_mean"), base_usage.get("turns_mean")

    def delta(a: float | None, b: float | None) -> float | None:
        return a - b if a is not None and b is not None else None

    rows.append(
        ["Tokens per trial", _num(base_tokens, 0), _num(tokens, 0), _arrow(delta(tokens, base_tokens), 0)]
    )
    rows.append(
        ["Cost per trial (USD)", _num(base_cost, 4), _num(cost, 4), _arrow(delta(cost, base_cost), 4)]
    )
    rows.append(["Turns (mean)", _num(base_turns, 1), _num(turns, 1), _arrow(delta(turns, base_turns), 1)])
    if usage.get("judge_input_tokens"):  # grading cost, shown when a model judge was actually called
        rows.append(["Judge cost, all trials (USD)", "", _num(usage.get("judge_cost_usd"), 4), ""])
    return rows


def _scenario_section(
    name: str, agg: dict[str, Any], cmp: dict[str, Any], trials: list[dict[str, Any]], several: bool
) -> list[str]:
    lines = [f"### {name}", ""]
    top = (
        [
            [
                "Total",
                _num(cmp.get("baseline")),
                f"{_num(agg['total']['mean'])} / {agg['max_points']}",
                _arrow(cmp.get("delta")),
            ]
        ]
        if several
        else []
    )
    top += _usage_rows(agg, cmp)
    top.append(["Trials (errored)", str(cmp.get("baseline_k", "–")), f"{agg['k']} ({agg['errored']})", ""])
    lines += [_table(top, ["", "baseline", "this run", "Δ"]), ""]
    cats = cmp.get("categories", {})
    lines += ["**Categories**", ""]
    lines.append(
        _table(
            [
                [
                    v["title"],
                    _num(cats.get(c, {}).get("baseline")),
                    f"{_num(v['mean'])} / {v['max']}",
                    _arrow(cats.get(c, {}).get("delta")),
                    f"{_pct(cats.get(c, {}).get('baseline_pass_rate'))} → {_pct(v.get('pass_rate'))}",
                ]
                for c, v in agg["categories"].items()
            ],
            ["category", "baseline", "this run", "Δ", "full marks"],
        )
    )
    crit = cmp.get("criteria", {})
    lines += ["", "**Criteria**", ""]
    lines.append(
        _table(
            [
                [
                    c,
                    _cell(v["title"], 70),
                    _num(crit.get(c, {}).get("baseline")),
                    f"{_num(v['mean'])} / {v['max']}",
                    _arrow(crit.get(c, {}).get("delta")),
                    f"{_pct(crit.get(c, {}).get('baseline_pass_rate'))} → {_pct(v['pass_rate'])}",
                ]
                for c, v in agg["criteria"].items()
            ],
            ["id", "criterion", "baseline", "this run", "Δ", "full marks"],
        )
    )
    dropped = [c for c, v in crit.items() if v.get("delta") is not None and v["delta"] < 0]
    if dropped:
        lines += ["", "**What dropped**", ""]
        for c in dropped:
            lines.append(f"- **{c}** {_cell(agg['criteria'][c]['title'], 90, False)}: {_why(c, trials)}")
    unscored = agg.get("unscored", {})
    if unscored:
        lines += [
            "",
            "**Unscored** (the judge could not decide; excluded from means, never counted as 0)",
            "",
        ]
        lines += [
            f"- {p} in {n} trial{'s' if n != 1 else ''}: {_unscored_reason(p, trials)}"
            for p, n in unscored.items()
        ]
    if agg["errors"]:
        lines += ["", "**Errored trials** (infrastructure; excluded from scores)", ""]
        lines += [
            f"- trial {e['trial']}: {_cell(e['error'] or 'unknown error', 300, False)}"
            for e in agg["errors"][:20]
        ]
        if len(agg["errors"]) > 20:
            lines.append(f"- … {len(agg['errors']) - 20} more")
    lines.append("")
    return lines


def _why(criterion: str, trials: list[dict[str, Any]]) -> str:
    """How often it failed, then the first failing part's reason (failed check or judge critique)
    with an evidence excerpt: one concrete case a reviewer can check."""
    failing = [
        (trial, part)
        for trial in trials
        for part in trial.get("parts", [])
        if part["criterion"] == criterion and part["status"] == "failed"
    ]
    if not failing:
        return "lower on average across trials"
    ok = [t for t in trials if t.get("status") == "ok"]
    count = len({t["trial"] for t, _ in failing})
    trial, part = failing[0]
    layer = "check" if part.get("layer") == 1 else "judge"
    text = (
        f"failed in {count} of {len(ok)} trials; {part['id']} ({layer}, trial {trial['trial']}) — "
        f"{_cell(part['reason'], 300, False)}"
    )
    excerpt = _cell(part.get("evidence_excerpt", ""), EXCERPT, False)
    return text + (f" (evidence: `{excerpt}`)" if excerpt else "")


def _unscored_reason(part_id: str, trials: list[dict[str, Any]]) -> str:
    for trial in trials:
        for part in trial.get("parts", []):
            if part["id"] == part_id and part["status"] == "unscored":
                return _cell(part.get("reason", ""), 200, False)
    return ""


def _details_block(scenario: str, trial: dict[str, Any]) -> str:
    head = f"{scenario} trial {trial['trial']}: {trial['status']}"
    if trial["status"] != "ok":
        error = _cell(trial.get("error") or "", 500, False)
        return f"<details><summary>{head}</summary>\n\n{error}\n\n</details>"
    rows = [
        [p["id"], _num(p["score"]), p["max_points"], p["status"], f"L{p['layer']}", _cell(p["reason"])]
        for p in trial["parts"]
    ]
    body = _table(rows, ["part", "score", "max", "status", "layer", "why"])
    return f"<details><summary>{head} · {_num(trial['total'])} points</summary>\n\n{body}\n\n</details>"


def _escape(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def publish(report: str, gate: GateResult, stream: TextIO | None = None) -> None:
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
