"""baseline/operating.jsonl: the gate's own record, read fail-closed and counted over a window."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from evals.core.errors import BadInputError
from evals.gate.operating import AACheck, CanaryRun, append_operating, load_operating, tally
from evals.report.operating_line import operating_line


def aa(run: str, verdict: str = "pass") -> AACheck:
    return AACheck(
        run=run,
        started=f"2026-11-01T03:23:{len(run):02d}Z",
        recorded="2026-11-01T04:00:00Z",
        scenarios=["nightshift"],
        verdict=verdict,  # type: ignore[arg-type]
        halves={"nightshift": (3, 3)},
        fired=["total"] if verdict == "regression" else [],
    )


def canary(run: str, verdict: str = "regression", delta: float = -5.0) -> CanaryRun:
    return CanaryRun(
        run=run,
        started="2026-11-01T05:00:00Z",
        recorded="2026-11-01T05:10:00Z",
        scenarios=["trial-run"],
        verdict=verdict,  # type: ignore[arg-type]
        delta=delta,
        allowed_drop=1.5,
        trials={"trial-run": 3},
        agent="replay:regressed",
    )


def test_records_read_back_in_order_and_a_second_append_of_the_same_run_adds_nothing(tmp_path: Path) -> None:
    path = tmp_path / "operating.jsonl"
    assert load_operating(path) == []  # no file yet: no record, not an error
    assert append_operating(path, aa("nightly-1")) and append_operating(path, canary("canary-1"))
    assert not append_operating(path, aa("nightly-1"))  # a re-run fan-in job
    assert [r.run for r in load_operating(path)] == ["nightly-1", "canary-1"]
    assert json.loads(path.read_text(encoding="utf-8").splitlines()[0])["kind"] == "aa"


@pytest.mark.parametrize(
    ("line", "says"),
    [
        ('{"kind": "aa", "run": "n1"}', "started"),  # fields missing
        ('{"kind": "bb", "run": "n1", "started": "x"}', "kind"),  # neither record
        ("not json at all", "Invalid JSON"),
        (
            '{"kind": "canary", "run": "c", "started": "s", "recorded": "r", "scenarios": [], '
            '"verdict": "caught", "trials": {}, "agent": "a"}',
            "verdict",  # not a verdict the gate gives
        ),
    ],
)
def test_a_malformed_line_is_bad_input_naming_the_file_and_line(tmp_path: Path, line: str, says: str) -> None:
    path = tmp_path / "operating.jsonl"
    append_operating(path, aa("nightly-1"))
    with path.open("a", encoding="utf-8") as handle:
        handle.write(line + "\n")
    with pytest.raises(BadInputError) as raised:
        load_operating(path)
    assert f"{path}:2" in str(raised.value) and says in str(raised.value)
    with pytest.raises(BadInputError):  # nothing is appended to a file that does not read
        append_operating(path, aa("nightly-2"))


def test_a_check_recorded_twice_is_bad_input(tmp_path: Path) -> None:
    path = tmp_path / "operating.jsonl"
    append_operating(path, aa("nightly-1"))
    path.write_text(path.read_text(encoding="utf-8") * 2, encoding="utf-8")
    with pytest.raises(BadInputError, match="recorded twice"):
        load_operating(path)


def test_the_tally_counts_the_newest_window_and_leaves_undecided_checks_out() -> None:
    records = [aa("old", "regression")] + [aa(f"n{i}") for i in range(3)] + [aa("late", "regression")]
    records += [aa("short", "too-few-trials"), aa("moved", "not-comparable")]
    records += [canary("c1"), canary("c2", "pass", -1.0), canary("c3", "error")]
    t = tally(records, window=6)  # "old" has left the window
    assert (t.aa_checks, t.false_alarms, t.aa_not_counted) == (4, 1, 2)
    assert (t.canary_runs, t.canary_caught, t.canary_not_counted) == (2, 1, 1)
    assert t.canary_mean_drop == -3.0


def test_the_report_line_says_nothing_recorded_in_words_never_zero_of_zero() -> None:
    line = operating_line(tally([]))
    assert "no nightly A/A check or canary run recorded yet" in line and "0 of 0" not in line
    only_aa = operating_line(tally([aa("n1"), aa("n2")]))
    assert "**0 false alarms in 2 nightly A/A checks**" in only_aa and "no canary run recorded yet" in only_aa
    both = operating_line(tally([aa("n1", "regression"), canary("c1"), canary("c2", "inconclusive", -2.0)]))
    assert "**1 false alarm in 1 nightly A/A check**" in both
    assert "**caught the canary in 1 of 2**" in both and "mean Δ -3.50" in both
    undecided = operating_line(tally([aa("n1", "too-few-trials")]))
    assert "no nightly A/A check recorded yet" in undecided and "not counted: 1 A/A check" in undecided
    assert operating_line(None) == ""  # a summary written before the record existed: no claim at all
