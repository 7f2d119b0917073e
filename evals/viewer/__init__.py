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
from typing import Any

from evals.viewer.data import run_view

PAGE = "viewer.html"
_SLOT = "/*__RUN_DATA__*/"


POOLED = 200  # values at least this long (as JSON) are stored once however many trials hold them
SUMMARY_KEYS = {"scenario", "trial", "status", "total", "max", "passed", "failed"}  # read at load


class Pool:
    """Long strings and large JSON values stored once, referenced as `{"$s": n}`.

    Trials of one scenario start from the same world, so the same inbox, pages, files and often
    whole tool results come back in every trial; stored once, a 100-trial page stays under 10 MB
    (bench/viewer.py). Entries may hold references to earlier entries; the page resolves them when
    a trial is opened."""

    def __init__(self) -> None:
        self.index: dict[str, int] = {}
        self.entries: list[Any] = []

    def _add(self, key: str, make: Any) -> dict[str, int]:
        if key not in self.index:
            entry = make()
            self.index[key] = len(self.entries)
            self.entries.append(entry)
        return {"$s": self.index[key]}

    def value(self, value: Any) -> Any:
        if isinstance(value, str):
            return self._add("s" + value, lambda: value) if len(value) >= POOLED else value
        if isinstance(value, dict | list):
            key = json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
            if len(key) < POOLED:
                return value
            if isinstance(value, list):
                return self._add("j" + key, lambda: [self.value(v) for v in value])
            return self._add("j" + key, lambda: {k: self.value(v) for k, v in value.items()})
        return value

    def trial(self, trial: dict[str, Any]) -> dict[str, Any]:
        return {k: v if k in SUMMARY_KEYS else self.value(v) for k, v in trial.items()}


def render_page(data: dict[str, Any]) -> str:
    """The page with `data` inlined, its trials' long strings and large values pooled. `<`, `>` and `&` are
    \\u-escaped, so no string in the data can close the script element or open a comment,
    whatever an agent wrote."""
    pool = Pool()
    data = {**data, "trials": [pool.trial(t) for t in data.get("trials", [])]}
    data["pool"] = pool.entries
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
