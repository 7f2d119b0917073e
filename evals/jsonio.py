"""Reading and writing the files every stage exchanges: canonical JSON, JSONL, atomic writes.

Stages talk through files so each can be rerun alone; writes are atomic so a crash or Ctrl-C never
leaves a half-written summary or baseline behind, and JSONL appends are flushed per line so finished
trials survive a dying process.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any


def canonical(obj: Any) -> str:
    """Sorted, compact JSON: the same value always gives the same bytes (for hashes and snapshots)."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def sha256_text(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def digest(obj: Any) -> str:
    """Content hash of a JSON-able value."""
    return sha256_text(canonical(obj))


def dumps_pretty(obj: Any) -> str:
    """Indented, for files people open (run.json, summary.json, grade.json, the baseline). Python's
    encoder has no C path for indented output, so large files are better written compact."""
    return json.dumps(obj, sort_keys=True, indent=2, ensure_ascii=False) + "\n"


def dumps_compact(obj: Any) -> str:
    """One line through the C encoder (several times faster than indented), for large files that
    programs read: `jq .` or any JSON viewer indents them when a person wants to look."""
    return canonical(obj) + "\n"


def write_text_atomic(path: Path, text: str) -> None:
    """Write through a temporary file in the same folder and rename it over the target."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_json(path: Path, obj: Any) -> None:
    write_text_atomic(path, dumps_pretty(obj))


def append_jsonl(path: Path, obj: Any) -> None:
    """Append one line and flush it to disk before returning."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a", encoding="utf-8") as handle:
        handle.write(canonical(obj) + "\n")
        handle.flush()
        os.fsync(handle.fileno())


def read_jsonl(path: Path) -> Iterator[dict[str, Any]]:
    """Yield each complete line; a torn last line (process killed mid-write) is skipped, not fatal."""
    if not path.exists():
        return
    with path.open(encoding="utf-8") as handle:
        for line in handle:
            line = line.strip()
            if not line:
                continue
            try:
                yield json.loads(line)
            except json.JSONDecodeError:
                continue
