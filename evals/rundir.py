"""A run directory and the only code that writes into it.

Layout: run.json (what was asked), results.jsonl (one line per finished trial, appended at once),
trials/<scenario>/<n>/{world,outcome,transcript,grade}.json, summary.json, report.md. Every write
goes through here so every byte is redacted of known secrets.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from evals.jsonio import append_jsonl, dumps_compact, dumps_pretty, read_jsonl, write_text_atomic
from evals.redact import redact, redact_text

RESULTS = "results.jsonl"
# The large per-trial files (each 100-200 kB for Nightshift) are read by `grade --run`, tests and
# tools, rarely by eye: written compact. run.json, summary.json and grade.json stay indented.
COMPACT = frozenset({"world.json", "outcome.json", "transcript.json"})


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

    def append_result(self, record: dict[str, Any]) -> None:
        append_jsonl(self.results_path, redact(record))

    def results(self) -> list[dict[str, Any]]:
        """Finished trials, one per (scenario, trial): a later line for the same trial wins."""
        latest: dict[tuple[str, int], dict[str, Any]] = {}
        for record in read_jsonl(self.results_path):
            latest[(record["scenario"], int(record["trial"]))] = record
        return [latest[key] for key in sorted(latest)]
