"""Where a record says it came from and when: the commit of the checkout and the UTC time.

One owner for both, so every record (run.json, the baseline, history.jsonl, operating.jsonl) spells
a time the same way and the gate can compare and sort them as text.
"""

from __future__ import annotations

import subprocess
from datetime import UTC, datetime
from pathlib import Path

TIME_FORMAT = "%Y-%m-%dT%H:%M:%SZ"
# A run directory's name starts with its UTC start time in this spelling (sorts by time, no colons).
DIR_TIME_FORMAT = "%Y%m%d-%H%M%S"


def git_commit(root: Path) -> str:
    """The checkout's HEAD, or "" when `root` is not a git checkout (or git is missing): a record
    made outside git says so by the empty field instead of failing the run."""
    try:
        out = subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=root, capture_output=True, text=True, check=False
        )
    except OSError:
        return ""
    return out.stdout.strip() if out.returncode == 0 else ""


def now() -> str:
    """The current UTC time as records spell it."""
    return datetime.now(UTC).strftime(TIME_FORMAT)


def dir_stamp() -> str:
    """The current UTC time as a run directory's name starts."""
    return datetime.now(UTC).strftime(DIR_TIME_FORMAT)
