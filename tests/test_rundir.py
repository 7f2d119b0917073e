"""Large run files are written compact (the C encoder); the small files people open stay indented."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from evals.rundir import RunDir

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
