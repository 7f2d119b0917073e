"""The model judge against the stub Messages server: a server answering per part, and a one-trial run."""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from evals.cli import main
from tests.support.stubs.anthropic_stub import Reply, StubAnthropic, text

Answer = Callable[[str], Reply]


def part_of(body: dict[str, Any]) -> str:
    match = re.search(r"grading part (\w+)", body["messages"][0]["content"])
    assert match, "a judge request names its part"
    return match.group(1)


def verdict(score: int | str, critique: str = "checked") -> Reply:
    return text(f"Critique first.\n{json.dumps({'critique': critique, 'score': score})}")


@contextmanager
def judge_server(monkeypatch: pytest.MonkeyPatch, answer: Answer) -> Iterator[StubAnthropic]:
    with StubAnthropic(default=lambda body: answer(part_of(body))) as stub:
        monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-test-judge")
        monkeypatch.setenv("ANTHROPIC_BASE_URL", stub.url)
        yield stub


def run(out: Path, replay: str = "reference", *more: str) -> int:
    """One trial, compared with no baseline: these tests are about the judge, not the gate's verdict.
    (The project is the test's throwaway copy; an explicit --baseline that does not exist is bad
    input, so the copy's baseline goes.)"""
    (out.parent.parent / "baseline" / "baseline.json").unlink(missing_ok=True)
    args = ["--agent", f"replay:{replay}", "--out", str(out), *more]
    return main(["run", "--scenario", "trial-run", *args])


def parts(out: Path) -> dict[str, dict[str, Any]]:
    grade = json.loads((out / "trials" / "trial-run" / "0" / "grade.json").read_text(encoding="utf-8"))
    return {p["id"]: p for p in grade["parts"]}


def asked(stub: StubAnthropic) -> list[str]:
    return [part_of(body) for body in stub.requests]


class Overlap:
    """A stub answer that counts the judge calls in flight: each call waits until a second one is in
    flight with it (a barrier), so calls that never overlap time out instead of passing."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.in_flight = 0
        self.peak = 0
        self.pairs = threading.Barrier(2, timeout=30)

    def __call__(self, part: str) -> Reply:
        with self.lock:
            self.in_flight += 1
            self.peak = max(self.peak, self.in_flight)
        self.pairs.wait()
        with self.lock:
            self.in_flight -= 1
        return verdict(1)
