"""Trials by measured noise inside `run` (evals/gate/allocate.py, evals/run/runner.py): a scenario that
never varied in the baseline starts at one trial and earns more only when a trial differs."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import ClassVar

import pytest

from evals.agents import AgentPrompts, AgentResult
from evals.agents.resolve import resolve_agent
from evals.cli import main
from evals.records.model import RunMeta
from evals.records.trials import planned_trials
from evals.scenario.load import load_scenario
from evals.world.toolset import Toolset
from tests.support.agents import results
from tests.support.project import read_summary

AGENT = "tests.run.test_allocation:NoisyHereQuietThere"
SCENARIOS = ["--scenario", "board-move", "--scenario", "inbox-triage"]


class NoisyHereQuietThere:
    """A team's own agent (not declared deterministic): on board-move it alternates, call by call,
    between the reference and the wrong row (scores 3 and lower), as a model's scores spread; on
    inbox-triage it always plays the reference (3 of 3), except for its first call after `odd` is
    set, where it does nothing."""

    calls: ClassVar[int] = 0
    odd: ClassVar[bool] = False

    async def __call__(self, prompts: AgentPrompts, toolset: Toolset) -> AgentResult | str | None:
        root = Path.cwd()
        scenarios = {n: load_scenario(root / "scenario", n) for n in ("board-move", "inbox-triage")}
        name = next(n for n, s in scenarios.items() if s.render(s.prompts.task, 0) == prompts.task)
        if name == "board-move":
            NoisyHereQuietThere.calls += 1
            replay = "reference" if NoisyHereQuietThere.calls % 2 else "wrong-row"
        elif NoisyHereQuietThere.odd:
            NoisyHereQuietThere.odd = False
            return "did nothing"
        else:
            replay = "reference"
        choice = resolve_agent(f"replay:{replay}", scenarios[name], root / "scenario" / name, root / "agent")
        return await choice.make(0)(prompts, toolset)


def _allocate(project: Path, on: bool) -> None:
    config = project / "evals.yaml"
    text = config.read_text(encoding="utf-8")
    config.write_text(text.replace(f"allocate: {str(not on).lower()}", f"allocate: {str(on).lower()}"))


def _default_trials(project: Path, k: int) -> None:
    """evals.yaml's `trials`: allocation applies to the default k only; an explicit --trials runs."""
    config = project / "evals.yaml"
    text = config.read_text(encoding="utf-8")
    config.write_text(re.sub(r"(?m)^trials: \d+", f"trials: {k}", text))


def _bless(project: Path) -> None:
    """A baseline of 4 trials of each (as the nightly's shards, which never allocate): board-move
    spreads, inbox-triage scores 3 every time."""
    NoisyHereQuietThere.odd = False
    base = project / "runs" / "base"
    _allocate(project, on=False)
    assert main(["run", *SCENARIOS, "--agent", AGENT, "--trials", "4", "--out", str(base)]) in (0, 1)
    assert main(["baseline", "bless", "--run", str(base), "--force"]) == 0
    _allocate(project, on=True)


def _trials(out: Path) -> dict[str, list[int]]:
    got: dict[str, list[int]] = {}
    for line in results(out):
        got.setdefault(line["scenario"], []).append(line["trial"])
    return {name: sorted(trials) for name, trials in got.items()}


def test_a_quiet_scenario_runs_one_trial_while_a_noisy_one_runs_k(project: Path) -> None:
    _bless(project)
    _default_trials(project, 2)
    out = project / "runs" / "pr"
    main(["run", *SCENARIOS, "--agent", AGENT, "--out", str(out)])
    trials = _trials(out)
    assert trials["inbox-triage"] == [0]
    assert len(trials["board-move"]) >= 2
    meta = json.loads((out / "run.json").read_text())
    assert meta["scenario_trials"] == {"inbox-triage": 1}
    assert main(["compare", "--run", str(out)]) in (0, 1)  # the records validate as planned
    assert read_summary(out)["scenarios"]["inbox-triage"]["k"] == 1


def test_a_quiet_scenario_whose_trial_differs_joins_the_schedule(project: Path) -> None:
    _bless(project)
    _default_trials(project, 2)
    NoisyHereQuietThere.odd = True
    try:
        out = project / "runs" / "odd"
        main(["run", *SCENARIOS, "--agent", AGENT, "--out", str(out)])
    finally:
        NoisyHereQuietThere.odd = False
    trials = _trials(out)
    assert trials["inbox-triage"] == trials["board-move"] and len(trials["inbox-triage"]) >= 2
    assert "scenario_trials" not in json.loads((out / "run.json").read_text())


def test_with_allocation_off_every_scenario_runs_k(project: Path) -> None:
    _bless(project)
    _allocate(project, on=False)
    _default_trials(project, 2)
    out = project / "runs" / "off"
    main(["run", *SCENARIOS, "--agent", AGENT, "--out", str(out)])
    assert len(_trials(out)["inbox-triage"]) >= 2


def test_an_explicit_trials_is_what_runs(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """#39: `--trials 3` printed "× 3" and ran one trial of a scenario quiet in the baseline. Asked
    for, k is what runs (the gate may still add trials at its looks); allocation is the default's."""
    _bless(project)
    out = project / "runs" / "asked"
    main(["run", *SCENARIOS, "--agent", AGENT, "--trials", "3", "--out", str(out)])
    trials = _trials(out)
    assert trials["inbox-triage"][:3] == [0, 1, 2] and trials["board-move"][:3] == [0, 1, 2]
    meta = json.loads((out / "run.json").read_text())
    assert meta["trials"] >= 3 and "scenario_trials" not in meta
    assert "board-move, inbox-triage × 3 with" in capsys.readouterr().err


def test_the_console_says_which_scenarios_start_at_one_trial(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _bless(project)
    _default_trials(project, 2)
    main(["run", *SCENARIOS, "--agent", AGENT, "--out", str(project / "runs" / "default")])
    err = capsys.readouterr().err
    assert "board-move, inbox-triage × 2 (inbox-triage × 1: quiet in the baseline) with" in err


def test_a_record_past_a_scenarios_allocation_is_not_a_planned_trial() -> None:
    meta = RunMeta(trials=3, scenarios=["a", "b"], scenario_trials={"b": 1})
    assert planned_trials(meta, "a") == [0, 1, 2]
    assert planned_trials(meta, "b") == [0]
    assert planned_trials(meta) == [0, 1, 2]


def test_a_noisy_scenario_starts_below_k_where_the_baselines_spread_allows_and_looks_after_each_trial(
    project: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """#39: where the baseline's spread predicts that a first look can decide (evals/gate/allocate.py
    `first_look`), the noisy scenario starts at one trial and the run looks after each trial up to
    k; run.json keeps the ramp so a resumed run keeps the schedule. Here board-move's 4 blessed trials
    stand in for a suite's many (the degrees of freedom asked for are lowered) and the threshold is
    wide, so the prediction allows it."""
    import evals.gate.allocate as allocate_module

    _bless(project)
    monkeypatch.setattr(allocate_module, "MIN_SPREAD_DF", 1)
    _default_trials(project, 3)
    config = project / "evals.yaml"
    config.write_text(
        re.sub(r"(?m)^  (?:points|percent): [\d.]+", "  percent: 60", config.read_text(encoding="utf-8"))
    )
    out = project / "runs" / "ramp"
    main(["run", *SCENARIOS, "--agent", AGENT, "--out", str(out)])
    meta = json.loads((out / "run.json").read_text())
    assert meta["ramp"] == 3 and meta["trials"] < 3
    assert _trials(out)["board-move"] == list(range(meta["trials"]))
    assert "× 1 (a look after each trial up to 3" in capsys.readouterr().err
    assert main(["compare", "--run", str(out)]) in (0, 1)  # the records validate as planned
