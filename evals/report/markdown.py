"""report.md: the one page people read, in the PR comment and the job summary.

The first screen (the first 25 lines, what a reviewer sees of the comment on a phone) tells the story:
the verdict, its one-line reason, the three criteria that changed most (by name, with their pass-rate
change and a link into the run viewer), the total, the cost, and the viewer link. Below it, per
scenario: the pass rates, categories, the criteria that moved, what dropped and why, what was
unscored or errored. Rows that carry no information are left out (zero tokens and cost for replays,
a baseline the run has nothing to compare with). Per-trial details are in the viewer (viewer.html,
`python -m evals view`), not here, so the page stays small however many trials ran.

Everything an agent, a service or an error message wrote goes through evals/core/untrusted.py: shown as
text, never rendered (issue #11). The page is still capped at `MAX_CHARS` (a GitHub comment's limit)
with the verdict at the top never cut. Tables are built with tabulate.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from tabulate import tabulate

from evals.core.untrusted import md_code, md_prose, md_text
from evals.gate.aggregate import ScenarioAggregate
from evals.gate.compare import ScenarioComparison
from evals.gate.summary import FlatItem, Summary, TrialSummary
from evals.gate.verdict import BLESS_AGAIN, NO_BASELINE, budget_notice
from evals.report.judge_line import judge_line
from evals.report.operating_line import operating_line
from evals.report.story import anchor, story_lines, violation_lines

MARKER = "<!-- agent-evals-gate:report -->"
MAX_CHARS = 65_000
FIRST_SCREEN = 25
VIEWER_ARTIFACT = "evals-viewer"
ICONS = {"pass": "✅", "regression": "❌", "inconclusive": "⚠️", "not-comparable": "🚫", "error": "💥"}
EXCERPT = 200
PASS_RATE_ALPHA = 0.05  # a pass-rate change with a larger Fisher p is shown as chance (n.s.), no arrow
NOT_SIGNIFICANT = "n.s."
TRUNCATED = "\n\n_Report truncated to fit a GitHub comment; the full report is in the run's artifact._\n"


@dataclass(frozen=True)
class ViewerLink:
    """Where the run viewer is. Locally viewer.html sits next to report.md, so links carry the
    anchor (`viewer.html#nightshift/3/C7`); in Actions it is an artifact of the workflow run, which
    a link cannot open at an anchor, so links go to the run page and the anchor is named in text."""

    page: str
    artifact: str | None = None

    def href(self, anchor: str) -> str:
        return self.page if self.artifact else f"{self.page}#{anchor}"

    def line(self) -> str:
        if self.artifact:
            return (
                f"🔎 **Transcripts and every rubric part:** [workflow run]({self.page}) → artifact "
                f"`{self.artifact}` → viewer.html (anchors such as `#scenario/trial/part`)"
            )
        return f"🔎 **Transcripts and every rubric part:** [viewer.html]({self.page})"


def viewer_link(env: Mapping[str, str] | None = None) -> ViewerLink:
    """The viewer's link: the workflow run page in GitHub Actions, else the path next to report.md."""
    env = os.environ if env is None else env
    server, repo, run = (env.get(k, "") for k in ("GITHUB_SERVER_URL", "GITHUB_REPOSITORY", "GITHUB_RUN_ID"))
    if server and repo and run:
        return ViewerLink(f"{server}/{repo}/actions/runs/{run}", VIEWER_ARTIFACT)
    return ViewerLink("viewer.html")


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


def _pct_delta(delta: float | None, noise: bool = False) -> str:
    """A change of a rate in points; `noise`: chance alone explains it (no arrow, marked n.s.)."""
    if delta is None:
        return "–"
    if round(delta * 100) == 0:
        return "= 0"
    if noise:  # not an alarm: no arrow, and said to be within noise
        return f"within noise ({delta * 100:+.0f} pp, {NOT_SIGNIFICANT})"
    return f"{'▲' if delta > 0 else '▼'} {delta * 100:+.0f} pp"


def _table(rows: list[list[Any]], headers: list[str]) -> str:
    return tabulate(rows, headers=headers, tablefmt="github", disable_numparse=True)


def render(summary: Summary, viewer: ViewerLink | None = None) -> str:
    """The report, at most MAX_CHARS characters however many trials the run had."""
    viewer = viewer or viewer_link()
    lines = _first_screen(summary, viewer)
    for name, agg in summary.scenarios.items():
        lines += _scenario_section(name, agg, summary, viewer)
    return fit("\n".join(lines).rstrip() + "\n", [])


def with_trend(report: str, trend: str | None) -> str:
    """The report with the run's nightly trend (trend.md, `evals trend --run`) below it, after a
    blank line: the night's verdict first, the nights before it after. Past the `fit` cap, as the
    trend is drawn for the last nights only."""
    return report if trend is None else f"{report}\n{trend}"


def fit(head: str, details: list[str], limit: int = MAX_CHARS) -> str:
    """Head in full (or cut from the end, past the verdict), then as many detail blocks as fit."""
    if len(head) > limit - len(TRUNCATED):
        return head[: limit - len(TRUNCATED)] + TRUNCATED
    if not details:
        return head
    out = head + "\n"
    shown = 0
    for block in details:
        note = f"\n_{len(details) - shown - 1} more not shown (size limit); see the run's artifact._\n"
        if len(out) + len(block) + 1 + len(note) > limit:
            break
        out += block + "\n"
        shown += 1
    if shown < len(details):
        out += f"\n_{len(details) - shown} more not shown (size limit); see the run's artifact._\n"
    return out


def _first_screen(summary: Summary, viewer: ViewerLink) -> list[str]:
    """The story first: the verdict, what broke (each criterion by its title with the concrete
    failure its check found, in how many trials, and where to read it), what deciding would take;
    then the numbers; the gate's own reasoning and the notes that repeat on every run folded."""
    icon = ICONS.get(summary.verdict, "")
    lines = [MARKER, f"## {icon} Agent evals: **{summary.verdict}** · {who_ran(summary.run.agent)}", ""]
    lines += _definition_changes(summary.run.definition_changes or [])
    lines += [f"- 🛑 {md_prose(alert, 600)}" for alert in summary.alerts]
    if summary.alerts:
        lines.append("")
    story = story_lines(summary, viewer)
    lines += story or [f"- {md_prose(reason, 600)}" for reason in summary.reasons]
    if lines[-1] != "":
        lines.append("")
    lines += violation_lines(summary, viewer)
    shown, folded = _split_notices(summary)
    for notice in shown:  # a blank line after each, so GitHub renders every quote apart
        lines += [f"> {md_prose(notice, 600)}", ""]
    if (story or summary.reasons) and lines[-1] != "":
        lines.append("")
    if not story:
        lines += _top_changes(summary, viewer)
    lines += [_total_line(summary), _trials_line(summary)]
    lines += _cost_line(summary)
    lines += _operating(summary)
    seed = summary.run.instance_seed
    instance = f" · instance seed {seed}" if seed is not None else ""
    lines += [
        f"Agent {md_code(summary.run.agent, 80)} · commit `{summary.run.commit[:12] or 'unknown'}`{instance}",
        "",
    ]
    lines += [viewer.line(), ""]
    if story and summary.reasons:
        lines += _folded("How the gate decided (interval, p-values)", summary.reasons)
    lines += _folded(
        f"{len(folded)} note{'s' if len(folded) != 1 else ''} on how this run was compared", folded
    )
    lines += _tiers(summary)
    return lines


def who_ran(agent: str) -> str:
    """The agent that was measured, on the verdict's own line: a green check from recorded replays
    measured the replays, not the agent a PR changed, so the first line says so."""
    labels = [a.strip() for a in agent.split(", ") if a.strip()]
    if not labels:
        return "agent unknown"
    ran = md_code(agent, 80)
    if all(label.startswith("replay:") for label in labels):
        return f"{ran} (recorded replays: no model ran)"
    return ran


def _split_notices(summary: Summary) -> tuple[list[str], list[str]]:
    """(shown, folded): what this run alone says or asks (no baseline; bless again; the budget ended
    it) is shown; the notes that hold for every run of this definition (parts never scored, parts
    left out) fold."""
    run = summary.run
    own = {NO_BASELINE, BLESS_AGAIN}
    if run.stopped_by_budget and run.budget_usd is not None:
        own.add(budget_notice(run.spent_usd or 0.0, run.budget_usd))
    return [n for n in summary.notices if n in own], [n for n in summary.notices if n not in own]


def _folded(title: str, items: list[str]) -> list[str]:
    """A collapsed section GitHub renders (blank lines around its Markdown), or nothing."""
    if not items:
        return []
    return ["<details>", f"<summary>{title}</summary>", "", *[f"- {md_prose(i, 600)}" for i in items], "",
            "</details>", ""]  # fmt: skip


def _tiers(summary: Summary) -> list[str]:
    """pass@1, pass@k and pass^k per tier, when the run spans more than one (tasks are the units)."""
    if len(summary.tiers) < 2:
        return []
    k = summary.adaptive.trials
    rows = [
        [
            tier,
            f"{len(t.tasks)} ({t.points} points)",
            f"{_num(t.mean)} / {t.points}",
            _pct(t.pass_at_1),
            _pct(t.pass_at_k),
            _pct(t.pass_pow_k),
        ]
        for tier, t in summary.tiers.items()
    ]
    headers = ["tier", "tasks", "mean total", "pass@1", f"pass@{k}", f"pass^{k}"]
    return ["**By tier**", "", _table(rows, headers), ""]


def _definition_changes(files: list[str], shown: int = 40) -> list[str]:
    """A PR that edits the eval definition was still judged by the base's: say so, name the files."""
    if not files:
        return []
    names = ", ".join(md_code(f, 120) for f in files[:shown])  # file names come from the PR
    more = f" and {len(files) - shown} more" if len(files) > shown else ""
    return [
        "> **This PR changes the eval definition.** It was evaluated with the base branch's definition; "
        f"these changes were not used for this verdict (bless after merge): {names}{more}",
        "",
    ]


def _changed(summary: Summary) -> list[tuple[str, FlatItem]]:
    """Criteria whose pass rate or mean moved against the baseline: drops first, largest first."""
    moved = [
        (key, item)
        for key, item in summary.criteria.items()
        if (item.pass_rate_delta or 0) != 0 or round(item.delta or 0, 2) != 0
    ]
    return sorted(
        moved,
        key=lambda kv: (
            (kv[1].pass_rate_delta or kv[1].delta or 0) > 0,  # drops first: they are what a reviewer acts on
            -abs(kv[1].pass_rate_delta or 0),
            -abs(kv[1].delta or 0),
        ),
    )


def _split(summary: Summary, key: str) -> tuple[str, str]:
    """(scenario, criterion) of a flat key: `scenario/criterion` when the run has several scenarios."""
    if summary.several:
        scenario, _, criterion = key.partition("/")
        return scenario, criterion
    return next(iter(summary.scenarios)), key


def _title(summary: Summary, key: str) -> str:
    scenario, criterion = _split(summary, key)
    stats = summary.scenarios[scenario].criteria.get(criterion)
    name = f"{criterion} {md_text(stats.title, 70)}" if stats else criterion
    return f"{scenario}: {name}" if summary.several else name


def _top_changes(summary: Summary, viewer: ViewerLink) -> list[str]:
    if not summary.comparison:
        return []
    changed = _changed(summary)
    if not changed:
        return ["No criterion moved against the baseline.", ""]
    rows = []
    for key, item in changed[:3]:
        scenario, criterion = _split(summary, key)
        full = (
            f"{_pct(item.baseline_pass_rate)} → {_pct(item.pass_rate)} ({_pct_delta(item.pass_rate_delta)})"
        )
        points = f"{_num(item.baseline)} → {_num(item.mean)} / {item.max}"
        where = anchor(scenario, criterion, summary.trials.get(scenario, []))
        rows.append([_title(summary, key), full, points, f"[{where}]({viewer.href(where)})"])
    more = f" (of {len(changed)} that moved)" if len(changed) > 3 else ""
    headers = ["criterion", "full marks", "points", "in the viewer"]
    return [f"**Largest changes**{more}", "", _table(rows, headers), ""]


def _total_line(summary: Summary) -> str:
    g, total = summary.gate, summary.total
    text = f"**Total** {_num(total.mean)} / {total.max}"
    if total.compared is not None and total.compared != total.mean:
        text += f" ({_num(total.compared)} on the parts both sides scored)"
    if g:
        text += (
            f" · baseline {_num(g.baseline)} · Δ {_arrow(g.delta)} · {g.interval_text()}"
            f" · allowed drop {_num(g.allowed_drop)}"
        )
    return text + "  "


def _trials_line(summary: Summary) -> str:
    g, k, start = summary.gate, summary.adaptive.trials, summary.adaptive.started_with
    text = f"Trials per scenario: **{k}**"
    if start != k:
        text += f" (started with {start}; {k - start} added while the verdict was undecided)"
    if g:
        text += f" · smallest drop this k detects ({g.power:.0%} power): **{g.detects()}**"
    return text + "  "


def _operating(summary: Summary) -> list[str]:
    """The gate's own measured record (nightly A/A checks, canary runs), on every report."""
    line = operating_line(summary.operating)
    if not line:  # a summary written before the gate kept its record: nothing about the judge either
        return []
    edited = summary.run.definition_changes  # a PR's edited judge prompts get their own figure
    return [line + "  ", judge_line(summary.judge_agreement, summary.fingerprint, edited) + "  "]


def _cost_line(summary: Summary) -> list[str]:
    """Agent and judge cost per trial, when anything was spent (replays cost nothing)."""
    parts = []
    for name, agg in summary.scenarios.items():
        cost = agg.usage.cost_usd / agg.k if agg.k else 0
        cmp = summary.comparison.get(name)
        base = (
            cmp.baseline_usage.cost_usd / cmp.baseline_k
            if cmp and cmp.baseline_usage and cmp.baseline_k
            else 0
        )
        judge = agg.usage.judge_cost_usd
        if cost or base or judge:
            text = f"${_num(cost, 4)} per trial" + (f" (baseline ${_num(base, 4)})" if base else "")
            text += f"; judge ${_num(judge, 4)} for all trials" if judge else ""
            parts.append(f"{name} {text}" if summary.several else text)
    if summary.run.spent_usd is not None and (summary.run.spent_usd or summary.run.budget_usd):
        parts.append(_verdict_cost(summary))
    return [f"Cost: {'; '.join(parts)}  "] if parts else []


def _verdict_cost(summary: Summary) -> str:
    """What this verdict cost in all, agent and judge, and whether the budget ended the run."""
    run = summary.run
    text = f"**${run.spent_usd or 0:.2f}** for this verdict (agent and judge)"
    if run.budget_usd is not None:
        text += f" of a ${run.budget_usd:.2f} budget"
        if run.stopped_by_budget:
            text += ", **which ended the run**"
    return text


def _rate_rows(agg: ScenarioAggregate, cmp: ScenarioComparison | None) -> list[list[str]]:
    base_pass = cmp.baseline_pass.model_dump() if cmp else {}
    run_pass = agg.rates.model_dump()
    rates = [("pass_at_1", "pass@1"), ("pass_at_k", f"pass@{agg.k}"), ("pass_pow_k", f"pass^{agg.k}")]
    noise = cmp is not None and _chance(cmp)
    rows = []
    for key, label in rates if agg.k > 1 else rates[:1]:
        b, r = base_pass.get(key), run_pass.get(key)
        if cmp and b is None:
            continue  # the baseline cannot say: a row of "–" tells nobody anything
        shown = [_pct_delta(_minus(r, b), noise)] if cmp else []
        rows.append([label, *([_pct(b)] if cmp else []), _pct(r), *shown])
    return rows


def _chance(cmp: ScenarioComparison) -> bool:
    """The per-trial pass rates differ no more than chance would (pass@k and pass^k follow them)."""
    return cmp.pass_p is not None and cmp.pass_p >= PASS_RATE_ALPHA


def _noise_note(cmp: ScenarioComparison | None, rate_rows: list[list[str]]) -> list[str]:
    """The line under the overview that says what n.s. means, when a rate row shows it."""
    if cmp is None or not any(NOT_SIGNIFICANT in row[-1] for row in rate_rows):
        return []
    test = f"Fisher's exact test on passed trials, {cmp.k} against {cmp.baseline_k}: p = {cmp.pass_p:.2f}"
    return [f"_n.s.: not significant; chance alone often moves the pass rates this much ({test}). "
            "pass^k swings widely with few trials._", ""]  # fmt: skip


def _minus(a: float | None, b: float | None) -> float | None:
    return a - b if a is not None and b is not None else None


def _per_trial(value: float | None, k: int) -> float | None:
    return float(value) / k if value is not None and k else None


def _usage_rows(agg: ScenarioAggregate, cmp: ScenarioComparison | None) -> list[list[str]]:
    """Tokens, cost and turns per trial; a row that is zero on both sides (replays) is left out."""
    usage, base = agg.usage, cmp.baseline_usage if cmp else None
    base_k = cmp.baseline_k if cmp else 0
    pairs = [
        (
            "Tokens per trial",
            _per_trial(usage.tokens, agg.k),
            _per_trial(base.tokens, base_k) if base else None,
            0,
        ),
        (
            "Cost per trial (USD)",
            _per_trial(usage.cost_usd, agg.k),
            _per_trial(base.cost_usd, base_k) if base else None,
            4,
        ),
        ("Turns (mean)", usage.turns_mean, base.turns_mean if base else None, 1),
    ]
    rows = []
    for label, run, was, digits in pairs:
        if not run and not was:
            continue
        rows.append(
            [label, *([_num(was, digits)] if cmp else []), _num(run, digits)]
            + ([_arrow(_minus(run, was), digits)] if cmp else [])
        )
    if usage.judge_input_tokens:  # grading cost, shown when a model judge was actually called
        judge = _num(usage.judge_cost_usd, 4)
        rows.append(["Judge cost, all trials (USD)", *(["", judge, ""] if cmp else [judge])])
    return rows


def _overview(name: str, agg: ScenarioAggregate, cmp: ScenarioComparison | None, several: bool) -> list[str]:
    k = f"{agg.k} trial{'s' if agg.k != 1 else ''}" + (f", baseline {cmp.baseline_k}" if cmp else "")
    if agg.errored:
        k += f"; **{agg.errored} errored** (not scored)"
    lines = [f"### {name}", "", f"_{k}_", ""]
    rows = []
    if several:
        total = f"{_num(agg.total.mean)} / {agg.max_points}"
        rows.append(
            ["Total", *([_num(cmp.baseline)] if cmp else []), total, *([_arrow(cmp.delta)] if cmp else [])]
        )
    rate_rows = _rate_rows(agg, cmp)
    rows += rate_rows + _usage_rows(agg, cmp)
    headers = ["", "baseline", "this run", "Δ"] if cmp else ["", "this run"]
    return [*lines, _table(rows, headers), "", *_noise_note(cmp, rate_rows)]


def _categories(agg: ScenarioAggregate, cmp: ScenarioComparison | None) -> list[str]:
    cats = cmp.categories if cmp else {}
    rows = []
    for c, v in agg.categories.items():
        d = cats.get(c)
        score = f"{_num(v.mean)} / {v.max}"
        if cmp:
            full = f"{_pct(d.baseline_pass_rate if d else None)} → {_pct(v.pass_rate)}"
            rows.append(
                [v.title, _num(d.baseline if d else None), score, _arrow(d.delta if d else None), full]
            )
        else:
            rows.append([v.title, score, _pct(v.pass_rate)])
    headers = (
        ["category", "baseline", "this run", "Δ", "full marks"]
        if cmp
        else ["category", "this run", "full marks"]
    )
    return ["**Categories**", "", _table(rows, headers)]


def _criteria(agg: ScenarioAggregate, cmp: ScenarioComparison | None) -> list[str]:
    """With a baseline, the criteria that moved (the rest are counted); without, every criterion."""
    crit = cmp.criteria if cmp else {}
    rows, same = [], 0
    for c, v in agg.criteria.items():
        name, score = f"{c} {md_text(v.title, 70)}", f"{_num(v.mean)} / {v.max}"
        if not cmp:
            rows.append([name, score])
            continue
        d = crit.get(c)
        if d and d.baseline is not None and round(d.delta or 0, 2) == 0:
            same += 1
            continue
        rows.append([name, _num(d.baseline if d else None), score, _arrow(d.delta if d else None)])
    if not rows:
        return ["", f"**Criteria**: all {same} scored as in the baseline."]
    lines = ["", "**Criteria**" + (" that moved" if cmp else ""), ""]
    lines.append(
        _table(rows, ["criterion", "baseline", "this run", "Δ"] if cmp else ["criterion", "this run"])
    )
    if same:
        lines += ["", f"_{same} other criteria scored as in the baseline._"]
    return lines


def _dropped(
    scenario: str,
    agg: ScenarioAggregate,
    cmp: ScenarioComparison | None,
    trials: list[TrialSummary],
    viewer: ViewerLink,
) -> list[str]:
    crit = cmp.criteria if cmp else {}
    dropped = [c for c, v in crit.items() if v.delta is not None and v.delta < 0]
    if not dropped:
        return []
    lines = ["", "**What dropped**", ""]
    for c in dropped:
        where = anchor(scenario, c, trials)
        link = f" · [{where}]({viewer.href(where)})"
        lines.append(f"- **{c}** {md_text(agg.criteria[c].title, 90)}: {_why(c, trials)}{link}")
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
    lines += [f"- trial {e.trial}: {md_text(e.error or 'unknown error', 300)}" for e in agg.errors[:20]]
    if len(agg.errors) > 20:
        lines.append(f"- … {len(agg.errors) - 20} more")
    return lines


def _scenario_section(name: str, agg: ScenarioAggregate, summary: Summary, viewer: ViewerLink) -> list[str]:
    cmp, trials = summary.comparison.get(name), summary.trials.get(name, [])
    lines = _overview(name, agg, cmp, summary.several)
    lines += _categories(agg, cmp)
    lines += _criteria(agg, cmp)
    lines += _dropped(name, agg, cmp, trials, viewer)
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
    text = f"failed in {count} of {len(ok)} trials; {part.id} ({layer}, trial {trial.trial})"
    text += f" — {md_text(part.reason, 300)}"
    excerpt = md_code(part.evidence_excerpt, EXCERPT)
    return text + (f" (evidence: {excerpt})" if excerpt else "")


def _unscored_reason(part_id: str, trials: list[TrialSummary]) -> str:
    for trial in trials:
        for part in trial.parts:
            if part.id == part_id and part.status == "unscored":
                return md_text(part.reason, 200)
    return ""
