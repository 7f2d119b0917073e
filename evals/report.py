"""report.md: the one page people read, in the PR comment and the job summary.

Verdict first; then totals, categories and every criterion against the baseline; then, for what
dropped, the failed check or the judge's reason with an evidence excerpt; then what was unscored or
errored; per-trial details last, folded. Built with tabulate.
"""

from __future__ import annotations

from typing import Any

from tabulate import tabulate

from evals.gate import GateResult

MARKER = "<!-- agent-evals-gate:report -->"
ICONS = {"pass": "✅", "regression": "❌", "inconclusive": "⚠️", "not-comparable": "🚫", "error": "💥"}


def _num(value: float | None, digits: int = 2) -> str:
    if value is None:
        return "–"
    return f"{value:.{digits}f}".rstrip("0").rstrip(".") if isinstance(value, float) else str(value)


def _arrow(delta: float | None) -> str:
    if delta is None:
        return "–"
    if delta > 0:
        return f"▲ {delta:+.2f}"
    if delta < 0:
        return f"▼ {delta:+.2f}"
    return "= 0"


def _pct(value: float | None) -> str:
    return "–" if value is None else f"{value:.0%}"


def _table(rows: list[list[Any]], headers: list[str]) -> str:
    return tabulate(rows, headers=headers, tablefmt="github", disable_numparse=True)


def render(summary: dict[str, Any], gate: GateResult) -> str:
    icon = ICONS.get(gate.verdict, "")
    lines = [MARKER, f"## {icon} Agent evals: **{gate.verdict}**", ""]
    lines += [f"- {reason}" for reason in gate.reasons]
    lines += [f"> {notice}" for notice in gate.notices]
    run = summary["run"]
    lines += [
        "",
        f"Agent `{run['agent']}` · trials per scenario: {run['trials']} · "
        f"commit `{run.get('commit', '')[:12] or 'unknown'}`",
        "",
    ]
    for name, agg in summary["scenarios"].items():
        lines += _scenario_section(
            name, agg, gate.scenarios.get(name, {}), summary.get("trials", {}).get(name, [])
        )
    return "\n".join(lines).rstrip() + "\n"


def _scenario_section(
    name: str, agg: dict[str, Any], cmp: dict[str, Any], trials: list[dict[str, Any]]
) -> list[str]:
    lines = [f"### {name}", ""]
    total = agg["total"]
    lines.append(
        _table(
            [
                [
                    "Total",
                    f"{_num(cmp.get('baseline'))}",
                    f"{_num(total['mean'])} / {agg['max_points']}",
                    _arrow(cmp.get("delta")),
                ],
                ["pass@1", "", _pct(agg["pass_at_1"]), ""],
                [f"pass@{agg['k']}", "", _pct(agg["pass_at_k"]), ""],
                [f"pass^{agg['k']}", "", _pct(agg["pass_pow_k"]), ""],
                ["Trials (errored)", "", f"{agg['k']} ({agg['errored']})", ""],
                [
                    "Tokens in / out",
                    "",
                    f"{int(agg['usage']['input_tokens'])} / {int(agg['usage']['output_tokens'])}",
                    "",
                ],
                ["Cost (USD)", "", f"{agg['usage']['cost_usd']:.4f}", ""],
                ["Turns (mean)", "", _num(agg["usage"]["turns_mean"]), ""],
            ],
            ["", "baseline", "this run", "Δ"],
        )
    )
    lines += ["", "**Categories**", ""]
    cats = cmp.get("categories", {})
    lines.append(
        _table(
            [
                [
                    v["title"],
                    _num(cats.get(c, {}).get("baseline")),
                    f"{_num(v['mean'])} / {v['max']}",
                    _arrow(cats.get(c, {}).get("delta")),
                ]
                for c, v in agg["categories"].items()
            ],
            ["category", "baseline", "this run", "Δ"],
        )
    )
    lines += ["", "**Criteria**", ""]
    crit = cmp.get("criteria", {})
    lines.append(
        _table(
            [
                [
                    c,
                    v["title"],
                    _num(crit.get(c, {}).get("baseline")),
                    f"{_num(v['mean'])} / {v['max']}",
                    _pct(v["pass_rate"]),
                    _arrow(crit.get(c, {}).get("delta")),
                ]
                for c, v in agg["criteria"].items()
            ],
            ["id", "criterion", "baseline", "this run", "full marks", "Δ"],
        )
    )
    dropped = [c for c, v in crit.items() if v.get("delta") is not None and v["delta"] < 0]
    if dropped:
        lines += ["", "**What dropped**", ""]
        for c in dropped:
            lines.append(f"- **{c}** {agg['criteria'][c]['title']}: {_why(c, trials)}")
    if agg["unscored"]:
        lines += [
            "",
            "**Unscored** (excluded from means): "
            + ", ".join(f"{p} ×{n}" for p, n in agg["unscored"].items()),
        ]
    if agg["errors"]:
        lines += [
            "",
            "**Errored trials** (excluded): "
            + "; ".join(f"#{e['trial']}: {e['error']}" for e in agg["errors"]),
        ]
    lines += [""] + [_trial_details(t) for t in trials] + [""]
    return lines


def _why(criterion: str, trials: list[dict[str, Any]]) -> str:
    for trial in trials:
        for part in trial.get("parts", []):
            if part["criterion"] == criterion and part["status"] == "failed":
                excerpt = part.get("evidence_excerpt", "").strip().replace("\n", " ")[:200]
                return f"{part['id']} — {part['reason']}" + (f" (evidence: `{excerpt}`)" if excerpt else "")
    return "lower on average across trials"


def _trial_details(trial: dict[str, Any]) -> str:
    head = f"Trial {trial['trial']}: {trial['status']}"
    if trial["status"] != "ok":
        return f"<details><summary>{head}</summary>\n\n{trial.get('error', '')}\n\n</details>"
    rows = [
        [
            p["id"],
            _num(p["score"]),
            p["max_points"],
            p["status"],
            f"L{p['layer']}",
            p["reason"][:160].replace("|", "\\|"),
        ]
        for p in trial["parts"]
    ]
    body = _table(rows, ["part", "score", "max", "status", "layer", "why"])
    return f"<details><summary>{head} · {_num(trial['total'])} points</summary>\n\n{body}\n\n</details>"
