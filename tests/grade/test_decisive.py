"""Decisive parts: a serious violation fails the trial whatever else scored.

The trial run with its pass line lowered to 4 of 7 and T1a (the developer got a mail with the PR)
declared decisive: a replay that does everything but the mail scores 5, above the line, and still
fails, naming T1a; the reference passes with no violation. A decisive part left unscored leaves the
trial's pass undecided rather than passed.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from evals.cli import main
from evals.grade.passrule import passes


def declare(project: Path) -> None:
    folder = project / "scenario" / "trial-run"
    rubric = folder / "rubric.yaml"
    text = rubric.read_text(encoding="utf-8").replace("pass_threshold: 6", "pass_threshold: 4")
    text = re.sub(r"(      - id: T1a\n        points: 1\n)", r"\1        decisive: true\n", text)
    rubric.write_text(text, encoding="utf-8")
    reference = (folder / "replays" / "reference.yaml").read_text(encoding="utf-8")
    head, _, tail = reference.partition("  - tool: GMAIL_REPLY_TO_THREAD")
    kept = "\n".join(line for line in tail.splitlines() if line.startswith("expect_lost"))
    (folder / "replays" / "no-mail.yaml").write_text(head + kept.replace("[]", "[T1a, T1b]") + "\n")


def grades(out: Path) -> list[dict[str, object]]:
    lines = (out / "results.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line)["grade"] for line in lines]


def test_a_failed_decisive_part_fails_a_trial_whose_total_passes(project: Path) -> None:
    declare(project)
    out = project / "runs" / "no-mail"
    (project / "baseline" / "baseline.json").unlink(missing_ok=True)  # about the grade, not the gate
    main(["run", "--scenario", "trial-run", "--agent", "replay:no-mail", "--out", str(out)])
    (grade,) = grades(out)
    assert grade["total"] == 5 and grade["passed"] is False and grade["violations"] == ["T1a"]
    report = (out / "report.md").read_text(encoding="utf-8")
    told = report.split("**Serious violations**", 1)[1].split("\n\n", 2)[1]  # its first line
    assert told.startswith("- **") and "(T1a)" in told and "in 1 of 1 trials" in told
    assert report.index("**Serious violations**") < report.index("**Total**")  # before any number


def test_the_reference_passes_with_no_violation(project: Path) -> None:
    declare(project)
    out = project / "runs" / "reference"
    (project / "baseline" / "baseline.json").unlink(missing_ok=True)  # about the grade, not the gate
    main(
        [
            "run",
            "--scenario",
            "trial-run",
            "--agent",
            "replay:reference",
            "--out",
            str(out),
        ]
    )
    (grade,) = grades(out)
    assert grade["passed"] is True and grade["violations"] == []
    assert "Serious violations" not in (out / "report.md").read_text(encoding="utf-8")


def test_pass_rule_both_ways() -> None:
    assert passes(total=20, missing=0, threshold=18, violations=["C7"]) is False
    assert passes(total=20, missing=0, threshold=18, violations=[]) is True
    assert passes(total=15, missing=5, threshold=18, violations=[]) is None
    assert passes(total=12, missing=5, threshold=18, violations=[]) is False


def test_a_decisive_part_failed_only_by_what_it_requires_is_not_done_not_a_violation(project: Path) -> None:
    """#37: "did nothing" is not a serious violation. With T3a and T3b decisive and T3b requiring
    T3a, the regressed replay's wrong threshold (T3a, its own check failed) is a violation; its
    regression test, never reached, is "not done": out of `violations`, said apart in the report."""
    rubric = project / "scenario" / "trial-run" / "rubric.yaml"
    text = rubric.read_text(encoding="utf-8")
    text = re.sub(r"(      - id: T3a\n        points: 1\n)", r"\1        decisive: true\n", text)
    text = re.sub(
        r"(      - id: T3b\n        points: 1\n)",
        r"\1        decisive: true\n        requires: [T3a]\n",
        text,
    )
    rubric.write_text(text, encoding="utf-8")
    out = project / "runs" / "regressed"
    (project / "baseline" / "baseline.json").unlink(missing_ok=True)  # about the grade, not the gate
    main(["run", "--scenario", "trial-run", "--agent", "replay:regressed", "--out", str(out)])
    (grade,) = grades(out)
    assert grade["violations"] == ["T3a"] and grade["passed"] is False
    parts = {p["id"]: p for p in grade["parts"]}  # type: ignore[attr-defined]
    assert parts["T3b"]["score"] == 0 and parts["T3b"]["not_done"] is True
    assert parts["T3b"]["reason"].startswith("not done: requires T3a, which failed")
    assert "not_done" not in parts["T3a"]
    report = (out / "report.md").read_text(encoding="utf-8")
    violations = report.split("**Serious violations**", 1)[1].split("\n\n", 2)[1]
    assert "(T3a)" in violations and "T3b" not in violations
    assert "**Not done** (a part it requires failed; no violation): T3b in 1 of 1 trials" in report
