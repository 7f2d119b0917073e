"""A run directory and the only code that writes into it.

Layout: run.json (what was asked), results.jsonl (one line per finished trial, appended at once),
trials/<scenario>/<n>/{world,outcome,transcript,grade}.json, summary.json, report.md. Every write
goes through here so every byte is redacted of known secrets.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

from evals.jsonio import (
    append_jsonl,
    cut_torn_tail,
    dumps_compact,
    dumps_pretty,
    read_jsonl,
    write_text_atomic,
)
from evals.redact import redact, redact_text

RESULTS = "results.jsonl"
# The large files (per trial 100-200 kB for Nightshift; summary.json holds every trial's parts, a
# megabyte at 100 trials, and indenting it was half of `compare`) are read by `grade --run`, the
# viewer, tests and tools, rarely by eye (report.md and viewer.html are for people): written
# compact, `jq .` indents them. run.json and grade.json stay indented.
COMPACT = frozenset({"world.json", "outcome.json", "transcript.json", "summary.json"})
_SCENARIO = re.compile(rb'"scenario":\s*"([^"\\]+)"')
_TRIAL = re.compile(rb'"trial":\s*(\d+)[,}]')  # a number cut short is no name


def torn_trial(fragment: bytes) -> str:
    """Which trial a torn line was, as far as the fragment tells (keys may be cut off)."""
    scenario, trial = _SCENARIO.search(fragment), _TRIAL.search(fragment)
    if scenario is None or trial is None:  # cut inside the first few bytes
        return "(cut before its name; the run's missing trial)"
    return f"{scenario.group(1).decode('utf-8', 'replace')}#{trial.group(1).decode()}"


class RunDir:
    def __init__(self, path: Path) -> None:
        self.path = path

    @property
    def results_path(self) -> Path:
        return self.path / RESULTS

    def trial_dir(self, scenario: str, trial: int) -> Path:
        return self.path / "trials" / scenario / str(trial)

    def write_json(self, rel: str | Path, obj: Any) -> Path:
        target = self.path / rel
        dumps = dumps_compact if target.name in COMPACT else dumps_pretty
        write_text_atomic(target, dumps(redact(obj)))
        return target

    def write_text(self, rel: str | Path, text: str) -> Path:
        target = self.path / rel
        write_text_atomic(target, redact_text(text))
        return target

    def repair_results(self) -> str | None:
        """Cut a torn last line of results.jsonl (the writer died mid-append) and say so on stderr.

        Returns the notice, or None when the file was whole. The torn trial has no record, so
        `run --resume` runs it again; appending after the fragment instead would glue two records
        into one line that parses as neither.
        """
        fragment = cut_torn_tail(self.results_path)
        if fragment is None:
            return None
        notice = (
            f"{self.results_path}: the last line was torn ({len(fragment)} bytes, a writer died "
            f"mid-append); cut back to the last whole record; trial {torn_trial(fragment)} has no record "
            f"and will be re-run by `evals run --resume {self.path}`"
        )
        print(f"notice: {notice}", file=sys.stderr)
        return notice

    def append_result(self, record: dict[str, Any]) -> None:
        self.repair_results()
        append_jsonl(self.results_path, redact(record), lead=("scenario", "trial"))

    def results(self) -> list[dict[str, Any]]:
        """Finished trials, one per (scenario, trial): a later line for the same trial wins."""
        latest: dict[tuple[str, int], dict[str, Any]] = {}
        for record in read_jsonl(self.results_path):
            latest[(record["scenario"], int(record["trial"]))] = record
        return [latest[key] for key in sorted(latest)]
