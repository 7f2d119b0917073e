"""`python -m evals calibrate`: the model judge measured against the human labels, through the stub server."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from evals.cli import main
from tests.support.stubs.anthropic_stub import SERVER_ERROR, Reply, StubAnthropic, text

# trial-run's labels: T1b on the reference reply (1) and on the regressed reply (0), T5 on the reference (1).


def verdict(score: int | str) -> Reply:
    return text(f"Critique.\n{json.dumps({'critique': f'judged {score}', 'score': score})}")


def part_of(body: dict[str, Any]) -> str:
    match = re.search(r"grading part (\w+)", body["messages"][0]["content"])
    assert match
    return match.group(1)


@contextmanager
def model(monkeypatch: pytest.MonkeyPatch, scores: dict[str, Reply]) -> Iterator[StubAnthropic]:
    with StubAnthropic(default=lambda body: scores[part_of(body)]) as stub:
        monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-test-calibrate")
        monkeypatch.setenv("ANTHROPIC_BASE_URL", stub.url)
        yield stub


def regressed_run(project: Path) -> Path:
    """A stored offline run of the regressed replay (its T1b evidence carries a label of 0)."""
    out = project / "runs" / "bad"
    (project / "baseline" / "baseline.json").unlink(missing_ok=True)  # no baseline: a pass with a notice
    assert main(["run", "--scenario", "trial-run", "--agent", "replay:regressed", "--out", str(out)]) == 0
    return out


def row(printed: str, first: str, second: str = "") -> list[str]:
    for line in printed.splitlines():
        cells = [c.strip() for c in line.strip("|").split("|")]
        if cells[:2] == [first, second]:
            return cells[2:]
    raise AssertionError(f"no row {first} {second} in:\n{printed}")


def test_calibrate_reports_agreement_per_part_and_overall_from_the_bundled_replays(
    project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # The model gives every T1b reply 1 point: right on the reference, wrong on the regressed reply.
    # Only those two bundled replays: the others add labels, not cases, and each costs confined test runs.
    for extra in (project / "scenario" / "trial-run" / "replays").glob("*.yaml"):
        if extra.stem not in {"reference", "regressed"}:
            extra.unlink()
    with model(monkeypatch, {"T1b": verdict(1), "T5": verdict(1)}) as stub:
        assert main(["calibrate", "--scenario", "trial-run"]) == 0
    assert sorted(part_of(b) for b in stub.requests) == ["T1b", "T1b", "T5"]
    printed = capsys.readouterr().out
    # labelled, judged, agree, unscored, agreement
    assert row(printed, "trial-run", "T1b") == ["2", "2", "1", "0", "50%"]
    assert row(printed, "trial-run", "T5") == ["1", "1", "1", "0", "100%"]
    assert row(printed, "**overall**") == ["3", "3", "2", "0", "67%"]
    disagreement = printed.split("Disagreements and unscored:")[1]
    assert "T1b" in disagreement and "replay:regressed" in disagreement and "label 0" in disagreement


def test_calibrate_twice_asks_the_model_once(
    project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    run = regressed_run(project)
    with model(monkeypatch, {"T1b": verdict(0)}) as stub:
        assert main(["calibrate", "--run", str(run)]) == 0
        assert main(["calibrate", "--run", str(run)]) == 0
    assert len(stub.requests) == 1
    printed = capsys.readouterr().out
    assert row(printed, "trial-run", "T1b") == ["1", "1", "1", "0", "100%"]
    assert "trial 0" not in printed  # no disagreement to list


def test_calibrate_exits_3_when_every_judge_call_fails(
    project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    run = regressed_run(project)
    with model(monkeypatch, {"T1b": SERVER_ERROR}):
        assert main(["calibrate", "--run", str(run)]) == 3
    captured = capsys.readouterr()
    assert row(captured.out, "trial-run", "T1b") == ["1", "0", "0", "1", "–"]
    assert "every judge call failed" in captured.err


def test_calibrate_without_a_key_is_a_usage_error(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["calibrate"]) == 2
    assert "needs ANTHROPIC_API_KEY" in capsys.readouterr().err


def test_calibrate_with_nothing_labelled_says_so(
    project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (project / "scenario" / "trial-run" / "labels.yaml").write_text("labels: []\n", encoding="utf-8")
    with model(monkeypatch, {}) as stub:
        assert main(["calibrate", "--scenario", "trial-run"]) == 2
    assert stub.requests == []
    assert "nothing to calibrate" in capsys.readouterr().err
