"""The gate inside `run` and `compare`: comparability, adaptive trials, job summary and annotations."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from evals.agents import AgentPrompts, AgentResult
from evals.agents.resolve import resolve_agent
from evals.cli import main
from evals.scenario.load import load_scenario
from evals.world.toolset import Toolset
from tests.support.agents import trial_of
from tests.support.project import read_summary


def _edit(project: Path, prompt: str) -> None:
    path = project / "scenario" / "trial-run" / "judge" / prompt
    path.write_text(path.read_text(encoding="utf-8") + "\nAlso judge the tone.\n", encoding="utf-8")


def test_one_edited_judge_prompt_leaves_the_other_parts_gated(project: Path) -> None:
    """T5's prompt changes after blessing: T5 (1 of 7 points) leaves the comparison on both sides,
    named; the other six points are still gated, so the regressed replay still fails."""
    out = project / "runs" / "ref"
    assert main(["run", "--scenario", "trial-run", "--agent", "replay:reference", "--out", str(out)]) == 0
    assert main(["baseline", "bless", "--run", str(out)]) == 0
    _edit(project, "T5.md")
    assert main(["compare", "--run", str(out)]) == 0
    summary = read_summary(out)
    assert summary["verdict"] == "pass" and summary["gate"]["baseline"] == 6.0
    assert "T5" in summary["comparison"]["trial-run"]["excluded_parts"]
    bad = project / "runs" / "bad"
    assert main(["run", "--scenario", "trial-run", "--agent", "replay:regressed", "--out", str(bad)]) == 1
    report = (bad / "report.md").read_text(encoding="utf-8")
    assert (
        "trial-run: changed since the baseline (checks, judge prompt or labels): T5 (1 of 7 points)" in report
    )
    assert read_summary(bad)["gate"]["baseline"] == 6.0


def test_changed_parts_past_the_share_make_compare_not_comparable(project: Path) -> None:
    out = project / "runs" / "ref"
    assert main(["run", "--scenario", "trial-run", "--agent", "replay:reference", "--out", str(out)]) == 0
    assert main(["baseline", "bless", "--run", str(out)]) == 0
    _edit(project, "T5.md")
    _edit(project, "T1b.md")  # 2 of 7 points: 29% > gate.max_changed_percent (20%)
    assert main(["compare", "--run", str(out)]) == 4
    report = (out / "report.md").read_text(encoding="utf-8")
    assert report.splitlines()[1] == (
        "## 🚫 Agent evals: **not-comparable** · `replay:reference` (recorded replays: no model ran)"
    )
    assert "trial-run: parts changed since the baseline (T1b, T5): 2 of 7 points" in report
    assert read_summary(out)["verdict"] == "not-comparable"


def test_scenario_data_changed_is_still_not_comparable(project: Path) -> None:
    out = project / "runs" / "ref"
    assert main(["run", "--scenario", "trial-run", "--agent", "replay:reference", "--out", str(out)]) == 0
    assert main(["baseline", "bless", "--run", str(out)]) == 0
    emails = project / "scenario" / "trial-run" / "emails.yaml"
    emails.write_text(emails.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    assert main(["compare", "--run", str(out)]) == 4
    assert "trial-run: scenario data changed (emails.yaml)" in (out / "report.md").read_text(encoding="utf-8")


class AlternatingAgent:
    """A team's own agent (so not declared deterministic) that does badly on even trials and well on
    odd ones: its scores spread, as a model's do. It replays the scenario's two recordings."""

    async def __call__(self, prompts: AgentPrompts, toolset: Toolset) -> AgentResult | str | None:
        trial = trial_of(prompts)
        root = Path.cwd()
        scenario = load_scenario(root / "scenario", "trial-run")
        name = "regressed" if trial % 2 == 0 else "reference"
        choice = resolve_agent(f"replay:{name}", scenario, root / "scenario" / "trial-run", root / "agent")
        return await choice.make(trial)(prompts, toolset)


def test_an_undecided_first_look_makes_run_add_trials_before_deciding(project: Path) -> None:
    agent = ["run", "--scenario", "trial-run", "--agent", "tests.run.test_gate_pipeline:AlternatingAgent"]
    base = project / "runs" / "base"
    main([*agent, "--trials", "4", "--out", str(base)])
    assert main(["baseline", "bless", "--run", str(base), "--force"]) == 0  # totals 2, 7, 2, 7
    config = project / "evals.yaml"
    text = re.sub(r"min_trials: \d+", "min_trials: 2", config.read_text(encoding="utf-8"))
    config.write_text(re.sub(r"max_trials: \d+", "max_trials: 2", text), encoding="utf-8")
    out = project / "runs" / "noisy"
    assert main([*agent, "--out", str(out)]) == 0  # one trial of 2 against 4.5: noise or a drop?
    assert len((out / "results.jsonl").read_text().splitlines()) == 2
    meta = json.loads((out / "run.json").read_text())
    assert meta["trials"] == 2 and meta["trials_started"] == 1
    summary = read_summary(out)
    assert summary["adaptive"] == {"started_with": 1, "trials": 2, "budget": 2}
    assert summary["gate"]["k"] == 2 and summary["gate"]["ci"][0] < summary["gate"]["delta"]
    assert "(started with 1; 1 added while the verdict was undecided)" in (out / "report.md").read_text()


def test_a_deterministic_replay_is_never_topped_up_however_noisy_the_baseline(project: Path) -> None:
    """`--agent replay:…` repeats itself exactly: more trials would say nothing new."""
    agent = ["run", "--scenario", "trial-run", "--agent", "tests.run.test_gate_pipeline:AlternatingAgent"]
    base = project / "runs" / "base"
    main([*agent, "--trials", "4", "--out", str(base)])
    assert main(["baseline", "bless", "--run", str(base), "--force"]) == 0
    out = project / "runs" / "replay"
    main(["run", "--scenario", "trial-run", "--agent", "replay:regressed", "--out", str(out)])
    assert len((out / "results.jsonl").read_text().splitlines()) == 1
    assert "trials_started" not in json.loads((out / "run.json").read_text())


def test_in_actions_the_report_goes_to_the_job_summary_and_regressions_become_annotations(
    project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    step_summary = project / "step-summary.md"
    step_summary.write_text("# earlier step\n", encoding="utf-8")
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(step_summary))
    out = project / "runs" / "bad"
    assert main(["run", "--scenario", "trial-run", "--agent", "replay:regressed", "--out", str(out)]) == 1
    written = step_summary.read_text(encoding="utf-8")
    assert written.startswith("# earlier step\n")
    assert (out / "report.md").read_text(encoding="utf-8") in written
    printed = capsys.readouterr().out
    errors = [
        line for line in printed.splitlines() if line.startswith("::error title=Agent evals - regression::")
    ]
    assert len(errors) == 1 and "Δ -5.00" in errors[0]


def test_outside_actions_nothing_is_annotated(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = project / "runs" / "bad"
    assert main(["run", "--scenario", "trial-run", "--agent", "replay:regressed", "--out", str(out)]) == 1
    assert "::error" not in capsys.readouterr().out
