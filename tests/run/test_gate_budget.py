"""The cost budget: an estimate before the run from the baseline's cost per trial, and no trial
starting once the spend (agent and judge) reaches the budget; the verdict says the budget ended it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from evals.agents import AgentPrompts, AgentResult
from evals.cli import main
from evals.core.usage import Usage
from evals.world.sandbox.tools.base import Toolset
from tests.support.project import read_summary

PRICE = 3.00  # claude-sonnet-4-5 in pricing.yaml: USD 3 per million input tokens


class PricedAgent:
    """A team's own agent that reports a million input tokens of a priced model per trial: $3 each."""

    async def __call__(self, prompts: AgentPrompts, toolset: Toolset) -> AgentResult:
        await toolset.call("GMAIL_FETCH_EMAILS", {"max_results": 1})
        return AgentResult(
            model="claude-sonnet-4-5", usage=Usage(input_tokens=1_000_000), turns=1, final_text="done"
        )


AGENT = ["run", "--scenario", "trial-run", "--agent", "tests.run.test_gate_budget:PricedAgent"]


def test_the_budget_stops_new_trials_and_the_verdict_says_so(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = project / "runs" / "capped"
    main([*AGENT, "--trials", "5", "--concurrency", "1", "--budget-usd", "5", "--out", str(out)])
    lines = (out / "results.jsonl").read_text().splitlines()
    assert len(lines) == 2  # $3 spent after the first, $6 after the second: no third trial starts
    meta = json.loads((out / "run.json").read_text())
    assert meta["budget_usd"] == 5 and meta["spent_usd"] == pytest.approx(2 * PRICE)
    assert meta["stopped_by_budget"] is True
    printed = capsys.readouterr().out
    assert "cost $6.00 (agent and judge) of $5.00" in printed
    assert "the cost budget ($5.00), not the statistics, ended this run: $6.00 spent" in printed
    assert read_summary(out)["notices"][0].startswith("the cost budget ($5.00), not the statistics")
    report = (out / "report.md").read_text(encoding="utf-8")
    assert "**$6.00** for this verdict (agent and judge) of a $5.00 budget, **which ended the run**" in report


def test_a_run_within_its_budget_runs_every_trial_and_says_nothing_about_it(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = project / "runs" / "ample"
    main([*AGENT, "--trials", "2", "--budget-usd", "100", "--out", str(out)])
    assert len((out / "results.jsonl").read_text().splitlines()) == 2
    meta = json.loads((out / "run.json").read_text())
    assert "stopped_by_budget" not in meta and meta["spent_usd"] == pytest.approx(2 * PRICE)
    assert "not the statistics" not in capsys.readouterr().out


def test_the_estimate_before_the_run_comes_from_the_baselines_cost_per_trial(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    base = project / "runs" / "base"
    main([*AGENT, "--trials", "2", "--out", str(base)])
    assert main(["baseline", "bless", "--run", str(base), "--force"]) == 0
    config = project / "evals.yaml"
    data = yaml.safe_load(config.read_text(encoding="utf-8"))
    data["budget"] = {"usd": 50}
    config.write_text(yaml.safe_dump(data), encoding="utf-8")
    capsys.readouterr()
    main([*AGENT, "--trials", "2", "--out", str(project / "runs" / "pr")])
    err = capsys.readouterr().err
    assert "Estimated cost: $6.00 for 2 trial(s) per scenario, up to $45.00" in err
    assert "(from the baseline: $3.0000 per trial, all scenarios); budget $50.00" in err


@pytest.mark.parametrize("usd", [0, -1])
def test_a_budget_that_is_not_positive_is_bad_input(project: Path, usd: float) -> None:
    config = project / "evals.yaml"
    data = yaml.safe_load(config.read_text(encoding="utf-8"))
    data["budget"] = {"usd": usd}
    config.write_text(yaml.safe_dump(data), encoding="utf-8")
    assert main([*AGENT, "--out", str(project / "runs" / "x")]) == 2
    assert main([*AGENT, "--budget-usd", str(usd), "--out", str(project / "runs" / "y")]) == 2
