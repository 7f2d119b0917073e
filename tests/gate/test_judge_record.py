"""The judge's drift record: the report's judge line and the bless refusal, from judge.jsonl lines."""

from __future__ import annotations

from pathlib import Path

import pytest

from evals.core.errors import BadInputError
from evals.gate.agreement import measure
from evals.gate.judge_record import (
    JudgeCheck,
    JudgeIdentity,
    alarms_for,
    append_judge_check,
    bless_refusal,
    load_judge_checks,
)
from evals.grade.labelled import LabelWindow
from evals.report.judge_line import judge_line

PROMPT = "trial-run/judge/T1b.md"
GOOD = [(1, 1)] * 40 + [(0, 0)] * 10 + [(1, 0)] * 2


def check(
    pairs: list[tuple[int, int]], prompt_sha: str = "a" * 64, changed: list[str] | None = None
) -> JudgeCheck:
    overall = measure(pairs, [0, 1], resamples=300)
    return JudgeCheck(
        recorded="2026-12-01T03:00:00Z",
        source="the bundled replays",
        judge=JudgeIdentity(model="claude-haiku-4-5", prompts={PROMPT: prompt_sha}),
        min_agreement=0.8,
        overall=overall,
        criteria={"trial-run/T1b": overall},
        changed=changed or [],
        alarms=alarms_for(overall, 0.8, changed or []),
    )


def fingerprint(prompt_sha: str = "a" * 64) -> dict[str, object]:
    return {
        "judge_model": "claude-haiku-4-5",
        "scenarios": {"trial-run": {"judge_prompts": {"judge/T1b.md": prompt_sha}}},
    }


def test_the_line_states_agreement_with_ac1_and_its_interval() -> None:
    line = judge_line(check(GOOD), fingerprint())
    assert line.startswith("⚖️ **The judge:** agrees with people on **96% of 52 labelled parts** (AC1 0.9")
    assert "claude-haiku-4-5, measured 2026-12-01" in line
    assert "not measured yet" in judge_line(None)


def test_the_line_says_which_labels_were_counted() -> None:
    window = LabelWindow(days=90, start="2026-09-03", end="2026-12-01", dated=40, undated=12, older=5)
    line = judge_line(check(GOOD).model_copy(update={"window": window}), fingerprint())
    assert "(AC1 0.9" in line and (
        " · the newest 90 days (2026-09-03 – 2026-12-01: 40 dated label(s) and 12 undated; 5 older not "
        "counted) · claude-haiku-4-5, measured 2026-12-01" in line
    )
    # a line recorded before windows existed measured every label, and says so
    assert " · all labels · claude-haiku-4-5" in judge_line(check(GOOD), fingerprint())


def test_a_constant_judge_is_named_in_the_line_and_raises_the_alarm() -> None:
    line = judge_line(check([(1, 1)] * 53 + [(0, 1)] * 14), fingerprint())
    assert line.startswith("🚨 **Judge drift:** agreement below the floor: 79% < 80%")
    assert "no better than a constant judge: always answering 1 would agree on 79%" in line


def test_an_edited_prompt_is_unmeasured_in_the_line_and_refuses_the_bless() -> None:
    edited = fingerprint("b" * 64)
    line = judge_line(check(GOOD), edited)
    assert "this run's judge is not the one measured (judge prompt trial-run/judge/T1b.md changed)" in line
    assert "**not measured**" in line and "96%" not in line  # never the old judge's figure
    # a prompt no measurement had (a task the nightly never measured) is not measured either
    more = fingerprint()
    more["scenarios"]["other"] = {"judge_prompts": {"judge/X1.md": "c" * 64}}  # type: ignore[index]
    line = judge_line(check(GOOD), more)
    assert "judge prompt other/judge/X1.md never measured" in line and "96%" not in line
    identity = JudgeIdentity(model="claude-haiku-4-5", prompts={PROMPT: "b" * 64})
    refusal = bless_refusal([check(GOOD)], identity)
    assert refusal is not None and "judge changed since its agreement was last measured" in refusal
    assert bless_refusal([check(GOOD), check(GOOD, "b" * 64)], identity) is None  # measured again: fine


def test_bless_is_refused_when_never_measured_or_below_the_floor() -> None:
    same = JudgeIdentity(model="claude-haiku-4-5", prompts={PROMPT: "a" * 64})
    assert "never measured" in (bless_refusal([], same) or "")
    assert "drift alarm" in (bless_refusal([check([(1, 0)] * 5 + [(1, 1)] * 5)], same) or "")
    assert bless_refusal([check(GOOD)], same) is None


def test_the_file_round_trips_and_a_bad_line_is_named(tmp_path: Path) -> None:
    path = tmp_path / "judge.jsonl"
    append_judge_check(path, check(GOOD))
    assert load_judge_checks(path)[0].overall.labels == 52
    with path.open("a", encoding="utf-8") as handle:
        handle.write('{"kind": "judge"}\n')
    with pytest.raises(BadInputError, match=r"judge.jsonl:2"):
        load_judge_checks(path)


def test_the_viewer_shows_the_figures_of_the_judge_the_run_was_graded_with() -> None:
    """In a PR that edits a judge prompt the newest record is the PR's own measurement of the head's
    prompt; the run was graded with the base's, so the viewer's per-part figures are the base's."""
    from types import SimpleNamespace

    from evals.report.viewer.labelling import agreement_view

    base = check(GOOD)
    pr = check([(1, 0)] * 30 + [(1, 1)] * 10, prompt_sha="b" * 64).model_copy(
        update={"prompts_from": "/tmp/head", "base": base}
    )
    shown = agreement_view(SimpleNamespace(judge_agreement=pr))  # type: ignore[arg-type]
    assert shown is not None and shown["criteria"]["trial-run/T1b"]["raw"] == base.overall.raw
    assert agreement_view(SimpleNamespace(judge_agreement=pr.model_copy(update={"base": None}))) is None  # type: ignore[arg-type]
    assert agreement_view(SimpleNamespace(judge_agreement=base))["criteria"]  # type: ignore[arg-type,index]
