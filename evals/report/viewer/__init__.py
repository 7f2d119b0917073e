"""The run viewer: one self-contained viewer.html per run directory (`python -m evals view --run DIR`).

The report says what moved; the viewer shows why: tasks grouped by tier with their pass rates; per
trial, the model's turns and tool calls with arguments and results, every rubric part with its
status, layer, reason, evidence and critique, and what the agent left behind (PR diffs, Notion blocks
against their seeded text, mail). One file, data inlined (`evals.report.viewer.pack`: a plain part for the
first paint, the trials' details gzip-packed), plain JS and CSS, no network: it opens from file://
and from a downloaded artifact alike. Stable anchors (`#nightshift/3/C7`) let the report and the PR
comment link into it. A reviewer labels the judged parts in it (label.js, inlined after page.js:
their score beside the judge's, exported as the lines of scenario/<task>/labels/*.jsonl).

    data        what the viewer shows, read from a run directory through the typed records
    criteria    the verdict, totals and criteria against the baseline
    tiers       the task list grouped by tier, with the report's "By tier" figures
    timeline    a transcript as a timeline: the model's turns and its tool calls
    divergence  why this trial failed where that one passed: the first place they differ
    labelling   the judged parts a reviewer labels (label.js) and the judge's agreement on each
    notion      the Notion pages a trial changed, each change against what was seeded
    results/    a tool call's arguments and result shown as what they are (a mail, a diff, a table)
    pack        how the data sits in viewer.html: a plain first part, the rest packed
    static      the viewer without JavaScript: the summary and the failing parts, as escaped HTML

Nothing an agent wrote is ever parsed as HTML: the data blocks are inert (escaped JSON, base64) and
the page builds its DOM with `textContent` only. The data is redacted of known secrets once more
before it is packed: a packed page cannot be searched for a leaked value byte by byte, as the run's
other files are.
"""

from __future__ import annotations

import re
from importlib import resources
from pathlib import Path
from typing import Any

from evals.core.redact import redact
from evals.gate.summary import Summary
from evals.records.model import TrialRecord
from evals.records.rundir import RunDir
from evals.report.viewer import static
from evals.report.viewer.data import run_view
from evals.report.viewer.pack import pack, unpack

_STATIC_SLOT = "<!--__STATIC__-->"
_PLAIN_SLOT = "/*__RUN_DATA__*/"
_PACKED_SLOT = "__RUN_PACKED__"
_SCRIPT_SLOT = "/*__SCRIPT__*/"
_BLOCK = r'<script type="{type}" id="{id}"[^>]*>(.*?)</script>'


def _asset(name: str) -> str:
    return resources.files("evals.report.viewer").joinpath(name).read_text(encoding="utf-8")


def render_page(data: dict[str, Any]) -> str:
    """The page with `data` inlined (see `evals.report.viewer.pack`) and drawn as static HTML for a
    browser without JavaScript (`evals.report.viewer.static`). The template is cut at its slots
    before anything is put in, so no text in the data can be taken for a slot."""
    data = redact(data)
    plain, packed = pack(data)
    fills = [
        (_STATIC_SLOT, static.render(data)),
        (_PLAIN_SLOT, plain),
        (_PACKED_SLOT, packed),
        (_SCRIPT_SLOT, _asset("page.js") + "\n" + _asset("label.js")),
    ]
    rest, out = _asset("page.html"), []
    for slot, content in fills:
        before, rest = rest.split(slot, 1)
        out += [before, content]
    return "".join([*out, rest])


def read_page(page: str) -> dict[str, Any]:
    """The data a viewer.html holds, as `render_page` was given it (redacted)."""
    (plain,) = re.findall(_BLOCK.format(type="application/json", id="run-data"), page, re.S)
    (packed,) = re.findall(_BLOCK.format(type="application/octet-stream", id="run-packed"), page, re.S)
    return unpack(plain, packed)


def write_viewer(
    run_dir: Path,
    summary: Summary | None = None,
    records: list[TrialRecord] | None = None,
    abouts: dict[str, dict[str, Any]] | None = None,
) -> Path:
    """Write viewer.html into the run directory (through `RunDir`, its one writer) and return its
    path. `summary` and `records`, when the caller has them in hand, are not read again; `abouts`
    (each scenario's about.yaml, `about_views`) is shown with its task."""
    return RunDir(run_dir).write_viewer(render_page(run_view(run_dir, summary, records, abouts)))
