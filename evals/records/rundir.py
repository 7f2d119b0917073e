"""A run directory, and the only code that reads or writes the files in it.

Layout: run.json (what was asked), results.jsonl (one line per finished trial, appended at once),
trials/<scenario>/<n>/{world,outcome,transcript,grade}.json, summary.json, report.md and
viewer.html. No other module spells these names: every write goes through here so every byte is
redacted of known secrets, and every read validates what it reads.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any, Literal, TypeVar

from pydantic import BaseModel, ValidationError

from evals.core.errors import BadInputError
from evals.core.jsonio import (
    append_jsonl,
    cut_torn_tail,
    dumps_compact,
    dumps_pretty,
    read_lines,
    write_text_atomic,
)
from evals.core.loading import describe_validation_error, read_json_object
from evals.core.redact import redact, redact_text
from evals.records.model import RunMeta, TrialRecord

M = TypeVar("M", bound=BaseModel)

RUN = "run.json"
RESULTS = "results.jsonl"
SUMMARY = "summary.json"
REPORT = "report.md"
VIEWER = "viewer.html"
TRIALS = "trials"
TrialFile = Literal["world", "outcome", "transcript", "grade"]
# The large files (per trial 100-200 kB for Nightshift; summary.json holds every trial's parts, a
# megabyte at 100 trials, and indenting it was half of `compare`) are read by `grade --run`, the
# viewer, tests and tools, rarely by eye (report.md and viewer.html are for people): written
# compact, `jq .` indents them. run.json and grade.json stay indented.
COMPACT = frozenset({"world.json", "outcome.json", "transcript.json", SUMMARY})
_SCENARIO = re.compile(rb'"scenario":\s*"([^"\\]+)"')
_TRIAL = re.compile(rb'"trial":\s*(\d+)[,}]')  # a number cut short is no name


def torn_trial(fragment: bytes) -> str:
    """Which trial a torn line was, as far as the fragment tells (keys may be cut off)."""
    scenario, trial = _SCENARIO.search(fragment), _TRIAL.search(fragment)
    if scenario is None or trial is None:  # cut inside the first few bytes
        return "(cut before its name; the run's missing trial)"
    return f"{scenario.group(1).decode('utf-8', 'replace')}#{trial.group(1).decode()}"


def _torn(exc: ValidationError) -> bool:
    """The line is not JSON at all: a write the process died in the middle of (jsonio.read_jsonl)."""
    return all(error["type"] == "json_invalid" for error in exc.errors())


class RunDir:
    def __init__(self, path: Path) -> None:
        self.path = path

    # --- where things are -------------------------------------------------------------------

    @property
    def meta_path(self) -> Path:
        return self.path / RUN

    @property
    def results_path(self) -> Path:
        return self.path / RESULTS

    @property
    def summary_path(self) -> Path:
        return self.path / SUMMARY

    @property
    def report_path(self) -> Path:
        return self.path / REPORT

    @property
    def viewer_path(self) -> Path:
        return self.path / VIEWER

    def trial_dir(self, scenario: str, trial: int) -> Path:
        return self.path / TRIALS / scenario / str(trial)

    def trial_file(self, scenario: str, trial: int, kind: TrialFile) -> Path:
        return self.trial_dir(scenario, trial) / f"{kind}.json"

    def is_run(self) -> bool:
        return self.meta_path.is_file()

    def has_results(self) -> bool:
        return self.results_path.exists()

    # --- run.json -----------------------------------------------------------------------------

    def read_meta(self) -> RunMeta:
        """run.json; a folder without one is not a run (say where runs usually are)."""
        data = read_json_object(
            self.meta_path, "not a run directory (no run.json); runs are written under runs/ by `evals run`"
        )
        try:
            return RunMeta.model_validate(data)
        except ValidationError as exc:
            raise BadInputError(describe_validation_error(self.meta_path, exc)) from exc

    def write_meta(self, meta: RunMeta) -> Path:
        return self.write_json(RUN, meta.dump())

    # --- results.jsonl ------------------------------------------------------------------------

    def read_records(self) -> list[TrialRecord]:
        """Finished trials, one per (scenario, trial), in that order: a later line for a trial wins
        (a resumed or re-graded trial is appended again rather than rewritten in place). A line that
        is not JSON (a torn last write) is skipped, as `read_jsonl` does; a JSON line that is not a
        trial record is bad input, named by its line."""
        latest: dict[tuple[str, int], TrialRecord] = {}
        for n, line in enumerate(read_lines(self.results_path), start=1):
            try:
                record = TrialRecord.model_validate_json(line)
            except ValidationError as exc:
                if _torn(exc):
                    continue
                where = Path(f"{self.results_path}: line {n}")
                raise BadInputError(describe_validation_error(where, exc)) from exc
            latest[(record.scenario, record.trial)] = record
        return [latest[key] for key in sorted(latest)]

    def append_record(self, record: TrialRecord) -> None:
        self.repair_results()
        append_jsonl(self.results_path, redact(record.model_dump(mode="json")), lead=("scenario", "trial"))

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

    # --- per-trial files ------------------------------------------------------------------------

    def write_trial(self, scenario: str, trial: int, kind: TrialFile, obj: Any) -> Path:
        return self.write_json(self.trial_file(scenario, trial, kind).relative_to(self.path), obj)

    def read_trial(self, scenario: str, trial: int, kind: TrialFile, model: type[M]) -> M | None:
        """A trial's file as `model`, or None when the trial has none (an errored trial has only its
        transcript); a file that does not validate is bad input, named."""
        path = self.trial_file(scenario, trial, kind)
        if not path.is_file():
            return None
        try:
            return model.model_validate_json(path.read_bytes())
        except ValidationError as exc:
            raise BadInputError(describe_validation_error(path, exc)) from exc

    # --- summary, report, viewer ------------------------------------------------------------------

    def read_summary_json(self) -> bytes | None:
        """summary.json's bytes (its model, `Summary`, is the gate's: evals/gate/summary.py)."""
        return self.summary_path.read_bytes() if self.summary_path.is_file() else None

    def write_summary(self, summary: BaseModel) -> Path:
        return self.write_json(SUMMARY, summary.model_dump(mode="json"))

    def read_report(self) -> str | None:
        return self.report_path.read_text(encoding="utf-8") if self.report_path.is_file() else None

    def write_report(self, text: str) -> Path:
        return self.write_text(REPORT, text)

    def write_viewer(self, html: str) -> Path:
        return self.write_text(VIEWER, html)

    def forget_outputs(self) -> None:
        """Remove summary.json, report.md and viewer.html: written where the agent ran, never to be
        read back or published (the verdict writes its own)."""
        for path in (self.summary_path, self.report_path, self.viewer_path):
            path.unlink(missing_ok=True)

    # --- the one writer ---------------------------------------------------------------------------

    def write_json(self, rel: str | Path, obj: Any) -> Path:
        target = self.path / rel
        dumps = dumps_compact if target.name in COMPACT else dumps_pretty
        write_text_atomic(target, dumps(redact(obj)))
        return target

    def write_text(self, rel: str | Path, text: str) -> Path:
        target = self.path / rel
        write_text_atomic(target, redact_text(text))
        return target
