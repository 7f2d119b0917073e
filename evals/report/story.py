"""The story: what broke, told the way a reviewer reads it, before any number, on every surface.

`fallen` is the one list (largest fall first, each with its concrete failure and viewer anchor) that
report.md and the PR comment (`story_lines`), the console verdict (`console_lines`), the Actions
annotations (`annotation_lines`) and the viewer's header (`viewer_story`) all tell.

A regression or an undecided drop is read criterion by criterion: which one fell (by its rubric
title), the concrete failure its check found ("expected FLAG_THRESHOLD = 0.85, found 0.8") or the
judge's critique, in how many trials, and where the viewer shows it. A guard that fell is named the
same way, with its full-marks count against the baseline's. An undecided drop says what deciding
would take: about how many more trials, dollars and minutes, from the numbers the gate computed
(`TotalComparison.decide_at`, the run's cost and time per trial). The gate's own reasoning (interval,
Fisher and Holm p-values) is folded below the numbers by the report, not told here.

Reads only `Summary`; everything an agent or a check wrote goes through evals/core/untrusted.py.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from evals.core.untrusted import md_text
from evals.gate.compare import GuardComparison, ItemDelta, TotalComparison
from evals.gate.summary import Summary, TrialSummary
from evals.grade.result import PartGrade

NAMED = 3  # criteria told with their failure; the rest are listed by title
ANNOTATED = 6  # fallen parts annotated (GitHub shows 10 error annotations a step) or in the viewer's header
LISTED = 6  # criteria named in the "also lower" line
DETAIL = 160


class Links(Protocol):
    def href(self, anchor: str) -> str: ...


def anchor(scenario: str, criterion: str, trials: list[TrialSummary]) -> str:
    """The viewer anchor of the criterion's (or part's) first failing part, else its first trial."""
    for trial in trials:
        for part in trial.parts:
            if criterion in (part.criterion, part.id) and part.status == "failed":
                return f"{scenario}/{trial.trial}/{part.id}"
    first = next((t.trial for t in trials if t.status == "ok"), 0)
    return f"{scenario}/{first}/{criterion}"


def failure(part: PartGrade) -> str:
    """The concrete failure of one part: its first failed check's detail, else its reason (a check's
    `check: detail`, or the judge's critique)."""
    failed = next((c for c in part.checks if not c.passed), None)
    return failed.detail if failed is not None and failed.detail else part.reason


def failing(criterion: str, trials: list[TrialSummary]) -> tuple[PartGrade | None, int, int]:
    """(the first failing part of the criterion, or the part itself; trials in which it failed;
    trials that were graded)."""
    graded = [t for t in trials if t.status == "ok" and t.parts]
    hits = [
        (t, p) for t in graded for p in t.parts if criterion in (p.criterion, p.id) and p.status == "failed"
    ]
    return (hits[0][1] if hits else None), len({t.trial for t, _ in hits}), len(graded)


def _pct(value: float | None) -> str:
    return "–" if value is None else f"{value:.0%}"


def _points(value: float | None) -> str:
    return "–" if value is None else f"{value:.2f}".rstrip("0").rstrip(".")


def _title(summary: Summary, scenario: str, criterion: str) -> str:
    stats = summary.scenarios[scenario].criteria.get(criterion)
    return md_text(stats.title, 90) if stats and stats.title else criterion


def _key(summary: Summary, scenario: str, item: str) -> str:
    return f"{scenario}/{item}" if summary.several else item


@dataclass(frozen=True)
class Fell:
    """One fallen criterion or guard, as every surface tells it: what fell, where, and the concrete
    failure. `title` and `failure` are untrusted text (a rubric's title, a check's detail or the
    judge's critique): each surface escapes them its own way (Markdown, console, annotation, HTML)."""

    scenario: str
    item: str  # the criterion, or the guard's part
    key: str  # `C5`, or `nightshift/C5` when the run has several scenarios
    title: str
    failure: str  # '' when no part failed outright (lower on average)
    count: int  # trials in which it failed
    graded: int  # trials graded
    anchor: str  # the viewer's `scenario/trial/part`
    guard: bool = False
    delta: ItemDelta | None = None  # a criterion's points and full-marks rates, before and after
    guard_cmp: GuardComparison | None = None

    def told(self) -> str:
        """`the secret is still in main (…), in 3 of 3 trials`, or why there is no such sentence."""
        if not self.failure:
            return "lower on average, no part failed outright"
        return f"{self.failure.rstrip('.')}, in {self.count} of {self.graded} trials"

    def plain(self, width: int = DETAIL) -> str:
        """One line of plain text (console, annotation, viewer): `C5 SEC-004 …: the failure, in 3 of
        3 trials`. Not escaped: the caller's surface does that."""
        title = _cut(self.title, 90)
        name = f"guard {self.key} of {title}" if self.guard else f"{self.key} {title}"
        return f"{name}: {_cut(self.told(), width)}"


def _cut(text: str, width: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 1].rstrip() + "…"


def _raw_title(summary: Summary, scenario: str, criterion: str) -> str:
    stats = summary.scenarios[scenario].criteria.get(criterion)
    return stats.title if stats and stats.title else criterion


def _criterion(summary: Summary, scenario: str, criterion: str, d: ItemDelta) -> Fell:
    trials = summary.trials.get(scenario, [])
    part, count, graded = failing(criterion, trials)
    return Fell(
        scenario, criterion, _key(summary, scenario, criterion), _raw_title(summary, scenario, criterion),
        failure(part) if part is not None else "", count, graded, anchor(scenario, criterion, trials),
        delta=d,
    )  # fmt: skip


def _guard(summary: Summary, g: GuardComparison) -> Fell:
    trials = summary.trials.get(g.scenario, [])
    stats = summary.scenarios[g.scenario].parts.get(g.part)
    part, count, graded = failing(g.part, trials)
    return Fell(
        g.scenario, g.part, _key(summary, g.scenario, g.part),
        _raw_title(summary, g.scenario, stats.criterion if stats else g.part),
        failure(part) if part is not None else "", count, graded, anchor(g.scenario, g.part, trials),
        guard=True, guard_cmp=g,
    )  # fmt: skip


def _dropping(summary: Summary) -> bool:
    g = summary.gate
    return g is not None and g.delta < -g.allowed_drop


def fallen(summary: Summary) -> list[Fell]:
    """What fell, largest first: the criteria of a total that dropped past the threshold (by their
    drop), then every guard that fell. Empty unless the verdict is a regression or inconclusive:
    the one list the report, the console, the annotations and the viewer's header all tell."""
    if summary.verdict not in ("regression", "inconclusive"):
        return []
    criteria: list[Fell] = []
    if _dropping(summary):
        dropped = sorted(
            (
                (d.delta, scenario, criterion, d)
                for scenario, cmp in summary.comparison.items()
                for criterion, d in cmp.criteria.items()
                if d.delta is not None and d.delta < 0
            ),
            key=lambda item: item[0],
        )
        criteria = [_criterion(summary, s, c, d) for _, s, c, d in dropped]
    return criteria + [_guard(summary, g) for g in summary.guards if g.regressed]


def lead(summary: Summary) -> str:
    """The story's first sentence in plain text, before what fell (empty when nothing fell)."""
    if not fallen(summary):
        return ""
    g = summary.gate
    if g is not None and _dropping(summary):
        noise = (
            "noise cannot explain it" if g.ci[1] < 0 else "noise could explain it: the gate cannot tell yet"
        )
        return f"The total fell {-g.delta:.2f} of {summary.total.max} points ({noise})"
    return "A guard fell (a part that may never regress)"


def headline(summary: Summary) -> str:
    """The lead and what fell first with its concrete failure, in one line of plain text (empty
    when nothing fell)."""
    told = distinct(fallen(summary))
    return f"{lead(summary)}. First: {told[0].plain()}" if told else ""


def viewer_story(summary: Summary) -> dict[str, object]:
    """The story as the viewer's header shows it (page.js and the page without JavaScript): the lead,
    then each fallen part's line and anchor, largest first, up to ANNOTATED of them, and how many more
    the criteria table below shows."""
    told = distinct(fallen(summary))
    fell = [{"text": f.plain(), "anchor": f.anchor} for f in told[:ANNOTATED]]
    return {"lead": lead(summary), "fell": fell, "more": max(len(told) - ANNOTATED, 0)}


def distinct(items: list[Fell]) -> list[Fell]:
    """Each place in the viewer once: a guard whose failure its criterion already tells (same
    anchor) is not told twice where lines are few (console, annotations, the viewer's header)."""
    seen: set[str] = set()
    out = []
    for item in items:
        if item.anchor not in seen:
            seen.add(item.anchor)
            out.append(item)
    return out


def _drop_line(summary: Summary, f: Fell, links: Links) -> str:
    d = f.delta
    assert d is not None
    stats = summary.scenarios[f.scenario].criteria.get(f.item)
    points = f"{_points(d.baseline)} → {_points(d.run)} of {stats.max if stats else '?'} points"
    rate = f"full marks {_pct(d.baseline_pass_rate)} → {_pct(d.pass_rate)}"
    told = (
        f"{md_text(f.failure, DETAIL).rstrip('.')}, in {f.count} of {f.graded} trials"
        if f.failure
        else f.told()
    )
    title = _title(summary, f.scenario, f.item)
    return f"- **{title}** ({f.key}; {points}; {rate}): {told} · [{f.anchor}]({links.href(f.anchor)})"


def _drops(summary: Summary, links: Links, criteria: list[Fell]) -> list[str]:
    lines = [_drop_line(summary, f, links) for f in criteria[:NAMED]]
    rest = [
        f"{f.key} {_title(summary, f.scenario, f.item)} ({f.delta.delta:+.2f})"
        for f in criteria[NAMED:]
        if f.delta is not None and f.delta.delta is not None
    ]
    if rest:
        more = f" and {len(rest) - LISTED} more" if len(rest) > LISTED else ""
        lines.append(f"- Also lower: {'; '.join(rest[:LISTED])}{more}.")
    return lines


def _guard_line(summary: Summary, f: Fell, links: Links) -> str:
    g = f.guard_cmp
    assert g is not None
    told = f": {md_text(f.failure, DETAIL)}" if f.failure else ""
    name = f"Guard {f.key} of “{md_text(f.title, 90)}”"
    return (
        f"- **{name}** fell: full marks in {g.passed} of {g.trials} trials, against "
        f"{g.baseline_passed} of {g.baseline_trials} in the baseline{told}"
        f" · [{f.anchor}]({links.href(f.anchor)})"
    )


def _headline(summary: Summary, g: TotalComparison) -> str:
    fell = (
        f"**The total fell {-g.delta:.2f} points** ({_points(g.baseline)} → {_points(g.run)} of "
        f"{summary.total.max}), more than the {_points(g.allowed_drop)} allowed"
    )
    if g.ci[1] < 0:
        return f"{fell}, and noise cannot explain it. What fell:"
    return f"{fell}, but noise could explain it: the gate cannot tell yet. What fell:"


def _minutes(seconds: float) -> str:
    if seconds < 60:
        return "under a minute"
    return f"about {seconds / 60:.0f} minute{'s' if round(seconds / 60) != 1 else ''}"


def to_decide(summary: Summary, g: TotalComparison) -> str:
    """What an undecided drop would take to decide, from the gate's `decide_at` and the run's own
    cost and time per trial."""
    if g.decide_at is None:
        return (
            "**To decide:** more trials of this run would not: the baseline's own spread (from its "
            f"{g.baseline_k} trials) keeps the interval across zero. Bless a baseline with more "
            "trials (the nightly run's), then run again."
        )
    extra = max(g.decide_at - g.k, 0)
    aggs = [a for name, a in summary.scenarios.items() if name in summary.comparison and a.k]
    cost = extra * sum((a.usage.cost_usd + a.usage.judge_cost_usd) / a.k for a in aggs)
    seconds = extra * sum(a.usage.latency_s_mean or 0 for a in aggs)
    spend = f"about ${cost:.2f}" if cost else "no model cost"
    text = (
        f"**To decide:** if the drop holds at this size, about {extra} more trial{'s' if extra != 1 else ''} "
        f"per scenario ({g.decide_at} in all) would show it is real: {spend} and {_minutes(seconds)} "
        "of agent time, one trial after another."
    )
    if g.decide_at > g.budget:
        text += f" That is past the gate's budget of {g.budget} trials per scenario (`gate.max_trials`)."
    return text + " " + CONTINUE


CONTINUE = (
    "**To go on with this same run** (its trials and looks kept, never a fresh start): a maintainer "
    "comments `/evals continue` on the PR while its head is the one evaluated, or locally "
    "`evals run --continue <run dir>`. Each continuation adds up to `gate.max_trials` trials per "
    "scenario and calls a regression only past the interim line, so it spends almost none of the "
    "false-alarm rate; labelling again starts a fresh run that spends it all again."
)


def violation_lines(summary: Summary, links: Links) -> list[str]:
    """Every decisive part a trial failed (a serious violation: data sent out, a policy exception
    granted, another owner's work touched), whatever the verdict: each failed its trial alone, and a
    reviewer must see it before any average hides it. Empty when no trial has one."""
    lines: list[str] = []
    for scenario, trials in summary.trials.items():
        graded = [t for t in trials if t.status == "ok" and t.parts]
        for pid in sorted({v for t in graded for v in t.violations}):
            hit = [t for t in graded if pid in t.violations]
            where = f"{scenario}/{hit[0].trial}/{pid}"
            part = next((p for p in hit[0].parts if p.id == pid), None)
            if part is None:  # collateral: no rubric part, what changed outside the task's write set
                changed = "; ".join(hit[0].collateral) or "a change outside the task's write set"
                lines.append(
                    f"- **Changed beyond the task** ({scenario}, collateral): "
                    f"{md_text(changed, DETAIL).rstrip('.')}, in {len(hit)} of {len(graded)} trials"
                    f" · [{where}]({links.href(where)})"
                )
                continue
            title = _title(summary, scenario, part.criterion)
            lines.append(
                f"- **{title}** ({_key(summary, scenario, pid)}): "
                f"{md_text(failure(part), DETAIL).rstrip('.')}, in {len(hit)} of {len(graded)} trials"
                f" · [{where}]({links.href(where)})"
            )
    out = []
    if lines:
        lead = "**Serious violations**: a decisive part failed, which fails its trial whatever else scored:"
        out = [lead, "", *lines, ""]
    return out + _not_done_lines(summary)


def _not_done_lines(summary: Summary) -> list[str]:
    """Decisive parts that failed only because a part they require failed: the agent never got there
    and nothing forbidden happened, so they are said apart from the violations, in one line."""
    found = []
    for scenario, trials in summary.trials.items():
        graded = [t for t in trials if t.status == "ok" and t.parts]
        stats = summary.scenarios[scenario].parts
        missed = sorted({p.id for t in graded for p in t.parts if p.not_done and stats[p.id].decisive})
        for pid in missed:
            hit = sum(1 for t in graded if any(p.id == pid and p.not_done for p in t.parts))
            found.append(f"{_key(summary, scenario, pid)} in {hit} of {len(graded)} trials")
    if not found:
        return []
    return [f"**Not done** (a part it requires failed; no violation): {', '.join(found)}", ""]


def story_lines(summary: Summary, links: Links) -> list[str]:
    """The story of a regression or an undecided drop (empty for any other verdict): the headline,
    each fallen criterion and guard with its concrete failure, and what deciding would take."""
    g = summary.gate
    items = fallen(summary)
    if not items:
        return []
    criteria = [f for f in items if not f.guard]
    guards = [f for f in items if f.guard]
    lines: list[str] = []
    if g is not None and _dropping(summary):
        lines += [_headline(summary, g), "", *_drops(summary, links, criteria)]
    if guards:
        lead = (
            "Guards (parts that may never regress) that fell:"
            if lines
            else "**A guard fell**, a part that may never regress:"
        )
        lines += [*([""] if lines else []), lead, "", *[_guard_line(summary, f, links) for f in guards]]
    if summary.verdict == "inconclusive" and g is not None:
        lines += ["", to_decide(summary, g)]
    return [*lines, ""]


CONSOLE_TOLD = 3  # fallen parts the console names, each with its failure, before any statistic


def console_lines(summary: Summary) -> list[str]:
    """The story as the terminal shows it, right under the verdict line and before any statistic:
    what fell first with its concrete failure, then the next ones, then where the rest are. Plain,
    unescaped text: the caller makes each a safe console line."""
    told = distinct(fallen(summary))
    if not told:
        return []
    lines = [headline(summary)]
    lines += [f"also: {f.plain()}" for f in told[1:CONSOLE_TOLD]]
    if len(told) > CONSOLE_TOLD:
        lines.append(f"and {len(told) - CONSOLE_TOLD} more in report.md")
    return lines


def annotation_lines(summary: Summary) -> list[tuple[str, str]]:
    """(title, message) of one annotation per fallen part, largest first, each with its concrete
    failure and where the viewer shows it: what a reviewer sees on the checks page before the
    statistics. Past ANNOTATED parts, one more says how many the job summary lists. Plain,
    unescaped text: the annotation writer escapes it."""
    told = distinct(fallen(summary))
    lines = [
        (
            f"{'guard ' if f.guard else ''}{f.key} fell: {_cut(f.title, 90)}",
            f"{_cut(f.told(), 300)} (viewer.html#{f.anchor})",
        )
        for f in told[:ANNOTATED]
    ]
    if len(told) > ANNOTATED:
        lines.append(("more fell", f"{len(told) - ANNOTATED} more parts fell: the job summary lists them"))
    return lines
