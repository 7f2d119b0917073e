"""The labelled set's window: which labels a measurement counts (evals/grade/labelled.py, `windowed`).

Dates are passed in or read from the labels, never the clock: the same files give the same window on
any day the test runs.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from evals.core.errors import BadInputError
from evals.grade.labelled import (
    MAX_FILE_BYTES,
    MAX_LINE_BYTES,
    UNDATED,
    Labelled,
    LabelLine,
    latest,
    read_label_lines,
    windowed,
)

SHA = "ab" * 32


def label(part: str, day: str, score: int = 1, sha: str = SHA) -> Labelled:
    line = LabelLine(part=part, evidence_sha256=sha, score=score, by="ana", date=day, run="nightly-1")
    return Labelled(line, "labels/a.jsonl")


def sets(*items: Labelled) -> dict[str, dict[tuple[str, str], Labelled]]:
    return {"task": latest(list(items))}


def parts(kept: dict[str, dict[tuple[str, str], Labelled]]) -> list[str]:
    return sorted(part for known in kept.values() for part, _ in known)


def test_the_newest_90_days_end_on_the_newest_label_and_undated_labels_always_count() -> None:
    kept, window = windowed(
        sets(
            label("new", "2026-12-01"),
            label("edge", "2026-09-03"),  # the 90th day back, counting 2026-12-01 as the first
            label("old", "2026-09-02"),
            label("bundled", UNDATED),
        )
    )
    assert parts(kept) == ["bundled", "edge", "new"]
    assert (window.start, window.end, window.dated, window.undated, window.older) == (
        "2026-09-03",
        "2026-12-01",
        2,
        1,
        1,
    )
    assert window.words() == (
        "the newest 90 days (2026-09-03 – 2026-12-01: 2 dated label(s) and 1 undated; 1 older not counted)"
    )


def test_a_day_passed_in_ends_the_window_and_later_labels_are_not_counted() -> None:
    kept, window = windowed(
        sets(label("new", "2026-12-01"), label("march", "2026-03-01")), days=30, end=date(2026, 3, 15)
    )
    assert parts(kept) == ["march"] and (window.newer, window.older) == (1, 0)
    assert window.words().endswith("1 newer not counted)")


def test_all_labels_keeps_every_label_and_says_so() -> None:
    every = sets(label("new", "2026-12-01"), label("old", "2020-01-01"), label("bundled", UNDATED))
    kept, window = windowed(every, days=None)
    assert parts(kept) == ["bundled", "new", "old"]
    assert window.words() == "all labels (2 dated label(s) and 1 undated)"


def test_a_part_relabelled_counts_by_its_newest_label() -> None:
    """The old label is in the window, but the part's current label (newer, outside a window ending
    earlier) decides: a part is measured on one score, its newest."""
    relabelled = sets(label("p", "2026-11-30", score=0), label("p", "2026-06-01", score=1))
    kept, _ = windowed(relabelled, days=90, end=date(2026, 6, 30))
    assert parts(kept) == []
    kept, _ = windowed(relabelled)
    assert [item.line.score for item in kept["task"].values()] == [0]


def test_only_undated_labels_make_a_window_with_no_dated_label() -> None:
    kept, window = windowed(sets(label("bundled", UNDATED)))
    assert parts(kept) == ["bundled"]
    assert window.words() == "the newest 90 days (no dated label: 0 dated label(s) and 1 undated)"


def test_a_date_the_calendar_lacks_is_bad_input_naming_the_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.jsonl"
    good = label("p", "2026-12-01").line.model_dump_json()
    path.write_text(good + "\n" + good.replace("2026-12-01", "2026-13-45") + "\n", encoding="utf-8")
    with pytest.raises(BadInputError, match=r"bad.jsonl:2.*not a calendar day"):
        read_label_lines(path)


def test_a_huge_file_or_line_or_non_utf8_is_bad_input_naming_the_file(tmp_path: Path) -> None:
    """Label files come from pull requests: the read is bounded, never the whole of whatever is there."""
    good = label("p", "2026-12-01").line.model_dump_json() + "\n"
    huge = tmp_path / "huge.jsonl"
    with huge.open("w", encoding="utf-8") as handle:  # valid lines, just too many of them
        for _ in range(MAX_FILE_BYTES // len(good) + 1):
            handle.write(good)
    with pytest.raises(BadInputError, match=r"huge.jsonl: larger than 16 MiB, not read; split it"):
        read_label_lines(huge)
    long_line = tmp_path / "long.jsonl"
    long_line.write_text(good + good.replace('"ana"', '"' + "a" * MAX_LINE_BYTES + '"'), encoding="utf-8")
    with pytest.raises(BadInputError, match=r"long.jsonl:2: a line longer than 64 KiB"):
        read_label_lines(long_line)
    latin = tmp_path / "latin.jsonl"
    latin.write_bytes(good.replace("ana", "an\xe9").encode("latin-1"))
    with pytest.raises(BadInputError, match=r"latin.jsonl:1: not UTF-8"):
        read_label_lines(latin)
    ok = tmp_path / "ok.jsonl"
    ok.write_text(good * 3 + "\n", encoding="utf-8")  # within bounds: every line, a blank one skipped
    assert len(read_label_lines(ok)) == 3


def test_the_commands_default_window_is_the_labelled_sets() -> None:
    """The parser keeps its default as a literal (`evals --help` imports no pydantic): held equal here."""
    import argparse

    from evals.commands import judge
    from evals.grade.labelled import WINDOW_DAYS

    parser = argparse.ArgumentParser()
    judge.register(parser.add_subparsers())
    args = parser.parse_args(["judge", "agreement"])
    assert args.days == WINDOW_DAYS and not args.all_labels and args.as_of is None
    with pytest.raises(SystemExit):
        parser.parse_args(["judge", "agreement", "--days", "30", "--all-labels"])
