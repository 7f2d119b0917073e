"""Large run files are written compact (the C encoder); the small files people open stay indented."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from evals.core.jsonio import canonical, dumps_compact
from evals.records.rundir import RunDir

VALUE = {"b": [1, {"c": "é"}], "a": None}


@pytest.mark.parametrize("name", ["world.json", "outcome.json", "transcript.json", "summary.json"])
def test_large_trial_files_are_one_line_of_sorted_json(tmp_path: Path, name: str) -> None:
    path = RunDir(tmp_path).write_json(Path("trials/s/0") / name, VALUE)
    text = path.read_text(encoding="utf-8")
    assert text == '{"a":null,"b":[1,{"c":"é"}]}\n' and json.loads(text) == VALUE


@pytest.mark.parametrize("name", ["run.json", "trials/s/0/grade.json"])
def test_files_people_read_stay_indented(tmp_path: Path, name: str) -> None:
    path = RunDir(tmp_path).write_json(name, VALUE)
    text = path.read_text(encoding="utf-8")
    assert text.startswith('{\n  "a": null,\n') and json.loads(text) == VALUE


def test_compact_files_are_the_standard_encoders_bytes() -> None:
    """orjson writes them (five times faster for a 2 MB summary) in the bytes `canonical` gives."""
    value = {
        "z": [0.1, 2.5, -0.0, 1.0, 100, True, False, None, "", 'tab\tquote"back\\slash'],
        "é": {"ключ": "値", "emoji": "🙂", "nested": [[], {}, [{"b": 1, "a": 2}]]},
        "big": 2**62,
        "ctrl": "\u0000\u001f\u007f",
    }
    assert dumps_compact(value) == canonical(value) + "\n"


def test_compact_files_keep_every_value_where_the_spelling_differs() -> None:
    """A float with an exponent is spelt `1e-7` (the standard encoder: `1e-07`), the same number;
    integers beyond 64 bits and non-string keys go through the standard encoder as before."""
    floats = {"p": 1e-7, "q": 3.2e16, "r": 1.5e300}
    assert json.loads(dumps_compact(floats)) == floats
    for value in ({"huge": 2**70}, {1: "one", 2: "two"}):
        assert dumps_compact(value) == canonical(value) + "\n"


def test_a_pr_run_forgets_every_output_the_agent_job_could_have_written(tmp_path: Path) -> None:
    """The PR verdict publishes only what it writes itself: a trend.md in the uploaded run would
    otherwise reach report.md (and the PR comment) through `with_trend`."""
    rd = RunDir(tmp_path)
    for path in (rd.summary_path, rd.report_path, rd.viewer_path, rd.trend_path):
        path.write_text("forged", encoding="utf-8")
    rd.forget_outputs()
    assert sorted(tmp_path.iterdir()) == []
