// Labelling the judge from the offline page (evals/report/viewer/labelling.py has the data it needs).
// Every judged part gets a box beside its evidence and the judge's critique: the judge's score, the
// judge's measured agreement with people on that part, and the reviewer's own score and one-line
// reason. Keyboard first: n / p the next / previous judged part across trials, 0-9 a score, r the
// reason (Enter keeps it). Labels are exported per task as the JSON lines evals/grade/labelled.py
// reads (scenario/<task>/labels/*.jsonl), and an exported file is imported to go on with it. page.js
// calls box() when it draws a judged part and hands its data over as window.ViewerPage; nothing
// from the data is ever parsed as HTML here either.
(function () {
  "use strict";
  const page = window.ViewerPage;
  if (!page || !page.data.labelling) return;
  const DATA = page.data;
  const JUDGED = DATA.labelling.judged || [];
  const AGREEMENT = DATA.labelling.agreement;
  const FIELDS = ["part", "evidence_sha256", "score", "by", "why", "date", "run"];  // LabelLine's, in order
  const SHA = /^[0-9a-f]{64}$/;
  const store = new Map();  // task -> label lines, in the order they were given (imported first)
  const imported = new Map();  // task -> the file name it was imported from (exported under it again)
  const boxes = new Map();  // "task/trial/part" -> {box, trial, part}
  let current = -1;  // index into JUDGED of the part the keys act on
  let unsaved = 0;

  function el(tag, attrs, ...children) {  // text only, as page.js's el()
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k === "class") node.className = v; else node.setAttribute(k, v === true ? "" : String(v));
    }
    for (const child of children.flat(Infinity)) {
      if (child === null || child === undefined || child === false) continue;
      node.appendChild(typeof child === "object" ? child : document.createTextNode(String(child)));
    }
    return node;
  }
  const pct = (v) => (v === null || v === undefined ? "–" : Math.round(v * 100) + "%");
  const idOf = (i) => { const [t, part] = JUDGED[i]; return DATA.trials[t].scenario + "/" + DATA.trials[t].trial + "/" + part; };
  const oneLine = (s) => String(s || "").replace(/\s+/g, " ").trim();
  const today = () => new Date().toISOString().slice(0, 10);

  // --- the judge's measured agreement (baseline/judge.jsonl's newest line, as the report has it) ----
  function agreementText(task, part) {
    if (!AGREEMENT) return "judge agreement never measured (evals judge agreement --record)";
    const a = AGREEMENT.criteria[task + "/" + part];
    const when = " · measured " + AGREEMENT.recorded.slice(0, 10) + " (" + AGREEMENT.model + ")";
    if (!a) return "judge agreement on " + part + ": not measured (no labelled part here)" + when;
    const ac1 = a.ac1 === null ? "" : ", AC1 " + a.ac1.toFixed(2) + (a.ac1_ci ? " (" + a.ac1_ci[0].toFixed(2) + "–" + a.ac1_ci[1].toFixed(2) + ")" : "");
    return "judge agrees with people on " + part + ": " + pct(a.raw) + " of " + a.labels + " labels" + ac1 + ": " + a.words + when;
  }
  function annotateCriteria() {  // beside each judged criterion of the criteria table
    if (!AGREEMENT) return;
    const parts = new Map();  // "task/criterion" -> its judged parts
    for (const [t, part, criterion] of JUDGED) {
      const key = DATA.trials[t].scenario + "/" + criterion;
      if (!parts.has(key)) parts.set(key, new Set());
      parts.get(key).add(DATA.trials[t].scenario + "/" + part);
    }
    for (const [key, set] of parts) {
      const bare = (DATA.meta && DATA.meta.scenarios || []).length === 1;  // one task: criteria keyed bare
      const row = document.getElementById("criterion-" + key) || (bare ? document.getElementById("criterion-" + key.split("/").pop()) : null);
      if (!row || !row.children[1]) continue;
      const figures = [...set].filter((k) => AGREEMENT.criteria[k]).map((k) => {
        const a = AGREEMENT.criteria[k];
        return k.split("/").pop() + " " + pct(a.raw) + " of " + a.labels;
      });
      row.children[1].appendChild(el("div", { class: "label agreement", "data-agreement": key },
        "⚖ judge vs people: " + (figures.length ? figures.join(", ") : "not measured")));
    }
  }

  // --- labels ------------------------------------------------------------------------------------------
  function linesOf(task) { if (!store.has(task)) store.set(task, []); return store.get(task); }
  function put(task, line) {  // one line per (part, evidence, reviewer): a new score replaces theirs
    const lines = linesOf(task);
    const at = lines.findIndex((l) => l.part === line.part && l.evidence_sha256 === line.evidence_sha256 && l.by === line.by);
    if (at >= 0) lines[at] = line; else lines.push(line);
  }
  function labelsFor(task, part, sha) { return linesOf(task).filter((l) => l.part === part && l.evidence_sha256 === sha); }
  function reviewer() { return oneLine(document.getElementById("label-reviewer").value); }

  function refresh(key) {
    const held = boxes.get(key);
    if (!held) return;
    const { box, trial, part } = held;
    const mine = labelsFor(trial.scenario, part.id, part.evidence_sha256);
    const shown = box.querySelector(".people");
    shown.textContent = mine.length ? "people: " + mine.map((l) => l.score + " by " + l.by + (l.why ? " (" + l.why + ")" : "")).join(" · ") : "people: not labelled yet";
    box.dataset.labelled = mine.length ? "1" : "";
    for (const b of box.querySelectorAll("button.score")) {
      b.classList.toggle("chosen", mine.some((l) => l.by === reviewer() && String(l.score) === b.dataset.score));
    }
  }
  function refreshAll() { for (const key of boxes.keys()) refresh(key); panelCounts(); }

  function score(key, value) {
    const held = boxes.get(key);
    if (!held) return;
    const { box, trial, part } = held;
    if (value > part.max_points) return say("the most " + part.id + " can score is " + part.max_points);
    const by = reviewer();
    if (!by) { document.getElementById("label-reviewer").focus(); return say("your name first: it goes on every label as its reviewer"); }
    put(trial.scenario, { part: part.id, evidence_sha256: part.evidence_sha256, score: value, by: by,
      why: oneLine(box.querySelector("input.why").value), date: today(), run: DATA.run });
    unsaved++;
    refresh(key);
    panelCounts();
    say("labelled " + key + ": " + value);
  }
  function keepWhy(key) {  // the reason, kept on the reviewer's label of this part if there is one
    const { box, trial, part } = boxes.get(key);
    const line = labelsFor(trial.scenario, part.id, part.evidence_sha256).find((l) => l.by === reviewer());
    if (line) { line.why = oneLine(box.querySelector("input.why").value); unsaved++; refresh(key); }
  }

  // page.js: the box drawn beside a judged part's evidence and critique.
  function box(trial, part) {
    if (!part.judge || !SHA.test(part.evidence_sha256 || "")) return null;
    const key = trial.scenario + "/" + trial.trial + "/" + part.id;
    const j = part.judge;
    const scores = [];
    for (let s = 0; s <= Math.min(part.max_points, 9); s++) {
      const b = el("button", { type: "button", class: "score", "data-score": s, title: "key " + s }, String(s));
      b.addEventListener("click", () => { select(key); score(key, s); });
      scores.push(b);
    }
    const why = el("input", { type: "text", class: "why", placeholder: "one line: what decided your score (r, Enter keeps it)", maxlength: 300 });
    why.addEventListener("keydown", (e) => {
      if (e.key === "Enter" || e.key === "Escape") { e.preventDefault(); keepWhy(key); why.blur(); }
    });
    why.addEventListener("focus", () => select(key));
    const node = el("div", { class: "label-box", "data-key": key },
      el("div", { class: "judge-score" }, "judge's score: ", el("b", {}, j.score === null || j.score === undefined ? "none (" + j.status + ")" : j.score + " / " + part.max_points)),
      el("div", { class: "label agreement" }, agreementText(trial.scenario, part.id)),
      el("div", { class: "your-label" }, "your score: ", scores, " ", why),
      el("div", { class: "label people" }),
      el("div", { class: "label evidence-hash" }, "evidence " + part.evidence_sha256.slice(0, 12)));
    boxes.set(key, { box: node, trial, part });
    refresh(key);
    const i = JUDGED.findIndex((_, n) => idOf(n) === key);
    if (i === current) node.classList.add("label-current");
    return node;
  }

  function select(key) {
    const i = JUDGED.findIndex((_, n) => idOf(n) === key);
    if (i < 0) return;
    current = i;
    for (const old of document.querySelectorAll(".label-box.label-current")) old.classList.remove("label-current");
    const held = boxes.get(key);
    if (held) held.box.classList.add("label-current");
    document.body.dataset.labelling = key;
  }
  function go(step) {
    if (!JUDGED.length) return;
    const next = current < 0 ? (step > 0 ? 0 : JUDGED.length - 1) : (current + step + JUDGED.length) % JUDGED.length;
    const key = idOf(next);
    current = next;
    document.body.dataset.labelling = key;
    location.hash = "#" + key;  // page.js opens the trial, draws it and scrolls to the part
    // the box exists once the trial is drawn (at once if it was): mark it then
    const mark = () => { if (boxes.has(key)) select(key); else requestAnimationFrame(mark); };
    mark();
  }

  document.addEventListener("keydown", (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const tag = (e.target && e.target.tagName) || "";
    if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") {  // typing; Escape hands the keys back
      if (e.key === "Escape" && e.target.closest("#labelling, .label-box")) e.target.blur();
      return;
    }
    if (e.key === "n" || e.key === "j") { e.preventDefault(); go(1); }
    else if (e.key === "p" || e.key === "k") { e.preventDefault(); go(-1); }
    else if (/^[0-9]$/.test(e.key) && current >= 0) { e.preventDefault(); score(idOf(current), Number(e.key)); }
    else if (e.key === "r" && current >= 0 && boxes.has(idOf(current))) { e.preventDefault(); boxes.get(idOf(current)).box.querySelector("input.why").focus(); }
  });

  // --- import and export -----------------------------------------------------------------------------
  function parse(text, name) {  // the lines of a labels file, checked as labelled.py checks them
    const out = [];
    text.split(/\r?\n/).forEach((raw, n) => {
      if (!raw.trim()) return;
      let l;
      try { l = JSON.parse(raw); } catch (err) { throw new Error(name + ":" + (n + 1) + ": not JSON"); }
      const ok = l && typeof l === "object" && typeof l.part === "string" && l.part && SHA.test(l.evidence_sha256 || "") &&
        Number.isInteger(l.score) && l.score >= 0 && typeof l.by === "string" && l.by &&
        /^\d{4}-\d{2}-\d{2}/.test(l.date || "") && typeof l.run === "string" && l.run;
      if (!ok) throw new Error(name + ":" + (n + 1) + ": not a label line (part, evidence_sha256, score, by, why, date, run)");
      const line = {};
      for (const f of FIELDS) line[f] = f === "why" ? String(l.why || "") : l[f];
      out.push(line);
    });
    return out;
  }
  function importInto(task, file) {
    file.text().then((text) => {
      const lines = parse(text, file.name);
      for (const line of lines) put(task, line);
      imported.set(task, file.name);
      refreshAll();
      say("imported " + lines.length + " label(s) into " + task + " from " + file.name);
    }).catch((err) => say("import failed: " + err.message));
  }
  const fileName = (task) => imported.get(task) || (DATA.run + "-" + (reviewer() || "labels")).replace(/[^A-Za-z0-9._-]+/g, "-") + ".jsonl";
  function exportOf(task) {
    const text = linesOf(task).map((l) => JSON.stringify(Object.fromEntries(FIELDS.map((f) => [f, l[f]])))).join("\n") + "\n";
    const a = el("a", { href: URL.createObjectURL(new Blob([text], { type: "application/x-ndjson" })), download: fileName(task) });
    document.body.appendChild(a);
    a.click();
    a.remove();
    unsaved = 0;
    say("exported " + linesOf(task).length + " label(s): commit it as scenario/" + task + "/labels/" + fileName(task));
  }

  function say(text) { const s = document.getElementById("label-said"); if (s) s.textContent = text; }
  function panelCounts() {
    for (const row of document.querySelectorAll("#labelling tr.label-task")) {
      const task = row.dataset.task;
      const judged = JUDGED.filter(([t]) => DATA.trials[t].scenario === task).length;
      row.querySelector(".count").textContent = linesOf(task).length + " label(s) · " + judged + " judged part(s) in this run";
    }
  }
  function panel() {
    const tasks = [...new Set(JUDGED.map(([t]) => DATA.trials[t].scenario))];
    const name = el("input", { id: "label-reviewer", type: "text", placeholder: "your name (the reviewer on each label)", maxlength: 80 });
    name.addEventListener("input", refreshAll);
    const rows = tasks.map((task) => {
      const pick = el("input", { type: "file", accept: ".jsonl,application/x-ndjson,application/json", class: "label-import", "data-task": task });
      pick.addEventListener("change", () => { if (pick.files[0]) importInto(task, pick.files[0]); pick.value = ""; });
      const out = el("button", { type: "button", class: "label-export", "data-task": task }, "Export " + task + " labels");
      out.addEventListener("click", () => exportOf(task));
      return el("tr", { class: "label-task", "data-task": task }, el("td", {}, task), el("td", { class: "count" }),
        el("td", {}, el("label", {}, "continue a file: ", pick)), el("td", {}, out));
    });
    const node = el("details", { id: "labelling" },
      el("summary", {}, "Label the judge: " + JUDGED.length + " judged part(s) · keys n / p next / previous part, 0–9 your score, r your reason"),
      el("p", { class: "muted" }, "Your score and reason on each judged part, beside the judge's. Export writes the lines evals/grade/labelled.py reads: commit the file under scenario/<task>/labels/, then `evals judge agreement` measures the judge on them (docs/judge.md)."),
      el("p", {}, el("label", { for: "label-reviewer" }, "Reviewer: "), name),
      el("table", {}, rows), el("p", { id: "label-said", class: "label", role: "status" }));
    const main = document.getElementById("main");
    const controls = main && main.querySelector(".controls");
    if (controls) controls.after(node); else if (main) main.appendChild(node);
    panelCounts();
  }

  const style = document.createElement("style");
  style.textContent = [
    ".label-box { border-top: 1px dashed var(--line, #d0d7de); margin-top: 4px; padding-top: 4px; }",
    ".label-box.label-current { outline: 2px solid #8250df; outline-offset: 2px; }",
    ".label-box button.score { min-width: 2em; margin-right: 2px; } .label-box button.score.chosen { background: #8250df; color: #fff; }",
    ".label-box input.why { width: 60%; } #labelling { border: 1px solid var(--line, #d0d7de); border-radius: 6px; margin: 6px 0; padding: 4px 8px; }",
    "#labelling > summary { cursor: pointer; font-weight: 600; } #labelling table { width: auto; }",
  ].join("\n");
  document.head.appendChild(style);

  window.ViewerLabels = { box };
  if (JUDGED.length) panel();
  annotateCriteria();
  window.addEventListener("beforeunload", (e) => { if (unsaved) { e.preventDefault(); e.returnValue = ""; } });
})();
