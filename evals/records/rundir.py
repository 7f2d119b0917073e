"""A run directory, and the only code that reads or writes the files in it.

Layout: run.json (what was asked), results.jsonl (one line per finished trial, appended at once),
trials/<scenario>/<n>/{world,outcome,transcript,grade}.json, summary.json, report.md and
viewer.html. No other module spells these names: every write goes through here so every byte is
redacted of known secrets, and every read validates what it reads.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any, Literal, TypeVar

from pydantic import BaseModel, ValidationError

from evals.core.errors import BadInputError, RunDataError
from evals.core.jsonio import (
    append_jsonl,
    cut_torn_tail,
    dumps_compact,
    dumps_pretty,
    jsonl_line,
    read_numbered_lines,
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
TREND = "trend.md"  # the nightly trend (`evals trend --run`), added to report.md below the verdict
TRIALS = "trials"
TrialFile = Literal["world", "outcome", "transcript", "grade"]
# The large files (per trial 100-200 kB for Nightshift; summary.json holds every trial's parts, a
# megabyte at 100 trials, and indenting it was half of `compare`) are read by `grade --run`, the
# viewer, tests and tools, rarely by eye (report.md and viewer.html are for people): written
# compact, `jq .` indents them. run.json and grade.json stay indented.
COMPACT = frozenset({"world.json", "outcome.json", "transcript.json", SUMMARY})
_SCENARIO = re.compile(rb'"scenario":\s*"([^"\\]+)"')
_TRIAL = re.compile(rb'"trial":\s*(\d+)[,}]')  # a number cut short is no name
# Every results.jsonl line starts with these keys, so a line's trial is known without parsing it.
LEAD = ("scenario", "trial")
_LEAD = re.compile(r'^\{"scenario":("(?:[^"\\]|\\.)*"),"trial":(\d+)[,}]')


def _key_of(line: str) -> tuple[str, int] | None:
    """The (scenario, trial) a line this module wrote belongs to, read from its leading keys."""
    match = _LEAD.match(line)
    if match is None:
        return None
    return json.loads(match.group(1)), int(match.group(2))


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

    @property
    def trend_path(self) -> Path:
        return self.path / TREND

    def trial_dir(self, scenario: str, trial: int) -> Path:
        return self.path / TRIALS / scenario / str(trial)

    def trial_file(self, scenario: str, trial: int, kind: TrialFile) -> Path:
        return self.trial_dir(scenario, trial) / f"{kind}.json"

    def is_run(self) -> bool:
        return self.meta_path.is_file()

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

    def read_record_lines(self) -> list[tuple[int, TrialRecord]]:
        """Every record of results.jsonl with its line number, in file order. Any line that is not a
        trial record is an error naming the file and the line: a torn last line (a writer died
        mid-append; `evals run --resume` cuts it and runs that trial again), a line that is not JSON,
        a JSON line that is not a record. Nothing is skipped: a report over the lines that happened
        to parse would say 3 trials in its header and show 2."""
        out: list[tuple[int, TrialRecord]] = []
        for n, line, ended in read_numbered_lines(self.results_path):
            where = f"{self.results_path}:{n}"
            try:
                out.append((n, TrialRecord.model_validate_json(line)))
            except ValidationError as exc:
                if not ended and _torn(exc):
                    raise RunDataError(
                        f"{where}: the last line is torn ({len(line)} bytes; a writer died mid-append, "
                        f"trial {torn_trial(line)}); `evals run --resume {self.path}` cuts it and runs "
                        "that trial again"
                    ) from exc
                if _torn(exc):
                    raise RunDataError(f"{where}: not a JSON line ({len(line)} bytes)") from exc
                raise RunDataError(describe_validation_error(Path(where), exc)) from exc
        return out

    def read_records(self) -> list[TrialRecord]:
        """Finished trials, exactly one per (scenario, trial), in that order. A second line for a
        trial is an error naming both lines: a run writes each trial once, and a trial run again
        (a resumed error, a re-grade) replaces its line (`append_record`, `write_records`), so a
        duplicate is a line someone else appended, never a newer result to prefer."""
        first: dict[tuple[str, int], int] = {}
        records: dict[tuple[str, int], TrialRecord] = {}
        for n, record in self.read_record_lines():
            key = (record.scenario, record.trial)
            if key in first:
                raise RunDataError(
                    f"{self.results_path}:{n}: a second record for trial {record.scenario}#{record.trial} "
                    f"(the first is line {first[key]}); a run writes each trial once"
                )
            first[key] = n
            records[key] = record
        return [records[key] for key in sorted(records)]

    def append_record(self, record: TrialRecord) -> None:
        """Append a finished trial's line (crash-safe: flushed before returning, after cutting a torn
        last line). A trial that already has a line (an errored trial run again by a resume or by
        the adaptive step) has it replaced instead, atomically, so the file keeps one line per trial."""
        self.repair_results()
        key = (record.scenario, record.trial)
        lines = self._raw_lines()
        if key not in {_key_of(raw) for raw in lines}:
            append_jsonl(self.results_path, redact(record.model_dump(mode="json")), lead=LEAD)
            return
        kept = [raw for raw in lines if _key_of(raw) != key]
        write_text_atomic(self.results_path, "".join(f"{raw}\n" for raw in [*kept, self._line(record)]))

    def write_records(self, records: list[TrialRecord]) -> None:
        """Replace results.jsonl with `records` at once (a re-grade): one line per trial, atomically."""
        keys = [(r.scenario, r.trial) for r in records]
        if len(set(keys)) != len(keys):
            raise ValueError("write_records: a trial given twice")
        write_text_atomic(self.results_path, "".join(f"{self._line(r)}\n" for r in records))

    @staticmethod
    def _line(record: TrialRecord) -> str:
        return jsonl_line(redact(record.model_dump(mode="json")), lead=LEAD)

    def _raw_lines(self) -> list[str]:
        return [line.decode("utf-8", "replace") for _, line, _ in read_numbered_lines(self.results_path)]

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

    def read_trend(self) -> str | None:
        return self.trend_path.read_text(encoding="utf-8") if self.trend_path.is_file() else None

    def write_trend(self, text: str) -> Path:
        return self.write_text(TREND, text)

    def forget_outputs(self) -> None:
        """Remove summary.json, report.md, viewer.html and trend.md: written where the agent ran,
        never to be read back or published (the verdict writes its own; a PR's run has no trend)."""
        for path in (self.summary_path, self.report_path, self.viewer_path, self.trend_path):
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
