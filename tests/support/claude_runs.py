"""Helpers for running `--agent claude` against the stub Messages server in a throwaway project."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.support.stubs.anthropic_stub import Reply, StubAnthropic
from tests.support.stubs.reference_player import is_judge, judge_reply

RUN = ["run", "--scenario", "trial-run", "--agent", "claude"]


def use_stub(monkeypatch: pytest.MonkeyPatch, url: str) -> None:
    monkeypatch.setenv("ANTHROPIC_BASE_URL", url)
    monkeypatch.setenv("ANTHROPIC_API_KEY", "stub-key-0123456789")


def set_agent(project: Path, **changes: Any) -> None:
    path = project / "agent" / "agent.yaml"
    data = yaml.safe_load(path.read_text())
    data.update(changes)
    path.write_text(yaml.safe_dump(data))


def every_trial(project: Path) -> None:
    """Run every trial asked for: allocation by measured noise (`gate.allocate`) would start trial-run,
    quiet in the committed baseline, at one trial, and these tests are about the loop over k trials."""
    path = project / "evals.yaml"
    config = yaml.safe_load(path.read_text(encoding="utf-8"))
    config["gate"]["allocate"] = False
    path.write_text(yaml.safe_dump(config), encoding="utf-8")


def read_json(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def results(out: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]


def agent_requests(stub: StubAnthropic) -> list[dict[str, Any]]:
    return [r for r in stub.requests if not is_judge(r)]


def scripted(*replies: Reply) -> Callable[[dict[str, Any]], Reply]:
    """Agent calls take the next reply in order; judge calls get full marks."""
    queue = list(replies)

    def reply(body: dict[str, Any]) -> Reply:
        return judge_reply(body) if is_judge(body) else queue.pop(0)

    return reply
