"""The viewer without JavaScript: the summary, the failing parts with their reasons, and the
transcripts, as static HTML inside the page's `<noscript>`.

With scripting on, a browser reads a `<noscript>` element's content as raw text and builds no DOM for
it, so this part costs the interactive page nothing but its bytes; with scripting off (a locked-down
mail client, a reader that strips scripts) it is the page. Every string from the run is escaped
with `html.escape` (quotes too): nothing an agent wrote becomes markup, and no text can close the
`<noscript>` element, since `<` never appears unescaped.

Transcripts are drawn for as many trials as `BUDGET` characters allow, failing and errored trials
first (what a reviewer opens first); the others say where their transcript is. Deep links work as in
the interactive page (`#scenario/trial/part`): a browser opens the `<details>` a fragment points into.
"""

from __future__ import annotations

from collections.abc import Iterable
from html import escape
from typing import Any

BUDGET = 1_500_000  # characters of transcript HTML, all trials together
FAILING = ("failed", "errored", "undecided")
HOW = {
    "tool": "a different tool",
    "arguments": "the same tool with other arguments",
    "result": "the same call, answered differently",
    "end": "one of them stopped",
}


_BIDI = {c: f"⟨U+{c:04X}⟩" for c in [*range(0x202A, 0x202F), *range(0x2066, 0x206A)]}


def esc(value: Any) -> str:
    """Text as HTML text: escaped (quotes too), bidirectional controls shown by name (they could
    reorder what a reader sees), as page.js shows them. ASCII text holds no such control, and most
    of a run's text is ASCII: `translate` (a lookup per character) is skipped for it."""
    text = escape("–" if value is None else str(value), quote=True)
    return text if text.isascii() else text.translate(_BIDI)


def _num(value: Any, digits: int = 2) -> str:
    if value is None:
        return "–"
    return f"{round(float(value), digits):g}" if isinstance(value, int | float) else esc(value)


def _pct(value: Any) -> str:
    return "–" if value is None else f"{round(float(value) * 100)}%"


def _tag(tag: str, body: str, cls: str = "", ident: str = "") -> str:
    attrs = (f' class="{esc(cls)}"' if cls else "") + (f' id="{esc(ident)}"' if ident else "")
    return f"<{tag}{attrs}>{body}</{tag}>"


def _table(headers: Iterable[str], rows: Iterable[Iterable[str]], cls: str = "") -> str:
    head = "".join(f"<th>{esc(h)}</th>" for h in headers)
    body = "".join("<tr>" + "".join(f"<td>{cell}</td>" for cell in row) + "</tr>" for row in rows)
    return _tag("table", f"<tr>{head}</tr>{body}", cls)


def _label(text: str) -> str:
    return _tag("div", esc(text), "label")


def _link(ident: str, text: str) -> str:
    return f'<a href="#{esc(ident)}">{esc(text)}</a>'


# --- shapes (evals/report/viewer/results/shapes.py), as page.js draws them --------------------------


def _diff(text: str) -> str:
    lines = []
    for line in text.split("\n"):
        cls = "diff-add" if line.startswith("+") else "diff-del" if line.startswith("-") else ""
        lines.append(f'<span class="{cls}">{esc(line)}\n</span>' if cls else esc(line) + "\n")
    return _tag("pre", "".join(lines), "diff")


def _mail(m: dict[str, Any]) -> str:
    heads = [
        ("From", m.get("from")),
        ("To", m.get("to")),
        ("Cc", m.get("cc")),
        ("Bcc", m.get("bcc")),
        ("Date", m.get("date")),
        ("Subject", m.get("subject")),
        ("Thread", m.get("thread")),
    ]
    rows = "".join(f"<tr><th>{k}</th><td>{esc(v)}</td></tr>" for k, v in heads if v)
    note = _label(m["note"]) if m.get("note") else ""
    return _tag(
        "div",
        _tag("table", rows, "mail-head") + note + _tag("pre", esc(m.get("body", "")), "mail-body"),
        "mail",
    )


def _block(b: dict[str, Any]) -> str:
    mark = ("☑ " if b.get("checked") else "☐ ") if b.get("type") == "to_do" else ""
    text = " | ".join(b["cells"]) if b.get("cells") else b.get("text", "")
    cls = "block" + (" archived" if b.get("archived") else "")
    return _tag("div", f'<span class="label">{esc(b.get("type"))} </span>{esc(mark + text)}', cls)


def shape(s: dict[str, Any]) -> str:
    title = _label(s["title"]) if s.get("title") else ""
    kind = s.get("kind")
    if kind == "mail":
        return "".join(_mail(m) for m in s["messages"])
    if kind == "code":
        return title + _tag("pre", esc(s["text"]), "code")
    if kind == "diff":
        return title + _diff(s["text"])
    if kind == "table":
        return title + _table(s["columns"], ([esc(c) for c in row] for row in s["rows"]))
    if kind == "blocks":
        return title + "".join(_block(b) for b in s["blocks"])
    if kind == "fields":
        rows = "".join(f"<tr><th>{esc(k)}</th><td>{esc(v)}</td></tr>" for k, v in s["pairs"])
        return title + (_tag("table", rows, "fields") if rows else "")
    if kind == "text":
        return title + _tag("pre", esc(s["text"]))
    if kind == "error":
        return _tag("pre", esc("error: " + str(s["text"])), "status-failed")
    return ""


# --- a trial --------------------------------------------------------------------------------------


def _call(t: dict[str, Any], e: dict[str, Any]) -> str:
    ident = f"{t['scenario']}/{t['trial']}/call-{e['index']}" if e.get("index") is not None else ""
    failed = "" if e.get("ok") else ' <span class="status-failed">✗ failed</span>'
    brief = _tag("span", esc(e.get("brief", "")), "brief")
    head = f"#{esc(e.get('index'))} <b>{esc(e['tool'])}</b> {brief}{failed}"
    sent = (
        _label("the agent sent") + "".join(shape(s) for s in e.get("args_view") or [])
        if e.get("args_view")
        else ""
    )
    answer = (
        _label("the service answered") + "".join(shape(s) for s in e.get("view") or [])
        if e.get("view")
        else ""
    )
    return _tag(
        "details",
        f"<summary>{head}</summary>{sent}{answer}",
        "call" + ("" if e.get("ok") else " fail"),
        ident,
    )


def _entry(t: dict[str, Any], e: dict[str, Any]) -> str:
    if e["kind"] == "tool":
        return _call(t, e)
    if e["kind"] == "thinking":
        return _tag(
            "div", _label("thinking (the model's own reasoning)") + _tag("pre", esc(e["text"])), "thinking"
        )
    said = e.get("said") or "said"
    return _tag("div", _label(f"model · {said}") + _tag("pre", esc(e.get("text", ""))), "model")


def _prompts(p: dict[str, Any] | None) -> str:
    if not p:
        return _tag("p", "The prompts were not recorded in this transcript.", "muted")
    body = _label(p["note"]) if p.get("note") else ""
    for key, title in (
        ("system", "system prompt"),
        ("addendum", "agent's system addendum"),
        ("task", "task"),
    ):
        if p.get(key):
            body += _label(title) + _tag("pre", esc(p[key]), f"{key}-prompt")
    if p.get("personas"):
        rows = ([esc(x.get(k)) for k in ("id", "name", "role", "address")] for x in p["personas"])
        body += _label("personas") + _table(["id", "name", "role", "address"], rows)
    return _tag(
        "details", "<summary>Prompts: system, agent addendum, task, personas</summary>" + body, "prompts"
    )


def _parts(t: dict[str, Any]) -> str:
    """The failing and unscored parts with their reasons (the passed ones counted)."""
    shown = [p for p in t["parts"] if p["status"] != "passed"]
    passed = len(t["parts"]) - len(shown)
    rows = []
    for p in shown:
        checks = "".join(
            f"<li>{esc(c['check'])}: {esc(c['detail'])}</li>"
            for c in p.get("checks") or []
            if not c.get("passed")
        )
        judge = p.get("judge") or {}
        critique = (
            f'<div class="critique">judge: {esc(judge.get("critique"))}</div>'
            if judge.get("critique")
            else ""
        )
        excerpt = _tag("pre", esc(p["evidence_excerpt"]), "evidence") if p.get("evidence_excerpt") else ""
        ident = f"{t['scenario']}/{t['trial']}/{p['id']}"
        cells = [
            esc(p["id"]),
            _tag("span", esc(p["status"]), f"status-{p['status']}"),
            f"{_num(p.get('score'))} / {esc(p['max_points'])}",
            esc(p.get("reason")) + (f"<ul>{checks}</ul>" if checks else "") + critique + excerpt,
        ]
        rows.append(f'<tr id="{esc(ident)}">' + "".join(f"<td>{c}</td>" for c in cells) + "</tr>")
    table = _tag(
        "table", "<tr><th>part</th><th>status</th><th>score</th><th>reason</th></tr>" + "".join(rows), "parts"
    )
    return (table if rows else "") + _tag(
        "p", f"{passed} other part{'s' if passed != 1 else ''} passed.", "muted"
    )


def _outcome(o: dict[str, Any] | None) -> str:
    if not o:
        return _tag("p", "No outcome snapshot for this trial.", "muted")
    out = ""
    for pr in o["pulls"]:
        out += _tag(
            "p", f"{esc(pr['repo'])}#{esc(pr['number'])} · {esc(pr['state'])} · <b>{esc(pr['title'])}</b>"
        ) + _diff(pr["diff"])
    for page in o["pages"]:
        changed = "".join(_tag("li", f"{esc(b['state'])}: {esc(b.get('text'))}") for b in page["changed"])
        out += _tag(
            "p", f"Notion page <b>{esc(page['title'])}</b>" + (" (new page)" if page.get("created") else "")
        ) + _tag("ul", changed)
    for m in o["sent"]:
        out += _mail(
            {
                "from": "the agent",
                "to": ", ".join(m["to"]),
                "cc": ", ".join(m["cc"]),
                "bcc": ", ".join(m.get("bcc") or []),
                "subject": m["subject"],
                "body": m["body"],
            }
        )
    return out or _tag("p", "Nothing left behind: no pull request, page change or mail.", "muted")


def trial(t: dict[str, Any], transcript: bool) -> str:
    ident = f"{t['scenario']}/{t['trial']}"
    total = f" · {_num(t.get('total'))} / {esc(t.get('max'))}" if t.get("total") is not None else ""
    lost = (
        f' · <span class="status-failed">parts failed: {esc(", ".join(t["failed"]))}</span>'
        if t.get("failed")
        else ""
    )
    badge = _tag("span", esc(t["status"]), "badge st-" + t["status"].replace(" ", "-"))
    head = f"trial {esc(t['trial'])} · {badge}{total}{lost}"
    body = _tag("pre", esc(t["error"]), "status-failed") if t.get("error") else ""
    body += (
        "<h4>Rubric parts that did not pass</h4>" + _parts(t)
        if t.get("parts")
        else _tag("p", "Not graded.", "muted")
    )
    if transcript:
        body += "<h4>Prompts</h4>" + _prompts(t.get("prompts"))
        body += "<h4>Timeline</h4>" + (
            "".join(_entry(t, e) for e in t["timeline"]) or _tag("p", "No transcript.", "muted")
        )
        body += "<h4>What the agent left behind</h4>" + _outcome(t.get("outcome"))
    else:
        where = f"trials/{t['scenario']}/{t['trial']}/transcript.json"
        body += _tag(
            "p",
            f"Transcript not drawn here (size limit): open the page with JavaScript, or read {esc(where)}.",
            "muted",
        )
    return _tag("details", f"<summary>{head}</summary>{body}", "trial", ident)


# --- the page -------------------------------------------------------------------------------------


def _summary(data: dict[str, Any]) -> str:
    s = data.get("summary")
    out = _tag("h1", f"Agent evals · {esc(data.get('run', ''))}")
    out += _tag(
        "p",
        "JavaScript is off: this is the run's summary, the failing parts with their reasons and the "
        "transcripts. "
        "With JavaScript the page also searches, filters and puts a failing trial beside a passing one.",
        "muted",
    )
    if not s:
        return out + _tag("p", "No summary.json in this run yet.", "muted")
    out += _tag("p", _tag("span", esc(s["verdict"]), f"verdict {s['verdict']}"))
    story = s.get("story") or {"lead": "", "fell": []}
    reasons = _tag("ul", "".join(_tag("li", esc(r)) for r in s["reasons"])) if s["reasons"] else ""
    if story["fell"]:  # the story first (evals/report/story.py), the statistics folded under it
        fell = "".join(
            _tag("li", f"{esc(f['text'])} · {_link(f['anchor'], f['anchor'])}") for f in story["fell"]
        )
        if story.get("more"):
            fell += _tag("li", f"and {int(story['more'])} more: the criteria table below", "muted")
        out += _tag("div", _tag("p", esc(story["lead"] + ". What fell:"), "lead") + _tag("ul", fell), "story")
        if reasons:
            out += _tag("details", f"<summary>How the gate decided (interval, p-values)</summary>{reasons}")
    else:
        out += reasons
    if s["notices"]:
        notes = _tag("ul", "".join(_tag("li", esc(n)) for n in s["notices"]), "muted")
        out += _tag(
            "details",
            f"<summary>{len(s['notices'])} note(s) on how this run was compared</summary>{notes}",
            "notices",
        )
    total, gate = s["total"], s.get("gate")
    line = f"Total <b>{_num(total['mean'])} / {esc(total['max'])}</b>"
    if gate:
        line += f" · baseline {_num(gate['baseline'])} · Δ {_num(gate['delta'])}"
        line += f" · interval {_num(gate['ci'][0])} to {_num(gate['ci'][1])}"
        line += " (clipped to what the scale allows)" if gate.get("clipped") else ""
    out += _tag("p", line)
    return out + (_tag("p", esc(s["operating"]), "muted") if s.get("operating") else "")


def _criteria(s: dict[str, Any]) -> str:
    rows = []
    for key in s.get("criteria_order") or list(s["criteria"]):
        c = s["criteria"][key]
        failed = (c.get("trials") or {}).get("failed") or []
        links = ", ".join(_link(f"{sc}/{tr}/{part}", f"#{tr} {part}") for sc, tr, part in failed)
        cells = [
            esc(key),
            esc(c.get("title")),
            _num(c.get("baseline")),
            f"{_num(c.get('mean'))} / {esc(c.get('max'))}",
            _num(c.get("delta")),
            f"{_pct(c.get('baseline_pass_rate'))} → {_pct(c.get('pass_rate'))}",
            f'<span class="status-failed">failed in {links}</span>' if links else "",
        ]
        rows.append(cells)
    headers = ["criterion", "title", "baseline", "this run", "Δ", "full marks", "trials"]
    return "<h2>Criteria vs baseline (rubric order)</h2>" + _table(headers, rows)


def _divergence(task: dict[str, Any], trials: dict[tuple[str, int], dict[str, Any]]) -> str:
    d = task.get("divergence")
    if not d:
        return ""
    name = task["name"]
    f, p = trials.get((name, d["failing"])), trials.get((name, d["passing"]))
    if f is None or p is None:
        return ""
    rows = []
    for r in d["rows"]:
        cells = []
        for t, pos in ((f, r["fail"]), (p, r["pass"])):
            e = t["timeline"][pos] if pos is not None else None
            cells.append(f"<b>{esc(e['tool'])}</b> {esc(e.get('brief', ''))}" if e else "—")
        rows.append(cells)
    flipped = _table(
        ["part", f"trial {d['failing']}", f"trial {d['passing']}"],
        (
            [
                esc(x["id"]),
                esc(f"{x['failing']['status']}: {x['failing']['reason']}"),
                esc(f"{x['passing']['status']}: {x['passing']['reason']}"),
            ]
            for x in d["flipped"]
        ),
    )
    steps = _table([f"trial {d['failing']} (failed)", f"trial {d['passing']} (passed)"], rows, "side-by-side")
    then = f"then {HOW.get(d['how'], d['how'])}" if d["how"] else "the same calls throughout"
    head = f"Why trial {esc(d['failing'])} failed where trial {esc(d['passing'])} passed: "
    head += f"{esc(d['same_before'])} identical calls, {then}"
    return _tag(
        "details",
        f"<summary>{head}</summary><h4>Parts that flipped</h4>{flipped}<h4>Side by side</h4>{steps}",
        "divergence",
        f"{name}/divergence",
    )


def _about(task: dict[str, Any]) -> str:
    """The task's about.yaml, as the page's `about(task)` draws it."""
    a = task.get("about")
    if not a:
        return ""
    body = _tag("p", esc(a["purpose"])) + _tag("p", esc(a["tier_why"]), "muted")
    traps = "".join(
        _tag(
            "li",
            _tag("b", "Trap where the obvious rule loses: " if t.get("obvious_rule_loses") else "Trap: ")
            + esc(t["trap"])
            + _tag("div", esc("Decided by: " + t["source_of_truth"]), "muted"),
        )
        for t in a.get("traps") or []
    )
    if traps:
        body += _tag("h4", "Traps and their sources of truth") + _tag("ul", traps)
    limits = "".join(_tag("li", esc(x)) for x in a.get("limitations") or [])
    if limits:
        body += _tag("h4", "What it cannot tell apart") + _tag("ul", limits)
    summary = _tag("summary", esc("What this task tests: " + a["behaviour"]))
    return _tag("details", summary + body, "about", f"{task['name']}/about")


def render(data: dict[str, Any]) -> str:
    """The static HTML for the page's `<noscript>`."""
    trials = {(t.get("scenario"), t.get("trial")): t for t in data.get("trials", [])}
    budget = BUDGET
    drawn: set[tuple[Any, Any]] = set()
    for key, t in sorted(trials.items(), key=lambda kv: kv[1].get("status") not in FAILING):
        size = len(str(t.get("timeline"))) + len(str(t.get("outcome")))
        if size <= budget:
            drawn.add(key)
            budget -= size
    out = _summary(data) + (_criteria(data["summary"]) if data.get("summary") else "") + "<h2>Trials</h2>"
    for group in data.get("groups") or []:
        out += _tag("h2", esc(f"{group['tier']} · {group.get('name', '')}" if group.get("tier") else "Tasks"))
        for task in group["tasks"]:
            inner = _tag("h3", esc(task["name"])) + _about(task) + _divergence(task, trials)
            for i in task["trials"]:
                t = data["trials"][i]
                inner += trial(t, (t["scenario"], t["trial"]) in drawn)
            out += _tag("section", inner, "task", task["name"])
    return _tag("div", out, "static", "static")
