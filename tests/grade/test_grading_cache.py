"""Grading CPU: one `ast` parse per distinct source per grade, and probe results reused across trials."""

from __future__ import annotations

import ast
import asyncio
import subprocess
from collections import Counter
from typing import Any

import pytest

from evals.agents.base import AgentPrompts
from evals.agents.replay import ReplayAgent, load_fixture
from evals.grade.checks.python_ast import clear_parse_cache, parse
from evals.grade.grader import layer_one
from evals.grade.probes.runner import RESULTS, ProbeCache, ProbeResult
from evals.grade.rubric import Rubric, load_rubric
from evals.grade.task import Task
from evals.scenario.load import load_scenario
from evals.scenario.model import Scenario
from evals.world.outcome import Outcome
from evals.world.sandbox.seed import seed
from evals.world.sandbox.snapshot import outcome
from evals.world.sandbox.tools.toolset import SandboxToolset
from tests.support.paths import ROOT

FOLDER = ROOT / "scenario" / "nightshift"


def replayed(scenario: Scenario, trial: int) -> Outcome:
    """The reference replay's outcome for one trial, played in a fresh sandbox world."""
    world = seed(scenario, trial)
    variables = {
        "repo": {"owner": scenario.repo.owner, "name": scenario.repo_name(trial)},
        "agent": {"address": scenario.agent_address},
        "persona": {p.id: p.address for p in scenario.personas},
    }
    agent = ReplayAgent(load_fixture(FOLDER, "reference"), "reference", variables)
    asyncio.run(agent(AgentPrompts(system="", task=""), SandboxToolset(world)))
    return outcome(world)


@pytest.fixture(scope="module")
def scenario() -> Scenario:
    return load_scenario(ROOT / "scenario", "nightshift")


@pytest.fixture(scope="module")
def rubric() -> Rubric:
    return load_rubric(FOLDER)


def passed_parts(staged: dict[str, Any]) -> list[str]:
    return sorted(pid for pid, s in staged.items() if getattr(s, "status", "pending") != "failed")


def test_each_distinct_source_is_parsed_once_per_grade(
    scenario: Scenario, rubric: Rubric, monkeypatch: pytest.MonkeyPatch
) -> None:
    snap = replayed(scenario, 0)
    clear_parse_cache()
    parsed: Counter[str] = Counter()
    real = ast.parse

    def counting(source: Any, *args: Any, **kwargs: Any) -> Any:
        parsed[source] += 1
        return real(source, *args, **kwargs)

    monkeypatch.setattr(ast, "parse", counting)
    staged = layer_one(snap, Task(scenario, rubric, FOLDER))
    assert len(parsed) >= 4, "the Nightshift rubric reads settings, the processor, the client and routes"
    assert max(parsed.values()) == 1, [s.splitlines()[0] for s, n in parsed.items() if n > 1]
    assert len(passed_parts(staged)) == len(staged)  # the reference passes every layer-1 check


def test_a_syntax_error_is_remembered_and_raised_afresh_each_time() -> None:
    clear_parse_cache()
    errors = []
    for _ in range(2):
        with pytest.raises(SyntaxError) as caught:
            parse("def broken(:\n")
        errors.append(caught.value)
    assert errors[0] is not errors[1] and errors[0].lineno == errors[1].lineno == 1


def test_a_second_trial_with_the_same_tree_runs_no_probe(
    scenario: Scenario, rubric: Rubric, monkeypatch: pytest.MonkeyPatch
) -> None:
    first, second = replayed(scenario, 0), replayed(scenario, 1)
    assert first.repos[0].full_name != second.repos[0].full_name  # two trials, two worlds
    one = layer_one(first, Task(scenario, rubric, FOLDER))
    hits, misses = RESULTS.hits, RESULTS.misses
    spawned: list[Any] = []
    real = subprocess.run

    def counting(*args: Any, **kwargs: Any) -> Any:
        spawned.append(args)
        return real(*args, **kwargs)

    monkeypatch.setattr(subprocess, "run", counting)
    two = layer_one(second, Task(scenario, rubric, FOLDER))
    assert spawned == [] and RESULTS.misses == misses and RESULTS.hits > hits
    for part in ("C2a", "C2b", "C3", "C4a", "C4b"):
        assert getattr(one[part], "reason", None) == getattr(two[part], "reason", None), part


def test_the_probe_cache_is_bounded_and_keeps_no_timeout() -> None:
    cache = ProbeCache(size=2)
    runs: list[str] = []

    def run(key: str, error: str = "") -> ProbeResult:
        def go() -> ProbeResult:
            runs.append(key)
            return ProbeResult(not error, error=error)

        return cache.get_or_run(key, go)

    for key in ("a", "b", "a", "c", "b"):
        run(key)
    assert runs == ["a", "b", "c", "b"]  # "a" was used last, so "b" was the one dropped for "c"
    for _ in range(2):
        run("slow", "probe timed out after 20s")
    run("crash", "probe exited 1 without a result")
    run("crash", "probe exited 1 without a result")
    assert runs[-3:] == ["slow", "slow", "crash"]
    assert cache.hits == 2 and cache.misses == 7
