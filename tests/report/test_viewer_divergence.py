"""Why did this trial fail where that one passed: the first call where a failing trial of a task parts
ways with a passing one, what each trial is shown doing from there, and the parts that flipped.

Trials of one task run in worlds whose ids, shas, times and repository names differ by trial; the
comparison must see through those, and must still see a trial that reads another page or writes
other text.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from evals.agents.base import ToolCall
from evals.cli import main
from evals.report.viewer.data import run_view
from evals.report.viewer.divergence import Side, agreed, divergence


def call(n: int, tool: str, args: dict[str, Any], result: Any) -> ToolCall:
    return ToolCall(index=n, tool=tool, args=args, result={"data": result, "successful": True}, latency_s=0.0)


def trial(number: int, passed: bool, page: str, text: str, when: str = "2025-07-14T01:0") -> Side:
    """Search a page, read the first hit, write `text` into it: in a world of trial `number`."""
    repo = f"acme/hydra-{number}"
    page_id = f"{number:08x}-aaaa-bbbb-cccc-{number:012x}"
    other = f"{number + 50:08x}-aaaa-bbbb-cccc-{number:012x}"
    hits = [{"id": page_id, "title": "Runbook"}, {"id": other, "title": "Spec"}]
    calls = [
        call(0, "NOTION_SEARCH_NOTION_PAGE", {"query": "runbook"}, {"results": hits, "at": when + "1:00Z"}),
        call(
            1,
            "NOTION_FETCH_BLOCK_CONTENTS",
            {"block_id": page_id if page == "first" else other},
            {"results": []},
        ),
        call(
            2, "GITHUB_GET_A_BRANCH", {"repo": repo, "branch": "main"}, {"commit": {"sha": f"{number:040x}"}}
        ),
        call(3, "NOTION_APPEND_TEXT_BLOCKS", {"block_id": page_id, "text": text}, {"results": []}),
        call(4, "GMAIL_SEND_EMAIL", {"body": "done"}, {"id": f"{number:016x}"}),
    ]
    r1 = {"status": "passed", "score": 1} if passed else {"status": "failed", "score": 0}
    parts = [
        {"id": "R1", "criterion": "R1", **r1, "reason": f"the runbook says {text}"},
        {"id": "R2", "criterion": "R2", "status": "passed", "score": 1, "reason": "mail sent"},
    ]
    return Side(number, passed, calls, [repo, repo.split("/")[1]], parts, entries=[2 * n for n in range(5)])


def test_trials_that_differ_only_in_their_worlds_ids_times_and_names_agree() -> None:
    a, b = (
        trial(0, True, "first", "0.85", when="2025-07-14T01:0"),
        trial(7, False, "first", "0.85", "2025-07-15T09:1"),
    )
    assert agreed(a, b, results=True) == (5, "")


def test_the_divergence_is_the_first_call_that_differs_and_lines_the_rest_up() -> None:
    passing, failing = trial(0, True, "first", "0.85"), trial(1, False, "first", "0.80")
    d = divergence([passing, failing])
    assert d is not None
    assert (d["failing"], d["passing"], d["same_before"], d["how"]) == (1, 0, 3, "arguments")
    # from call #3 on, side by side: the differing write, then the same mail in both
    assert d["rows"] == [{"fail": 6, "pass": 6, "same": False}, {"fail": 8, "pass": 8, "same": True}]
    (flip,) = d["flipped"]
    assert flip["id"] == "R1" and flip["failing"]["reason"] == "the runbook says 0.80"
    assert flip["passing"] == {"status": "passed", "score": 1, "reason": "the runbook says 0.85"}


def test_reading_another_page_is_a_difference_though_every_page_id_is_per_trial() -> None:
    d = divergence([trial(0, True, "first", "0.85"), trial(1, False, "second", "0.85")])
    assert d is not None and (d["same_before"], d["how"]) == (1, "arguments")


def test_the_pair_that_agrees_longest_is_shown_and_a_task_without_both_has_none() -> None:
    early = trial(1, False, "second", "0.80")
    late = trial(2, False, "first", "0.80")
    d = divergence([trial(0, True, "first", "0.85"), early, late])
    assert d is not None and d["failing"] == 2 and d["same_before"] == 3
    assert divergence([trial(0, True, "first", "0.85"), trial(3, True, "first", "0.85")]) is None
    assert divergence([early, late]) is None


def test_a_run_with_a_passing_and_a_failing_trial_shows_where_they_part(project: Path) -> None:
    """trial-run's reference replay passes, its regressed one fails: trial 0 and 1 of one run."""
    out = project / "runs" / "mixed"
    assert main(["run", "--agent", "replay:reference,regressed", "--trials", "2", "--out", str(out)]) in (
        0,
        1,
    )
    data = run_view(out)
    (task,) = [t for g in data["groups"] for t in g["tasks"]]
    d = task["divergence"]
    assert (d["failing"], d["passing"]) == (1, 0) and d["how"] in ("tool", "arguments")
    failing, passing = data["trials"][1], data["trials"][0]
    first = d["rows"][0]
    shown = [
        t["timeline"][first[k]]["tool"] if first[k] is not None else None
        for t, k in ((failing, "fail"), (passing, "pass"))
    ]
    assert shown[0] != shown[1]
    assert "T3a" in {f["id"] for f in d["flipped"]}
