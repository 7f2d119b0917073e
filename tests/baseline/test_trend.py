"""The nightly trend: Mermaid charts of the last nights and a drift notice (evals/baseline/trend.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from evals.baseline.trend import drift, load_history, render_trend
from evals.cli import main


def night(n: int, mean: float, categories: dict[str, float] | None = None) -> dict[str, object]:
    scenario: dict[str, object] = {"k": 6, "errored": 0, "mean": mean}
    if categories is not None:
        scenario["categories"] = {c: {"title": c.title(), "mean": v, "max": 5} for c, v in categories.items()}
    return {
        "run": f"nightly-{n}",
        "started": f"2026-10-{n + 1:02d}T03:23:00Z",
        "total": {"mean": mean, "max": 25},
        "scenarios": {"nightshift": scenario},
    }


def write(path: Path, nights: list[dict[str, object]]) -> Path:
    path.write_text("".join(json.dumps(n) + "\n" for n in nights), encoding="utf-8")
    return path


def test_a_steady_history_has_no_drift() -> None:
    assert drift([20, 21, 20, 21, 20, 21, 20, 21, 20, 21, 20, 21, 20, 21], 1.5) == []


def test_a_seven_night_mean_below_the_one_before_by_more_than_the_threshold_is_drift() -> None:
    (notice,) = drift([22.0] * 7 + [20.0, 21.0, 20.0, 20.0, 20.0, 20.0, 20.0], 1.5)
    assert notice.startswith("the 7-night mean fell by 1.86 points (22.00 over the 7 nights before")
    assert drift([22.0] * 7 + [21.0] * 7, 1.5) == []  # a fall within the threshold is noise


def test_three_drops_in_a_row_are_drift_even_when_small() -> None:
    (notice,) = drift([20.0, 21.0, 20.9, 20.8, 20.7], 1.5)
    assert notice == "the total dropped 3 nights in a row (21.00 → 20.90 → 20.80 → 20.70)"
    assert drift([21.0, 20.9, 20.8], 1.5) == []  # needs the night before the three


def test_the_chart_covers_the_last_thirty_nights_and_reads_old_lines(tmp_path: Path) -> None:
    old = [night(n, 20.0) for n in range(25)]  # written before category means were recorded
    new = [night(25 + n, 21.0, {"code": 4.0, "communication": 5.0}) for n in range(10)]
    text = render_trend(load_history(write(tmp_path / "h.jsonl", old + new)), 1.5)
    assert text.startswith("### Nightly trend (last 30 nights)")
    total_line = next(line for line in text.splitlines() if line.startswith("  line ["))
    assert total_line.count(",") == 29 and total_line.startswith("  line [20.00")
    assert '"10-06"' in text and '"10-05"' not in text  # nights 0-4 fell out of the window
    assert text.count("```mermaid") == 2
    assert "  line [80.00, 80.00" in text  # code: 4 of 5 points
    assert "| 1 | Code | 80% |" in text and "| 2 | Communication | 100% |" in text
    assert "No drift" in text


def test_trend_command_prints_the_chart_and_the_drift(
    project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    history = write(tmp_path / "h.jsonl", [night(n, 22.0 - 0.5 * max(0, n - 5)) for n in range(10)])
    assert main(["trend", "--history", str(history), "--out", str(tmp_path / "trend.md")]) == 0
    printed = capsys.readouterr().out
    assert "xychart-beta" in printed and "**Drift:** the total dropped 3 nights in a row" in printed
    assert (tmp_path / "trend.md").read_text(encoding="utf-8") == printed


def test_a_missing_history_says_where_it_comes_from(project: Path, tmp_path: Path) -> None:
    assert main(["trend", "--history", str(tmp_path / "none.jsonl")]) == 2
