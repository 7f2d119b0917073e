"""The cost budget: an estimate before the run from the baseline's cost per trial, and no trial
starting once the spend (agent and judge) reaches the budget; the verdict says the budget ended it."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml

from evals.agents import AgentPrompts, AgentResult
from evals.cli import main
from evals.core.usage import Usage
from evals.world.toolset import Toolset
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
    assert "Estimated cost: ~$6.00 for 2 trial(s) per scenario, up to ~$45.00" in err
    assert "if the gate adds trials up to 15; budget $50.00" in err
    assert "basis: the baseline's recorded usage per trial (trial-run)" in err


def claude_estimate(project: Path, monkeypatch: pytest.MonkeyPatch, scenarios: list[str]) -> str:
    """The estimate `run --agent claude` prints before its first trial (no trial is run here)."""
    from evals.core.config import load_config
    from evals.run.runner import plan
    from evals.run.session import cost_estimate

    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-test-not-used")
    config, root = load_config(project)
    return cost_estimate(plan(root, config, scenarios=scenarios, agent="claude", trials=3, baseline=None))


def dollars(line: str) -> list[float]:
    return [float(x.replace(",", "")) for x in re.findall(r"\$([\d,]+\.\d\d)", line)]


def test_a_claude_run_against_the_replay_baseline_is_not_estimated_free(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue #29: "Estimated cost: $0.00 … up to $0.00", then the run spent money. The committed
    baseline is replays (no usage): the estimate is modelled, says so, and moves with the prices."""
    text = claude_estimate(project, monkeypatch, ["trial-run", "reply-facts"])
    first, at_budget = dollars(text.splitlines()[0])[:2]
    assert 0 < first < at_budget
    assert "claude-sonnet-5-5 is modelled at pricing.yaml's prices" in text
    assert "the baseline recorded no model usage (replays)" in text
    per = dict(re.findall(r"(\S+) \$([\d.]+) \(\d+ turns", text))
    assert float(per["trial-run"]) > float(per["reply-facts"])  # 16 turns of a larger world against 2
    pricing = project / "pricing.yaml"
    prices = yaml.safe_load(pricing.read_text())
    prices["claude-sonnet-5-5"] = {
        k: v * 2 if isinstance(v, float | int) else v for k, v in prices["claude-sonnet-5-5"].items()
    }  # the rates; `source` and `as_of` stay
    pricing.write_text(yaml.safe_dump(prices))
    doubled = dollars(claude_estimate(project, monkeypatch, ["trial-run", "reply-facts"]).splitlines()[0])[0]
    assert doubled > first * 1.5  # the agent's share doubled; the judge's (haiku) did not


def test_a_claude_estimate_uses_the_baselines_recorded_tokens_priced_for_the_current_model(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = project / "baseline" / "baseline.json"
    baseline = json.loads(path.read_text())
    entry = baseline["scenarios"]["reply-facts"]
    entry["usage"].update(input_tokens=1_000_000.0 * entry["k"], cost_usd=99.0)  # 1M input tokens a trial
    path.write_text(json.dumps(baseline))
    text = claude_estimate(project, monkeypatch, ["reply-facts"])
    price = yaml.safe_load((project / "pricing.yaml").read_text())["claude-sonnet-5-5"]["input"]
    assert dollars(text.splitlines()[0])[0] == pytest.approx(3 * price, abs=0.01)  # 3 trials of 1M tokens
    assert "recorded usage per trial, priced for claude-sonnet-5-5 from pricing.yaml (reply-facts)" in text


def test_replays_are_estimated_free_and_say_why(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    main(
        [
            "run",
            "--scenario",
            "trial-run",
            "--agent",
            "replay:reference",
            "--out",
            str(project / "runs" / "r"),
        ]
    )
    err = capsys.readouterr().err
    assert "Estimated cost: ~$0.00" in err and "basis: replays call no model" in err


@pytest.mark.parametrize("usd", [0, -1])
def test_a_budget_that_is_not_positive_is_bad_input(project: Path, usd: float) -> None:
    config = project / "evals.yaml"
    data = yaml.safe_load(config.read_text(encoding="utf-8"))
    data["budget"] = {"usd": usd}
    config.write_text(yaml.safe_dump(data), encoding="utf-8")
    assert main([*AGENT, "--out", str(project / "runs" / "x")]) == 2
    assert main([*AGENT, "--budget-usd", str(usd), "--out", str(project / "runs" / "y")]) == 2
