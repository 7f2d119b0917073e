"""How the run's data sits in viewer.html: a small plain part for the first paint, the rest packed.

A 100-trial run is about 20 MB of JSON, most of it tool results that differ between trials only by
ids; as plain JSON the page outgrows its 10 MB goal. So the page holds two data blocks:

- `run-data`, plain JSON: the verdict, criteria, tiers and each trial's one-line summary
  (`SUMMARY_KEYS`), enough to draw the page at once;
- `run-packed`, gzip then base64: each trial's details (timeline, parts, outcome) with long values
  stored once (`Pool`). The page inflates it with the browser's `DecompressionStream("gzip")`
  (Chromium, Firefox and Safari; no network, works from file://) right after the first paint.

Both are inert: the plain JSON has every `<`, `>` and `&` \\u-escaped, so no string in it can close
the script element or open a comment; base64 has no such character at all.
"""

from __future__ import annotations

import base64
import gzip
import json
from typing import Any

import orjson

POOLED = 200  # values at least this long (as JSON) are stored once however many trials hold them
COMPRESSION = 9  # gzip level: the page's size is a goal, and level 9 costs little over 6 on this data
SUMMARY_KEYS = ("scenario", "trial", "status", "total", "max", "passed", "failed")  # the first paint's


class Pool:
    """Long strings and large JSON values stored once, referenced as `{"$s": n}`.

    Trials of one scenario start from the same world, so the same mail, pages, files and often
    whole tool results come back in every trial; deflate's 32 KB window cannot see a repeat one
    trial (about 200 KB) back, the pool can. Entries may hold references to earlier entries; the
    page resolves them when a trial is opened."""

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
            key = orjson.dumps(value, option=orjson.OPT_SORT_KEYS).decode("utf-8")
            if len(key) < POOLED:
                return value
            if isinstance(value, list):
                return self._add("j" + key, lambda: [self.value(v) for v in value])
            return self._add("j" + key, lambda: {k: self.value(v) for k, v in value.items()})
        return value

    def details(self, trial: dict[str, Any]) -> dict[str, Any]:
        """A trial's details (everything but its summary line), long values pooled."""
        return {k: self.value(v) for k, v in trial.items() if k not in SUMMARY_KEYS}


def inert_json(value: Any) -> str:
    """JSON safe inside a `<script>` element whatever its strings hold."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    text = text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    return text.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")


def pack(data: dict[str, Any]) -> tuple[str, str]:
    """(plain, packed): the plain part as inert JSON, and the trials' details with the pool as
    base64 of gzip (mtime 0, so the same run gives the same page)."""
    trials = data.get("trials", [])
    pool = Pool()
    details = [pool.details(t) for t in trials]
    plain = {**data, "trials": [{k: t[k] for k in SUMMARY_KEYS if k in t} for t in trials]}
    raw = orjson.dumps({"trials": details, "pool": pool.entries})
    packed = base64.b64encode(gzip.compress(raw, compresslevel=COMPRESSION, mtime=0))
    return inert_json(plain), packed.decode("ascii")


def unpack(plain: str, packed: str) -> dict[str, Any]:
    """The data `pack` was given, back (its pooled values put back as the page does): for tests,
    benches and anyone reading a viewer.html without a browser."""
    data: dict[str, Any] = json.loads(plain)
    inner = json.loads(gzip.decompress(base64.b64decode(packed)))
    pool = inner["pool"]

    def thaw(value: Any) -> Any:
        if isinstance(value, list):
            return [thaw(v) for v in value]
        if isinstance(value, dict):
            if list(value) == ["$s"]:
                return thaw(pool[value["$s"]])
            return {k: thaw(v) for k, v in value.items()}
        return value

    data["trials"] = [{**t, **thaw(d)} for t, d in zip(data["trials"], inner["trials"], strict=True)]
    return data
