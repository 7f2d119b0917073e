"""A continuable inconclusive (`evals run --continue DIR`, evals/run/session.py: `continue_run`): the
same run and the same sequential test go on, never a fresh start, and only an inconclusive run is
continued."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import ClassVar

import pytest

from evals.agents import AgentPrompts, AgentResult
from evals.agents.resolve import resolve_agent
from evals.cli import main
from evals.core.config import GateConfig
from evals.gate.sequential import continued
from evals.scenario.load import load_scenario
from evals.world.toolset import Toolset
from tests.support.agents import results
from tests.support.project import read_summary

AGENT = "tests.run.test_continue:Cycling"
BOARD = ["--scenario", "board-move", "--concurrency", "1"]


class Cycling:
    """A team's own agent on board-move whose n-th trial plays `pattern[n % len]`: the reference
    (3 of 3) or the wrong row (2 of 3). Run one trial at a time, its scores follow the pattern."""

    pattern: ClassVar[list[str]] = ["reference", "wrong-row"]
    calls: ClassVar[int] = 0

    async def __call__(self, prompts: AgentPrompts, toolset: Toolset) -> AgentResult | str | None:
        root = Path.cwd()
        scenario = load_scenario(root / "scenario", "board-move")
        replay = Cycling.pattern[Cycling.calls % len(Cycling.pattern)]
        Cycling.calls += 1
        choice = resolve_agent(f"replay:{replay}", scenario, root / "scenario" / "board-move", root / "agent")
        return await choice.make(0)(prompts, toolset)


def _settings(project: Path) -> None:
    """A small schedule (looks at 2 and 4), a threshold board-move's 3 points can cross, and every
    trial planned (board-move is quiet in the committed baseline: allocation would bless one trial)."""
    config = project / "evals.yaml"
    text = config.read_text(encoding="utf-8")
    for key, value in (("min_trials", 2), ("look_every", 2), ("max_trials", 4)):
        text = re.sub(rf"^  {key}: \d+", f"  {key}: {value}", text, flags=re.MULTILINE)
    text = re.sub(r"^  (?:points|percent): [\d.]+", "  points: 0.2", text, flags=re.MULTILINE)
    text = text.replace("allocate: true", "allocate: false")
    config.write_text(text, encoding="utf-8")


def _bless(project: Path) -> None:
    """A baseline of 4 trials scoring 3, 2, 3, 2 (mean 2.5, a spread of its own)."""
    Cycling.pattern, Cycling.calls = ["reference", "wrong-row"], 0
    base = project / "runs" / "base"
    assert main(["run", *BOARD, "--agent", AGENT, "--trials", "4", "--out", str(base)]) in (0, 1)
    assert main(["baseline", "bless", "--run", str(base), "--force"]) == 0


def _inconclusive(project: Path) -> Path:
    """A PR run that scores 2, 3, 2, 2 (mean 2.25, Δ -0.25 past the 0.2 allowed) and ends undecided
    at its budget of 4 trials."""
    _settings(project)
    _bless(project)
    Cycling.pattern, Cycling.calls = ["wrong-row", "reference", "wrong-row", "wrong-row"], 0
    out = project / "runs" / "pr"
    assert main(["run", *BOARD, "--agent", AGENT, "--trials", "2", "--out", str(out)]) == 0
    summary = read_summary(out)
    assert summary["verdict"] == "inconclusive", summary["reasons"]
    return out


def test_continuing_an_inconclusive_run_adds_trials_to_the_same_run_and_keeps_its_looks(
    project: Path,
) -> None:
    out = _inconclusive(project)
    before = results(out)
    assert len(before) == 4
    Cycling.pattern, Cycling.calls = ["wrong-row"], 0  # from now on the drop is plain
    assert main(["run", "--continue", str(out)]) in (0, 1)
    after = results(out)
    assert after[: len(before)] == before  # the trials already run stay, unchanged, in the same run
    assert len(after) > len(before)
    assert sorted(r["trial"] for r in after) == list(range(len(after)))  # trial numbers carry on
    meta = json.loads((out / "run.json").read_text(encoding="utf-8"))
    assert len(meta["continued"]) == 1 and meta["trials_budget"] == 8
    summary = read_summary(out)
    assert summary["gate"]["confidence"] == pytest.approx(0.998)  # regression only past the interim line
    assert summary["gate"]["budget"] == 8
    # compare reads the same run the same way: the continuation is part of the run
    assert main(["compare", "--run", str(out)]) in (0, 1)
    assert read_summary(out)["gate"]["confidence"] == pytest.approx(0.998)


def test_a_decided_run_is_not_continued(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _settings(project)
    _bless(project)
    Cycling.pattern, Cycling.calls = ["reference", "wrong-row"], 0
    out = project / "runs" / "same"
    assert main(["run", *BOARD, "--agent", AGENT, "--trials", "2", "--out", str(out)]) == 0
    assert read_summary(out)["verdict"] == "pass"
    assert main(["run", "--continue", str(out)]) == 2
    assert "only an inconclusive run is continued" in capsys.readouterr().err
    assert "continued" not in json.loads((out / "run.json").read_text(encoding="utf-8"))


def test_a_run_whose_agent_changed_is_not_continued(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = _inconclusive(project)
    out_meta = out / "run.json"
    meta = json.loads(out_meta.read_text(encoding="utf-8"))
    meta["agent_config_hash"] = "0" * 64
    out_meta.write_text(json.dumps(meta), encoding="utf-8")
    assert main(["run", "--continue", str(out)]) == 2
    assert "the agent changed since this run started" in capsys.readouterr().err


def test_continue_takes_the_runs_own_settings() -> None:
    assert main(["run", "--continue", "runs/x", "--trials", "9"]) == 2
    assert main(["run", "--resume", "runs/x", "--budget-usd", "3"]) == 2


def test_a_continuation_extends_the_schedule_and_holds_every_look_to_the_interim_line() -> None:
    gate = GateConfig()
    assert continued(gate, 0) == gate
    once = continued(gate, 1)
    assert once.max_trials == 2 * gate.max_trials and once.confidence == gate.interim_confidence
    assert once.guard_alpha == pytest.approx((1 - gate.interim_confidence) / 2)
    assert continued(gate, 2).max_trials == 3 * gate.max_trials
