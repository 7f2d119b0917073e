"""The PR comment's first screen tells the story, the page stays small, and nothing an agent, a
service or an error message wrote is rendered (issues #17 and #11)."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from evals.baseline.bless import baseline_from_run
from evals.cli import main
from evals.core.config import GateConfig, Threshold
from evals.core.errors import InfrastructureError
from evals.gate.aggregate import ScenarioAggregate, aggregate
from evals.gate.compare import Settings, compare
from evals.gate.summary import Summary, build_summary
from evals.gate.verdict import verdict
from evals.grade.rubric import Rubric
from evals.records.model import RunMeta, TrialRecord
from evals.report.markdown import FIRST_SCREEN, MARKER, ViewerLink, render, viewer_link
from tests.support.synthetic import BASE_WEAK, FINGERPRINT, META, synthetic_rubric, trial_record

HOSTILE = (
    "</details><h2>✅ Agent evals: pass</h2><img src=https://evil.example/x.png> "
    "@octocat please merge [click](https://evil.example) " + MARKER
)


def _records(rubric: Rubric, scenario: str, k: int, seed: int, weak: dict[str, float]) -> list[TrialRecord]:
    rng = random.Random(seed)
    out = []
    for t in range(k):
        record = trial_record(rubric, t, {p for p, q in weak.items() if rng.random() < q})
        assert record.grade is not None
        record.grade.scenario = scenario
        for part in record.grade.parts:  # long critiques, as real judges write them
            part.reason = (part.reason + " because " + "the evidence shows otherwise; " * 20)[:600]
        out.append(record.model_copy(update={"scenario": scenario}))
    return out


def _summary(records: list[TrialRecord], baseline_records: list[TrialRecord] | None, k: int) -> Summary:
    rubric = synthetic_rubric()
    names = sorted({r.scenario for r in records})
    fingerprint = {**FINGERPRINT, "scenarios": dict.fromkeys(names, FINGERPRINT["scenarios"]["nightshift"])}
    baseline = None
    if baseline_records is not None:
        base = _summary(baseline_records, None, 10)
        baseline = baseline_from_run(base, baseline_records, Path("runs/nightly"))
    aggs: dict[str, ScenarioAggregate] = {
        n: aggregate([r for r in records if r.scenario == n], rubric) for n in names
    }
    cmp = compare(aggs, fingerprint, baseline, Settings(Threshold(points=1.5), GateConfig(), 0.5))
    meta = RunMeta.model_validate({**META, "scenarios": names, "trials": k})
    return build_summary(meta, aggs, cmp, verdict(cmp, len(names) > 1), fingerprint, records)


def _two_scenarios(k: int, weak: dict[str, float], seed: int) -> list[TrialRecord]:
    rubric = synthetic_rubric()
    return _records(rubric, "nightshift", k, seed, weak) + _records(rubric, "overnight", k, seed + 1, weak)


def test_fifteen_trials_of_two_scenarios_fit_a_comment_of_under_20000_bytes() -> None:
    weak = {**BASE_WEAK, "C1": 1.0, "C13": 1.0, "C7": 0.9, "C5a": 0.8, "C9b": 0.7}
    summary = _summary(_two_scenarios(15, weak, 7), _two_scenarios(10, BASE_WEAK, 1), 15)
    assert summary.verdict == "regression"
    report = render(summary, ViewerLink("viewer.html"))
    assert len(report.encode("utf-8")) < 20_000
    assert report.count("<details>") <= 2  # the gate's reasoning and the notes; trials are in the viewer
    assert "trial 3" not in report


def test_the_first_screen_names_the_top_changes_and_links_the_viewer() -> None:
    weak = {**BASE_WEAK, "C1": 1.0, "C13": 1.0, "C7": 0.9}
    summary = _summary(_two_scenarios(6, weak, 3), _two_scenarios(10, BASE_WEAK, 1), 6)
    assert summary.verdict == "regression"
    link = viewer_link(
        {"GITHUB_SERVER_URL": "https://github.com", "GITHUB_REPOSITORY": "o/r", "GITHUB_RUN_ID": "42"}
    )
    report = render(summary, link)
    first = "\n".join(report.splitlines()[:FIRST_SCREEN])
    assert "**regression**" in first and "total" in first
    # the three largest drops, by title, with their full-marks change, failure and where to read them
    for title, key in (("Criterion 1 of the night", "C1"), ("Criterion 13 of the night", "C13")):
        assert f"**{title}** (nightshift/{key};" in first
    (c1,) = [line for line in first.splitlines() if "(nightshift/C1;" in line]
    assert "full marks 100% → 0%" in c1 and "expected 2048, found 1024" in c1 and "in 6 of 6 trials" in c1
    assert "[nightshift/0/C1](https://github.com/o/r/actions/runs/42)" in first
    assert "artifact `evals-viewer`" in first
    assert "Cost:" in first
    assert viewer_link({}).href("nightshift/3/C7") == "viewer.html#nightshift/3/C7"


def test_replays_show_no_zero_rows_and_no_unknown_baseline_rows() -> None:
    records = _two_scenarios(6, BASE_WEAK, 2)
    for record in records:
        record.metrics = record.metrics.model_copy(
            update={"input_tokens": 0, "output_tokens": 0, "cost_usd": 0.0}
        )
    report = render(_summary(records, None, 6), ViewerLink("viewer.html"))
    assert "Tokens per trial" not in report and "Cost" not in report
    assert "| –" not in report and "(0)" not in report  # no "unknown" cells, no "6 (0)" errored counts
    assert "baseline" not in report.split("### nightshift")[1]  # nothing to compare with: no column for it


@pytest.fixture
def hostile_summary() -> Summary:
    records = _records(synthetic_rubric(), "nightshift", 4, 5, {**BASE_WEAK, "C1": 1.0})
    for record in records:
        assert record.grade is not None
        for part in record.grade.parts:
            if part.status == "failed":
                part.reason = HOSTILE
                part.evidence_excerpt = "`code` | " + HOSTILE
    records.append(
        TrialRecord(scenario="nightshift", trial=4, status="error", error="boom\n::error::forged " + HOSTILE)
    )
    return _summary(records, _records(synthetic_rubric(), "nightshift", 10, 1, BASE_WEAK), 5)


def test_agent_text_in_the_report_is_shown_never_rendered(hostile_summary: Summary) -> None:
    report = render(hostile_summary, ViewerLink("viewer.html"))
    assert "&lt;/details&gt;&lt;h2&gt;" in report and "&lt;img src=" in report  # shown, escaped
    spans = re.findall(r"`[^`\n]*`", report)
    assert any("<img src=" in span for span in spans)  # evidence: verbatim, inside one code span
    outside = re.sub(r"`[^`\n]*`", "", report)
    for raw in ("</details>", "<h2>", "<img", "[click](", "@octocat"):
        assert raw not in outside, raw
    assert "@\u200bocto" in report  # readable, not a mention
    assert report.count(MARKER) == 1  # the hidden marker only where the report put it
    assert report.splitlines()[1].startswith(f"## ✅ Agent evals: **{hostile_summary.verdict}** · `")
    for line in report.splitlines():
        assert not line.lstrip().startswith("::"), line


async def failing_agent(prompts: object, toolset: object) -> None:
    """An agent whose infrastructure error (printed as it happens, listed in the report) tries to forge
    a workflow command and a report section."""
    raise InfrastructureError(
        "tool said:\n::error title=Agent evals - pass::all good\n##[set-output name=x]y " + HOSTILE
    )


def test_agent_text_on_the_console_cannot_start_a_workflow_command(
    project: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    out = project / "runs" / "hostile"
    agent = "tests.report.test_report_first_screen:failing_agent"
    main(["run", "--agent", agent, "--trials", "2", "--out", str(out)])
    printed = capfd.readouterr()
    lines = (printed.out + printed.err).splitlines()
    assert any("all good" in line for line in lines)  # the error is shown on the console, as text
    for line in lines:
        assert not line.lstrip().startswith("::"), line
        assert "##[" not in line, line
    report = (out / "report.md").read_text(encoding="utf-8")
    assert "all good" in report  # the error is shown in the report, as text
    assert report.count(MARKER) == 1 and "<h2>" not in report


def test_the_first_line_names_the_agent_and_says_when_no_model_ran() -> None:
    """A green check from recorded replays measured the replays, not the agent a PR changed (#38)."""
    from evals.report.markdown import who_ran

    assert who_ran("claude (claude-sonnet-4-5)") == "`claude (claude-sonnet-4-5)`"
    assert who_ran("my_agent:run") == "`my_agent:run`"
    assert who_ran("replay:reference, replay:seed-run-0,seed-run-1") == (
        "`replay:reference, replay:seed-run-0,seed-run-1` (recorded replays: no model ran)"
    )
    assert who_ran("claude (claude-sonnet-4-5), replay:reference") == (
        "`claude (claude-sonnet-4-5), replay:reference`"
    )


def test_console_and_annotations_tell_the_largest_fall_with_its_failure_before_any_statistic() -> None:
    from evals.report.story import ANNOTATED, annotation_lines, console_lines, distinct, fallen, viewer_story

    weak = {**BASE_WEAK, "C1": 1.0, "C13": 1.0, "C7": 0.9}
    summary = _summary(_two_scenarios(6, weak, 3), _two_scenarios(10, BASE_WEAK, 1), 6)
    largest = fallen(summary)[0]
    assert largest.delta is not None and largest.delta.delta == min(
        d.delta for c in summary.comparison.values() for d in c.criteria.values() if d.delta is not None
    )
    console = console_lines(summary)
    assert console[0].startswith("The total fell") and largest.failure[:40] in console[0]
    assert not any("p = " in line or " CI " in line for line in console)
    title, message = annotation_lines(summary)[0]
    assert largest.key in title and largest.failure[:40] in message
    assert message.endswith(f"(viewer.html#{largest.anchor})")
    assert len({m for _, m in annotation_lines(summary)}) == len(annotation_lines(summary))  # one per part
    header = viewer_story(summary)  # the viewer's header: the same list, at most ANNOTATED, then a count
    told = distinct(fallen(summary))
    assert [f["anchor"] for f in header["fell"]] == [f.anchor for f in told[:ANNOTATED]]  # type: ignore[index]
    assert header["more"] == max(len(told) - ANNOTATED, 0)
    passing = _summary(_two_scenarios(6, BASE_WEAK, 3), _two_scenarios(10, BASE_WEAK, 1), 6)
    assert passing.verdict == "pass" and console_lines(passing) == [] and annotation_lines(passing) == []
