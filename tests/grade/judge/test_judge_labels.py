"""`python -m evals labels`: stubs for evidence nobody labelled, which a person completes and the
offline judge then uses on the next re-grade."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from evals.cli import main


def graded_parts(out: Path) -> dict[str, dict[str, object]]:
    grade = json.loads((out / "trials" / "trial-run" / "0" / "grade.json").read_text(encoding="utf-8"))
    return {p["id"]: p for p in grade["parts"]}


def test_an_unlabelled_reply_gets_a_stub_and_once_completed_decides_the_part(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    labels = project / "scenario" / "trial-run" / "labels.yaml"
    labels.write_text("labels: []\n", encoding="utf-8")
    out = project / "runs" / "unlabelled"
    (project / "baseline" / "baseline.json").unlink()  # compared with no baseline: about labels, not the gate
    assert main(["run", "--scenario", "trial-run", "--agent", "replay:regressed", "--out", str(out)]) == 0
    t1b = graded_parts(out)["T1b"]
    assert t1b["status"] == "unscored" and t1b["judge"]["status"] == "unavailable"  # type: ignore[index]
    capsys.readouterr()

    assert main(["labels", "--run", str(out)]) == 0
    printed = capsys.readouterr().out
    assert f"  - part: T1b\n    evidence_sha256: {t1b['evidence_sha256']}\n" in printed
    assert "part: T5" not in printed  # T5 failed its Notion check: the judge was never asked

    stub = printed[printed.index("  - part: T1b") :]
    completed = re.sub(r"score: 0 .*", "score: 0", stub).replace("YOUR NAME", "a.reviewer")
    labels.write_text("labels:\n" + completed.replace("why: ...", "why: reports 0.80"), encoding="utf-8")
    assert main(["grade", "--run", str(out)]) == 0
    t1b = graded_parts(out)["T1b"]
    assert (t1b["status"], t1b["score"]) == ("failed", 0)
    assert t1b["judge"]["source"] == "label"  # type: ignore[index]

    assert main(["labels", "--run", str(out)]) == 0
    assert "nothing to label" in capsys.readouterr().out
