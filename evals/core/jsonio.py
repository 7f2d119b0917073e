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

import orjson


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
    """Sorted, compact, one line, for large files that programs read (`jq .` or any JSON viewer
    indents them when a person wants to look). orjson writes a 2 MB summary about five times faster
    than the standard library's C encoder, in the same bytes except the spelling of floats with an
    exponent (`1e-7`, not `1e-07`: the same number). A value orjson refuses (a dict key that is not
    a string, an integer beyond 64 bits) goes through the standard encoder, as before.

    Hashes use `canonical`, never this: a digest must not change with the encoder."""
    try:
        return orjson.dumps(obj, option=orjson.OPT_SORT_KEYS | orjson.OPT_APPEND_NEWLINE).decode("utf-8")
    except TypeError:  # orjson.JSONEncodeError is a TypeError
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


def jsonl_line(obj: Any, lead: tuple[str, ...] = ()) -> str:
    """One JSONL line (no newline): compact, keys in `lead` first and the rest sorted, so even a line
    torn a few bytes in still says which record it was (cut_torn_tail)."""
    line = canonical(obj)
    if lead and isinstance(obj, dict):
        first = {k: obj[k] for k in lead if k in obj}
        line = json.dumps(first | json.loads(line), separators=(",", ":"), ensure_ascii=False)
    return line


def append_jsonl(path: Path, obj: Any, lead: tuple[str, ...] = ()) -> None:
    """Append one line (`jsonl_line`) and flush it to disk before returning."""
    path.parent.mkdir(parents=True, exist_ok=True)
    line = jsonl_line(obj, lead)
    with path.open("a", encoding="utf-8") as handle:
        handle.write(line + "\n")
        handle.flush()
        os.fsync(handle.fileno())


def cut_torn_tail(path: Path) -> bytes | None:
    """Cut a torn last line (a writer killed mid-append) back to the last newline; return the cut
    bytes, or None when the file is whole. Appending after a fragment would glue the next record onto
    it and lose both, so every append and every resume calls this first."""
    if not path.is_file():
        return None
    with path.open("rb+") as handle:
        end = handle.seek(0, os.SEEK_END)
        if end == 0:
            return None
        handle.seek(end - 1)
        if handle.read(1) == b"\n":
            return None
        # Walk back in blocks to the last newline: records are a few kB, the file can be large.
        pos, block = end, 1 << 16
        while pos > 0:
            start = max(0, pos - block)
            handle.seek(start)
            chunk = handle.read(pos - start)
            at = chunk.rfind(b"\n")
            if at >= 0:
                pos = start + at + 1
                break
            pos = start
        handle.seek(pos)
        fragment = handle.read()
        handle.truncate(pos)
        handle.flush()
        os.fsync(handle.fileno())
    return fragment


def read_jsonl(path: Path) -> Iterator[dict[str, Any]]:
    """Yield each complete line; a torn last line (process killed mid-write) is skipped, not fatal."""
    for line in read_lines(path):
        try:
            yield json.loads(line)
        except json.JSONDecodeError:
            continue


def read_lines(path: Path) -> Iterator[str]:
    """Each non-blank line of a JSONL file, unparsed: for readers that parse and validate in one
    step (pydantic's `model_validate_json`, several times faster than `json.loads` then validate)
    and skip a torn line themselves. A missing file has no lines."""
    if not path.exists():
        return
    with path.open(encoding="utf-8") as handle:
        for line in handle:
            line = line.strip()
            if line:
                yield line


def read_numbered_lines(path: Path) -> Iterator[tuple[int, bytes, bool]]:
    """Each non-blank line of a file as (1-based line number, bytes without the newline, whether it
    ended in a newline), for readers that must name the line a problem is on and tell a torn last
    write (no newline) from a bad record. A missing file has no lines."""
    if not path.exists():
        return
    with path.open("rb") as handle:
        for number, line in enumerate(handle, start=1):
            if line.strip():
                yield number, line.rstrip(b"\r\n"), line.endswith(b"\n")
