"use strict";
(function () {
  // Two data blocks (evals/report/viewer/pack.py): DATA, plain JSON with the verdict, criteria, tiers and
  // each trial's summary line, drawn at once; and the trials' details, gzip + base64, inflated with
  // DecompressionStream after the first paint. Long values in the details are stored once in
  // DETAILS.pool, referenced as {"$s": n}; a trial is resolved when it is first opened or searched.
  // Every node is built with textContent (el() below): nothing from the data is ever parsed as HTML.
  const DATA = JSON.parse(document.getElementById("run-data").textContent);
  window.ViewerPage = { data: DATA };  // for label.js, inlined after this script (the labelling panel)
  let DETAILS = null;
  let unpacking = null;
  const rendered = new Map();
  let query = "";
  let failuresOnly = false;

  function bytesOf(b64) {
    if (typeof Uint8Array.fromBase64 === "function") return Uint8Array.fromBase64(b64);
    const bin = atob(b64);
    const out = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
    return out;
  }
  function unpack() {
    if (!unpacking) unpacking = (async () => {
      if (typeof DecompressionStream !== "function") throw new Error("this browser has no DecompressionStream (Chromium 80+, Firefox 113+, Safari 16.4+)");
      const packed = document.getElementById("run-packed").textContent.trim();
      const stream = new Blob([bytesOf(packed)]).stream().pipeThrough(new DecompressionStream("gzip"));
      DETAILS = JSON.parse(await new Response(stream).text());
    })();
    return unpacking;
  }
  function failed(err) {
    const head = document.getElementById("head");
    if (!document.getElementById("unpack-error")) head.appendChild(el("p", { id: "unpack-error" }, "Could not unpack the trials' details: " + err.message));
    document.body.dataset.ready = "error";
  }
  function whenUnpacked(fn) {  // at once when the details are in, else once they are
    if (DETAILS) return fn();
    unpack().then(fn, failed);
  }

  function thaw(v) {
    if (Array.isArray(v)) return v.map(thaw);
    if (v && typeof v === "object") {
      const keys = Object.keys(v);
      if (keys.length === 1 && keys[0] === "$s") return thaw(DETAILS.pool[v.$s]);
      const out = {};
      for (const k of keys) out[k] = thaw(v[k]);
      return out;
    }
    return v;
  }
  const thawed = new Map();
  function trialAt(i) {  // only once DETAILS is in
    if (!thawed.has(i)) thawed.set(i, Object.assign({}, DATA.trials[i], thaw(DETAILS.trials[i])));
    return thawed.get(i);
  }
  function trialIndex(scenario, trial) {
    return DATA.trials.findIndex((t) => t.scenario === scenario && t.trial === trial);
  }

  // Every node is built here, text only: nothing from the data is ever parsed as HTML. Bidirectional
  // controls (U+202A-202E, U+2066-2069) are shown by name: inside text they could reorder what a
  // reader sees ("passed" drawn over "failed"), so they never act.
  const BIDI = /[\u202A-\u202E\u2066-\u2069]/g;
  const shown = (text) => text.replace(BIDI, (c) => "⟨U+" + c.charCodeAt(0).toString(16).toUpperCase() + "⟩");
  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k === "class") node.className = v; else node.setAttribute(k, v === true ? "" : String(v));
    }
    for (const child of children.flat(Infinity)) {
      if (child === null || child === undefined || child === false) continue;
      node.appendChild(typeof child === "object" ? child : document.createTextNode(shown(String(child))));
    }
    return node;
  }
  const num = (v, d = 2) => (v === null || v === undefined ? "–" : String(Math.round(v * 10 ** d) / 10 ** d));
  const pct = (v) => (v === null || v === undefined ? "–" : Math.round(v * 100) + "%");
  function delta(v, d = 2) {
    if (v === null || v === undefined) return el("span", { class: "muted" }, "–");
    const r = Math.round(v * 10 ** d) / 10 ** d;
    if (r === 0) return el("span", { class: "muted" }, "= 0");
    return el("span", { class: r < 0 ? "down" : "up" }, (r < 0 ? "▼ " : "▲ +") + r);
  }
  const json = (v) => (typeof v === "string" ? v : JSON.stringify(v, null, 2));  // strings: a cut value
  function safeHref(url) { return /^https:\/\//.test(url || "") ? url : null; }
  const anchor = (id, text) => el("a", { href: "#" + id }, text);
  const plural = (n, word) => n + " " + word + (n === 1 ? "" : "s");

  // A trial's outcome in a reader's words (evals/report/viewer/data.py: status_label).
  const FAILING = new Set(["failed", "errored", "undecided"]);
  function statusBadge(status) { return el("span", { class: "badge st-" + status.replace(" ", "-") }, status); }

  function header() {
    const head = document.getElementById("head");
    const s = DATA.summary;
    const meta = DATA.meta || { scenarios: [] };
    head.appendChild(el("h1", {}, "Agent evals · ", el("span", { class: "muted" }, DATA.run)));
    if (s) {
      head.appendChild(el("p", {}, el("span", { id: "verdict", class: "verdict " + s.verdict, "data-verdict": s.verdict }, s.verdict)));
      // the story first (evals/report/story.py): what fell, where, the concrete failure; then the statistics
      const story = s.story || { lead: "", fell: [] };
      if (story.fell.length) head.appendChild(el("div", { id: "story" }, el("p", { class: "lead" }, story.lead + ". What fell:"),
        el("ul", {}, story.fell.map((f) => el("li", {}, f.text, " · ", anchor(f.anchor, f.anchor))),
          story.more ? el("li", { class: "muted" }, "and " + story.more + " more: the criteria table below") : null)));
      const reasons = s.reasons.length ? el("ul", { id: "reasons" }, s.reasons.map((r) => el("li", {}, r))) : null;
      if (reasons) head.appendChild(story.fell.length
        ? el("details", { class: "reasons" }, el("summary", { class: "muted" }, "How the gate decided (interval, p-values)"), reasons)
        : reasons);
      if (s.notices.length) head.appendChild(el("details", { class: "notices" }, el("summary", { class: "muted" }, plural(s.notices.length, "note") + " on how this run was compared"),
        el("ul", { class: "muted" }, s.notices.map((r) => el("li", {}, r)))));
      const t = s.total, g = s.gate;
      const line = ["Total ", el("b", {}, num(t.mean) + " / " + t.max)];
      if (g) line.push(" · baseline " + num(g.baseline) + " · Δ ", delta(g.delta),
        " · " + Math.round(g.confidence * 100) + "% interval " + num(g.ci[0]) + " to " + num(g.ci[1]) +
        (g.clipped ? " (clipped to what the scale allows)" : "") + " · allowed drop " + num(g.allowed_drop));
      head.appendChild(el("p", { id: "total" }, line));
      if (s.operating) head.appendChild(el("p", { id: "operating", class: "muted" }, s.operating));
    } else {
      head.appendChild(el("p", { class: "muted" }, "No summary.json in this run yet (run `python -m evals compare --run DIR`)."));
    }
    head.appendChild(el("p", { class: "muted" }, "Agent " + (meta.agent || "?") + " · commit " + (meta.commit || "unknown").slice(0, 12) +
      " · started " + (meta.started || "?") + " · world " + (meta.world || "sandbox") + " · scenarios " + meta.scenarios.join(", ")));
  }

  // Criteria in rubric order (data.py: criteria_order), each with links to the trials where it failed.
  function criteriaTable() {
    const s = DATA.summary;
    if (!s) return null;
    const order = s.criteria_order || Object.keys(s.criteria);
    const rows = order.map((key) => {
      const c = s.criteria[key];
      const where = c.trials || { failed: [], graded: 0 };
      const links = where.failed.map(([scenario, trial, part]) => anchor(scenario + "/" + trial + "/" + part, "#" + trial + (part === key.split("/").pop() ? "" : " " + part)));
      const failedIn = where.failed.length
        ? el("span", { class: "status-failed" }, "failed in " + where.failed.length + " of " + where.graded + ": ", links.map((a, i) => [i ? ", " : "", a]))
        : el("span", { class: "muted" }, where.graded ? "passed in all " + where.graded : "not graded");
      return el("tr", { id: "criterion-" + key, class: "criterion" + (where.failed.length ? " has-failures" : ""), "data-criterion": key },
        el("td", {}, key), el("td", {}, c.title), el("td", { class: "num" }, num(c.baseline)),
        el("td", { class: "num" }, num(c.mean) + " / " + c.max), el("td", { class: "num" }, delta(c.delta)),
        el("td", { class: "num" }, pct(c.baseline_pass_rate) + " → " + pct(c.pass_rate)), el("td", {}, failedIn));
    });
    return el("section", { id: "criteria" }, el("h2", {}, "Criteria vs baseline (rubric order)"),
      el("table", {}, el("tr", {}, ["criterion", "title", "baseline", "this run", "Δ", "full marks", "trials"].map((h) => el("th", {}, h))), rows));
  }

  // Judged evidence is stored as the judge read it (evals/grade/evidence.py): per-trial names, page
  // links, times, shas and ids are placeholders, so equal content keeps its label. Say so where
  // one appears; the transcript below has the real values.
  const PLACEHOLDER = /\{(repo|repo-name|page:[^}]*|time|sha|id)\}/;
  function evidence(text) {
    const pre = el("pre", { class: "evidence" }, text);
    if (!PLACEHOLDER.test(text)) return pre;
    return el("div", {}, el("div", { class: "label" },
      "evidence as the judge read it: {repo}, {time}, {sha}, {page:…} stand for this trial's repository, times, commits and pages (real values in the transcript)"), pre);
  }

  function partsTable(t) {
    const seen = new Set();
    const rows = t.parts.map((p) => {
      const id = t.scenario + "/" + t.trial + "/" + p.id;
      const row = el("tr", { id: id, class: "part part-" + p.status, "data-part": p.id },
        el("td", {}, p.id), el("td", { class: "status-" + p.status }, p.status),
        el("td", { class: "num" }, num(p.score) + " / " + p.max_points),
        el("td", {}, p.layer === 1 ? "L1 check" : "L2 judge"),
        el("td", {}, el("div", { class: "reason" }, p.reason),
          p.checks && p.checks.length ? el("ul", {}, p.checks.map((c) => el("li", { class: c.passed ? "status-passed" : "status-failed" }, c.check + ": " + c.detail))) : null,
          p.judge ? el("div", { class: "critique" },
            el("span", { class: "label" }, "judge (" + [p.judge.status, p.judge.source, p.judge.model].filter(Boolean).join(", ") + "): "),
            p.judge.critique || "no critique") : null,
          p.evidence_excerpt ? evidence(p.evidence_excerpt) : null,
          p.judge && window.ViewerLabels ? window.ViewerLabels.box(t, p) : null));  // label.js: the reviewer's score
      if (!seen.has(p.criterion)) {  // the criterion's own anchor (#scenario/trial/C7) on its first part
        seen.add(p.criterion);
        const cid = t.scenario + "/" + t.trial + "/" + p.criterion;
        if (cid !== id && !t.parts.some((q) => q.id === p.criterion)) row.firstChild.appendChild(el("span", { id: cid }));
      }
      return row;
    });
    return el("table", { class: "parts" }, el("tr", {}, ["part", "status", "score", "layer", "reason, evidence, critique"].map((h) => el("th", {}, h))), rows);
  }

  // --- a call's views (evals/report/viewer/results/shapes.py), each kind drawn as what it is ----------
  function diff(text) {
    return el("pre", { class: "diff" }, text.split("\n").map((line) =>
      el("span", { class: line.startsWith("+") && !line.startsWith("+++") ? "diff-add" : line.startsWith("-") && !line.startsWith("---") ? "diff-del" : line.startsWith("@@") ? "diff-hunk" : "" }, line + "\n")));
  }
  const caption = (title) => (title ? el("div", { class: "label" }, title) : null);
  function mailView(m) {
    const rows = [["From", m.from], ["To", m.to], ["Cc", m.cc], ["Bcc", m.bcc], ["Date", m.date], ["Subject", m.subject], ["Thread", m.thread], ["Labels", m.labels]]
      .filter(([, v]) => v).map(([k, v]) => el("tr", {}, el("th", {}, k), el("td", { class: "h-" + k.toLowerCase() }, v)));
    return el("div", { class: "mail" }, el("table", { class: "mail-head" }, rows),
      m.note ? el("div", { class: "label" }, m.note) : null, el("pre", { class: "mail-body" }, m.body));
  }
  const BLOCK_MARK = { bulleted_list_item: "• ", numbered_list_item: "1. ", quote: "│ ", toggle: "▸ ", callout: "💡 ", child_page: "📄 ", child_database: "🗃 " };
  function blockLine(b) {
    const mark = b.type === "to_do" ? (b.checked ? "☑ " : "☐ ") : BLOCK_MARK[b.type] || "";
    const tag = /^heading_/.test(b.type) ? "b" : b.type === "code" ? "code" : "span";
    const body = b.cells ? el("span", { class: "cells" }, b.cells.map((c) => el("span", { class: "cell" }, c))) : el(tag, {}, b.text);
    return el("div", { class: "block b-" + b.type + (b.archived ? " archived" : ""), title: b.type }, el("span", { class: "label" }, b.type + " "), mark, body);
  }
  function shape(s) {
    switch (s.kind) {
      case "mail": return el("div", { class: "v-mail" }, s.messages.map(mailView));
      case "code": return el("div", { class: "v-code" }, caption(s.title), el("pre", { class: "code" }, s.text));
      case "diff": return el("div", { class: "v-diff" }, caption(s.title), diff(s.text));
      case "table": return el("div", { class: "v-table" }, caption(s.title),
        el("table", {}, el("tr", {}, s.columns.map((c) => el("th", {}, c))), s.rows.map((r) => el("tr", {}, r.map((c) => el("td", {}, c))))));
      case "blocks": return el("div", { class: "v-blocks" }, caption(s.title), s.blocks.map(blockLine));
      case "fields": return el("div", { class: "v-fields" }, caption(s.title), s.pairs.length ? el("table", { class: "fields" }, s.pairs.map(([k, v]) => el("tr", {}, el("th", {}, k), el("td", {}, v)))) : null);
      case "text": return el("div", { class: "v-text" }, caption(s.title), el("pre", {}, s.text));
      case "error": return el("pre", { class: "v-error status-failed" }, "error: " + s.text);
      default: return el("pre", {}, json(s));
    }
  }

  function rawJson(e) {  // one click away, built when first opened
    const box = el("details", { class: "raw" }, el("summary", { class: "label" }, "raw JSON (base64 elided; whole in transcript.json)"));
    box.addEventListener("toggle", () => {
      if (!box.open || box.dataset.built) return;
      box.dataset.built = "1";
      box.appendChild(el("div", { class: "label" }, "arguments"));
      box.appendChild(el("pre", { class: "args" }, json(e.args)));
      box.appendChild(el("div", { class: "label" }, e.result === null ? "not run (not on the agent's tool list)" : "result"));
      if (e.result !== null) box.appendChild(el("pre", { class: "result" }, json(e.result)));
    });
    return box;
  }

  function callSummary(e) {
    return [e.index === null ? "–" : "#" + e.index, " ", el("b", {}, e.tool), e.brief ? el("span", { class: "brief" }, " " + e.brief) : null,
      e.ok ? "" : el("span", { class: "status-failed" }, "  ✗ failed"), e.turn ? el("span", { class: "muted" }, "  (turn " + e.turn + ")") : null];
  }
  function callBody(e) {
    return [
      (e.args_view || []).length ? el("div", { class: "args-view" }, el("div", { class: "label" }, "the agent sent"), e.args_view.map(shape)) : null,
      (e.view || []).length ? el("div", { class: "result-view" }, el("div", { class: "label" }, "the service answered"), e.view.map(shape)) : null,
      rawJson(e),
    ];
  }
  function entryNode(t, e, i) {
    if (e.kind === "tool") {
      const call = el("details", { class: "call entry" + (e.ok ? "" : " fail"), id: t.scenario + "/" + t.trial + "/call-" + (e.index === null ? "x" + i : e.index) },
        el("summary", {}, callSummary(e)));
      call.addEventListener("toggle", () => { if (call.open && !call.dataset.built) { call.dataset.built = "1"; call.append(...callBody(e).filter(Boolean)); } }, { once: false });
      return call;
    }
    if (e.kind === "thinking") return el("div", { class: "thinking entry" }, el("div", { class: "label" }, "thinking (the model's own reasoning, turn " + e.turn + ")"), el("pre", {}, e.text));
    if (e.kind === "other") return el("div", { class: "model entry" }, el("div", { class: "label" }, e.type + " block, turn " + e.turn), el("pre", {}, e.text));
    const said = e.said === "final answer" ? "final answer" : "said between tool calls";
    return el("div", { class: "model entry" + (e.said === "final answer" ? " final" : "") }, el("div", { class: "label" }, "model · " + said + (e.turn ? ", turn " + e.turn : "")), el("pre", {}, e.text));
  }
  function entryText(e) {
    if (e.kind !== "tool") return (e.text || "").toLowerCase();
    return (e.tool + " " + (e.brief || "") + " " + json(e.args) + " " + json(e.result)).toLowerCase();
  }
  function timeline(t) {
    if (!t.timeline.length) return el("p", { class: "muted" }, "No transcript for this trial.");
    return el("div", { class: "timeline" }, t.timeline.map((e, i) => {
      const node = entryNode(t, e, i);
      node.dataset.text = entryText(e);
      return node;
    }));
  }

  function prompts(p) {
    if (!p) return el("p", { class: "muted" }, "The prompts were not recorded in this transcript.");
    const section = (title, cls, text) => (text ? [el("div", { class: "label" }, title), el("pre", { class: cls }, text)] : []);
    const people = p.personas && p.personas.length ? [el("div", { class: "label" }, "personas"),
      el("table", { class: "personas" }, el("tr", {}, ["id", "name", "role", "address"].map((h) => el("th", {}, h))),
        p.personas.map((x) => el("tr", {}, [x.id, x.name, x.role, x.address].map((v) => el("td", {}, v)))))] : [];
    return el("details", { class: "prompts" }, el("summary", {}, "Prompts: system, agent addendum, task, personas"),
      p.note ? el("div", { class: "label" }, p.note) : null,
      section("system prompt", "system-prompt", p.system), section("agent's system addendum (appended to the system prompt)", "addendum", p.addendum),
      section("task", "task-prompt", p.task), people);
  }

  const box = (checked) => (checked === null || checked === undefined ? "" : checked ? "☑ " : "☐ ");
  const was = (text) => el("del", { class: "diff-del" }, text === null || text === undefined || text === "" ? "(empty)" : text);
  const now = (text) => el("ins", { class: "diff-add" }, text === null || text === undefined || text === "" ? "(empty)" : text);

  // A Notion block as the agent left it, against its seeded self (evals/report/viewer/notion.py).
  function blockChange(b) {
    const parts = [];
    if (b.state === "added") parts.push(el("ins", { class: "diff-add after" }, box(b.checked) + b.text));
    else if (b.state === "archived") parts.push(el("del", { class: "diff-del before" }, box(b.checked) + (b.before === null ? b.text : b.before)));
    else if (b.cells) parts.push(el("div", { class: "label" }, "row " + b.row), b.cells.map((c) => el("span", { class: "cell" }, c.column + ": ", was(c.before), " → ", now(c.after))));
    else if (b.diff) parts.push(el("span", { class: "inline-diff" }, box(b.checked), b.diff.map(([op, text]) =>
      op === "-" ? el("del", { class: "diff-del" }, text) : op === "+" ? el("ins", { class: "diff-add" }, text) : text)));
    else if (b.before !== null && b.before !== b.text) parts.push(
      el("div", { class: "before" }, el("span", { class: "label" }, "before: "), was(b.before)),
      el("div", { class: "after" }, el("span", { class: "label" }, "after: "), now(b.text)));
    else parts.push(box(b.checked) + b.text);
    if (b.state === "edited" && b.before !== null && b.checked_before !== b.checked && b.checked !== null) {
      parts.push(el("div", { class: "label" }, "checkbox " + box(b.checked_before) + "→ " + box(b.checked)));
    }
    if (b.before_unknown) parts.push(el("div", { class: "label" }, "seeded text not recorded in this outcome: final state only"));
    return el("tr", { class: "change " + b.state, "data-state": b.state },
      el("td", {}, b.state), el("td", {}, b.type), el("td", {}, parts));
  }

  function notionPage(page) {
    const head = el("p", {}, el("b", {}, page.title),
      page.created ? el("span", { class: "badge new" }, "new page") : null,
      page.archived ? el("span", { class: "badge archived" }, "archived") : null,
      page.title_before ? el("span", { class: "muted" }, " (was “" + page.title_before + "”)") : null,
      page.created ? null : el("span", { class: "muted" }, " · " + page.unchanged + " blocks as seeded"));
    const props = page.properties.length ? el("table", { class: "properties" }, page.properties.map((p) => el("tr", {},
      el("td", {}, "property"), el("td", {}, p.name), el("td", {}, page.created ? now(p.after) : [was(p.before), " → ", now(p.after)])))) : null;
    const blocks = page.changed.length ? el("table", { class: "blocks" }, page.changed.map(blockChange)) : null;
    return el("div", { class: "page" + (page.created ? " created" : "") }, head, props, blocks);
  }

  function outcome(o) {
    if (!o) return el("p", { class: "muted" }, "No outcome snapshot for this trial.");
    const out = el("div", { class: "outcome" });
    out.appendChild(el("h3", {}, "Pull requests (" + o.pulls.length + ")"));
    for (const pr of o.pulls) {
      const href = safeHref(pr.url);
      out.appendChild(el("div", { class: "pull" },
        el("p", {}, el(href ? "a" : "span", { href: href, rel: "noreferrer noopener" }, pr.repo + "#" + pr.number), " · " + pr.state + " · ", el("b", {}, pr.title)),
        pr.body ? el("pre", {}, pr.body) : null, el("div", { class: "label" }, "changed: " + pr.changed.join(", ")), diff(pr.diff)));
    }
    for (const p of o.pushed) out.appendChild(el("p", { class: "status-failed" }, "Pushed to " + p.repo + " " + p.branch + ": " + p.changed.join(", ")));
    out.appendChild(el("h3", {}, "Notion pages created or changed (" + o.pages.length + ")"));
    for (const page of o.pages) out.appendChild(notionPage(page));
    out.appendChild(el("h3", {}, "Mail sent (" + o.sent.length + ")"));
    for (const m of o.sent) out.appendChild(mailView({ from: "the agent", to: m.to.join(", "), cc: m.cc.join(", "), bcc: (m.bcc || []).join(", "), subject: m.subject, thread: m.thread_id, body: m.body }));
    return out;
  }

  function trialMeta(t) {
    const m = t.metrics;
    const tokens = m.input_tokens + m.output_tokens;
    return el("p", { class: "muted meta" }, [
      "agent " + (t.agent || "?"), m.turns + " turns", m.tool_calls + " tool calls (" + m.tool_errors + " failed)",
      "ended: " + (t.termination || "?"), num(m.latency_s, 1) + " s",
      tokens ? tokens + " tokens" : null, m.cost_usd ? "$" + num(m.cost_usd, 4) : null,
    ].filter(Boolean).join(" · "));
  }

  function trialBody(t) {
    return el("div", { class: "body" },
      t.error ? el("pre", { class: "status-failed error" }, t.error) : null,
      trialMeta(t),
      el("h3", {}, "Rubric parts"), t.parts.length ? partsTable(t) : el("p", { class: "muted" }, "Not graded."),
      el("h3", {}, "Prompts"), prompts(t.prompts),
      el("h3", {}, "Timeline"), timeline(t),
      el("h3", {}, "What the agent left behind"), outcome(t.outcome));
  }

  function ensureRendered(section) {
    if (rendered.has(section.id)) return;
    if (!DETAILS) { whenUnpacked(() => ensureRendered(section)); return; }
    rendered.set(section.id, true);
    section.appendChild(trialBody(trialAt(Number(section.dataset.index))));
    applySearch(section);
  }

  function trialLine(t, i) {
    const lost = t.failed || [];
    const section = el("details", { class: "trial", id: t.scenario + "/" + t.trial, "data-index": i, "data-status": t.status },
      el("summary", {}, "trial " + t.trial + " · ", statusBadge(t.status),
        t.total === null || t.total === undefined ? "" : " · " + num(t.total) + " / " + t.max,
        lost.length ? el("span", { class: "status-failed" }, " · parts failed: " + lost.join(", ")) : ""));
    section.addEventListener("toggle", () => { if (section.open) ensureRendered(section); });
    return section;
  }

  // --- a failing trial beside a passing one (evals/report/viewer/divergence.py) -----------------------
  const HOW = { tool: "a different tool", arguments: "the same tool with other arguments", result: "the same call, answered differently", end: "one of them stopped" };
  function compactEntry(t, pos) {
    if (pos === null) return el("span", { class: "muted" }, "—");
    const e = t.timeline[pos];
    const cell = el("details", { class: "call" + (e.ok ? "" : " fail") }, el("summary", {}, callSummary(e)));
    cell.addEventListener("toggle", () => { if (cell.open && !cell.dataset.built) { cell.dataset.built = "1"; cell.append(...callBody(e).filter(Boolean)); } });
    return cell;
  }
  function divergenceBody(task, d) {
    const f = trialAt(trialIndex(task, d.failing)), p = trialAt(trialIndex(task, d.passing));
    const flipped = d.flipped.length ? el("table", { class: "flipped" },
      el("tr", {}, ["part", "trial " + d.failing + " (failed)", "trial " + d.passing + " (passed)"].map((h) => el("th", {}, h))),
      d.flipped.map((x) => el("tr", {}, el("td", {}, x.id),
        el("td", {}, el("span", { class: "status-" + x.failing.status }, x.failing.status + " " + num(x.failing.score)), " — ", x.failing.reason),
        el("td", {}, el("span", { class: "status-" + x.passing.status }, x.passing.status + " " + num(x.passing.score)), " — ", x.passing.reason))))
      : el("p", { class: "muted" }, "No part's status differs between the two.");
    const rows = d.rows.map((r) => el("tr", { class: r.same ? "same" : "differs" },
      el("td", {}, compactEntry(f, r.fail)), el("td", {}, compactEntry(p, r.pass))));
    return el("div", { class: "divergence-body" },
      el("h4", {}, "Parts that flipped"), flipped,
      el("h4", {}, d.how ? "From call #" + d.same_before + " on, side by side" : "The same calls throughout"),
      el("table", { class: "side-by-side" },
        el("tr", {}, el("th", {}, anchor(task + "/" + d.failing, "trial " + d.failing + " (failed)")), el("th", {}, anchor(task + "/" + d.passing, "trial " + d.passing + " (passed)"))),
        rows));
  }
  function divergence(task) {
    const d = task.divergence;
    if (!d) return null;
    const where = d.how ? "they part at call #" + d.same_before + " (" + HOW[d.how] + "), after " + plural(d.same_before, "identical call") :
      "they made the same calls; only the grade differs";
    const node = el("details", { class: "divergence", id: task.name + "/divergence" },
      el("summary", {}, "Why trial " + d.failing + " failed where trial " + d.passing + " passed: " + where));
    node.addEventListener("toggle", () => {
      if (!node.open || node.dataset.built) return;
      node.dataset.built = "1";
      whenUnpacked(() => node.appendChild(divergenceBody(task.name, d)));
    });
    return node;
  }

  // Tiers as the report's "By tier" table has them (evals/report/viewer/tiers.py); pass@k at the run's k.
  function rates(x, k) { return "pass@1 " + pct(x.pass_at_1) + " · pass@" + k + " " + pct(x.pass_at_k) + " · pass^" + k + " " + pct(x.pass_pow_k); }
  function groups() {
    if (DATA.groups) return DATA.groups;
    const tasks = [];
    DATA.trials.forEach((t, i) => {
      let task = tasks.find((x) => x.name === t.scenario);
      if (!task) tasks.push(task = { name: t.scenario, trials: [] });
      task.trials.push(i);
    });
    return [{ tier: null, name: "", stats: null, tasks: tasks }];
  }
  function taskLine(task, tier) {
    if (task.k === undefined) return "";
    const parts = [tier ? "tier " + tier : null, task.max + " points", "passes at " + num(task.threshold) + " or more"];
    if (task.k === 0) parts.push(el("span", { class: "status-failed" }, "all " + plural(task.errored, "trial") + " errored: no score, no pass rate"));
    else parts.push(plural(task.k, "trial") + (task.errored ? " (" + task.errored + " more errored)" : ""), "mean " + num(task.mean) + " / " + task.max, rates(task, task.k));
    return parts.filter(Boolean).map((p, i) => [i ? " · " : " · ", p]);
  }
  // What the task tests (its about.yaml, evals/scenario/about.py): the behaviour in the summary line,
  // then why it matters, why this tier, each trap with the source that decides it, and its limits.
  function about(task) {
    const a = task.about;
    if (!a) return null;
    const traps = (a.traps || []).map((t) => el("li", {},
      el("b", {}, t.obvious_rule_loses ? "Trap where the obvious rule loses: " : "Trap: "), t.trap,
      el("div", { class: "muted" }, "Decided by: " + t.source_of_truth)));
    const limits = (a.limitations || []).map((x) => el("li", {}, x));
    return el("details", { class: "about", id: task.name + "/about" },
      el("summary", {}, "What this task tests: " + a.behaviour),
      el("p", {}, a.purpose),
      el("p", { class: "muted" }, a.tier_why),
      traps.length ? [el("h4", {}, "Traps and their sources of truth"), el("ul", {}, traps)] : null,
      limits.length ? [el("h4", {}, "What it cannot tell apart"), el("ul", {}, limits)] : null);
  }
  function taskList() {
    const k = DATA.summary ? DATA.summary.adaptive.trials : "k";
    const out = [];
    const all = groups();
    for (const g of all) {
      const tier = el("section", { class: "tier", id: g.tier ? "tier-" + g.tier : "tier-none", "data-tier": g.tier || "" });
      if (g.tier) {
        tier.appendChild(el("h2", {}, g.tier + (g.name ? " · " + g.name : "")));
        const s = g.stats;
        tier.appendChild(el("p", { class: "tier-stats muted" }, s.tasks.length + (s.tasks.length === 1 ? " task" : " tasks") + " (" + s.points + " points) · mean total " + num(s.mean) + " / " + s.points + " · " + rates(s, k)));
      } else if (all.length > 1) {
        tier.appendChild(el("h2", {}, "Other tasks"));
      }
      for (const task of g.tasks) {
        const section = el("section", { class: "task", id: task.name, "data-task": task.name },
          el("h3", {}, task.name, el("span", { class: "muted task-stats" }, taskLine(task, g.tier))), about(task), divergence(task));
        for (const i of task.trials) section.appendChild(trialLine(DATA.trials[i], i));
        tier.appendChild(section);
      }
      out.push(tier);
    }
    return out;
  }

  const haystacks = new Map();
  function trialMatches(i) {
    if (!query) return true;
    if (!haystacks.has(i)) haystacks.set(i, JSON.stringify(trialAt(i)).toLowerCase());
    return haystacks.get(i).includes(query);
  }
  function applySearch(section) {
    for (const entry of section.querySelectorAll(".entry")) entry.classList.toggle("hidden", !!query && !entry.dataset.text.includes(query));
  }
  function applyFilters() {
    for (const section of document.querySelectorAll("details.trial")) {
      const shown = trialMatches(Number(section.dataset.index)) && (!failuresOnly || FAILING.has(section.dataset.status));
      section.classList.toggle("hidden", !shown);
      if (rendered.has(section.id)) applySearch(section);
    }
    for (const group of document.querySelectorAll("section.task, section.tier")) {
      group.classList.toggle("hidden", (!!query || failuresOnly) && !group.querySelector("details.trial:not(.hidden)"));
    }
    document.body.classList.toggle("failures-only", failuresOnly);
    document.body.dataset.searched = query;
    document.body.dataset.filtered = failuresOnly ? "failures" : "";
  }
  function search(value) {
    query = value.trim().toLowerCase();
    if (query) whenUnpacked(applyFilters); else applyFilters();
  }

  function follow() {
    const id = decodeURIComponent(location.hash.slice(1));
    if (!id) return;
    const [scenario, trial] = id.split("/");
    const section = document.getElementById(scenario + "/" + trial);
    if (section && section.classList.contains("trial")) {
      if (section.classList.contains("hidden")) { failuresOnly = false; document.getElementById("failures-only").checked = false; applyFilters(); }
      section.open = true;
      ensureRendered(section);
    }
    const target = document.getElementById(id);
    if (!target) return;
    for (let n = target; n; n = n.parentElement) if (n.tagName === "DETAILS") n.open = true;
    for (const old of document.querySelectorAll(".target")) old.classList.remove("target");
    const mark = target.tagName === "SPAN" ? target.closest("tr") || target : target;
    mark.classList.add("target");
    mark.scrollIntoView({ block: "center" });
  }

  header();
  const main = document.getElementById("main");
  const criteria = criteriaTable();
  if (criteria) main.appendChild(criteria);
  main.appendChild(el("h2", {}, "Trials"));
  const input = el("input", { id: "search", type: "search", placeholder: "Search transcripts, tool calls, reasons… (filters the trials)" });
  input.addEventListener("input", () => search(input.value));
  const onlyFailures = el("input", { id: "failures-only", type: "checkbox" });
  onlyFailures.addEventListener("change", () => { failuresOnly = onlyFailures.checked; applyFilters(); });
  main.appendChild(el("div", { class: "controls" }, input,
    el("label", { for: "failures-only" }, onlyFailures, " Failures only: failed and errored trials, the parts that failed, the criteria that failed somewhere")));
  for (const tier of taskList()) main.appendChild(tier);
  document.body.dataset.painted = "1";
  performance.mark("viewer-painted");
  // The details are inflated once the first paint is out; the hash is followed once they are in.
  window.addEventListener("hashchange", () => whenUnpacked(follow));
  setTimeout(() => unpack().then(() => {
    follow();
    performance.mark("viewer-ready");
    document.body.dataset.ready = "1";
  }, failed), 0);
})();
