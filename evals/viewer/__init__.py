"""The run viewer: one self-contained viewer.html per run directory (`python -m evals view --run DIR`).

The report says what moved; the viewer shows why: per trial, the model's turns and tool calls with
arguments and results, every rubric part with its status, layer, reason, evidence and critique, and
what the agent left behind (PR diffs, Notion blocks, mail). One file, data inlined as JSON, plain
JS and CSS, no network: it opens from file:// and from a downloaded artifact alike. Stable anchors
(`#nightshift/3/C7`) let the report and the PR comment link into it.

Nothing an agent wrote is ever parsed as HTML: the JSON sits in a `<script type="application/json">`
with every `<` escaped, and the page builds its DOM with `textContent` only.
"""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

from evals.viewer.data import run_view

PAGE = "viewer.html"
_SLOT = "/*__RUN_DATA__*/"


def render_page(data: dict[str, object]) -> str:
    """The page with `data` inlined. `<`, `>` and `&` are \\u-escaped, so no string in the data can
    close the script element or open a comment, whatever an agent wrote."""
    payload = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    payload = payload.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    payload = payload.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")
    template = resources.files("evals.viewer").joinpath("page.html").read_text(encoding="utf-8")
    return template.replace(_SLOT, payload, 1)


def write_viewer(run_dir: Path) -> Path:
    """Write viewer.html into the run directory and return its path."""
    out = run_dir / PAGE
    out.write_text(render_page(run_view(run_dir)), encoding="utf-8")
    return out
