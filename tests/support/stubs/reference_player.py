"""A scripted Claude for the stub Messages server: plays a replay fixture as tool_use turns.

Each request carries the whole conversation, so the player is stateless: it counts the assistant
turns so far, rebuilds the fixture's saved results from the tool_result blocks it got back, and
answers with the next group of steps as tool_use blocks (several in one turn, like Claude). That
lets many concurrent trials share one stub. Judge calls (a `system` that starts "You grade one
criterion") get full marks, so a correct run scores full points end to end.

`flaky()` wraps any reply function to fail the first attempt of every Nth distinct request with
429, 529 or 500 in turn; a retried request (same body) always succeeds, so the SDK's retries get
every trial through, deterministically.
"""

from __future__ import annotations

import hashlib
import json
import re
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from evals.agents.replay import ReplayFixture, load_fixture, render
from evals.scenario.load import load_scenario
from tests.support.stubs.anthropic_stub import OVERLOADED, RATE_LIMITED, SERVER_ERROR, Reply, message, text

ReplyFn = Callable[[dict[str, Any]], Reply]
JUDGE_SYSTEM = "You grade one criterion"
REPO = re.compile(r"GitHub repository for this work is ([\w-]+)/([\w-]+(?:\.[\w-]+)*)")
POINTS = (re.compile(r"Criterion \((\d+) point"), re.compile(r"score\"?: <0 to (\d+)>"))

# The reference run of trial-run in five tool turns. Steps in one group never depend on each other's
# results, but order within a group matters (branch before commit before pull request).
TRIAL_RUN_GROUPS: list[list[int]] = [[0, 2, 4, 5, 6], [1, 3, 7, 8, 9, 10, 11], [12], [13], [14, 15]]
USAGE = {"input_tokens": 1200, "output_tokens": 300, "cache_read": 900, "cache_write": 100}


def is_judge(body: dict[str, Any]) -> bool:
    system = body.get("system")
    return isinstance(system, str) and system.startswith(JUDGE_SYSTEM)


def judge_reply(body: dict[str, Any]) -> Reply:
    prompt = json.dumps(body.get("messages", []))
    for pattern in POINTS:
        found = pattern.search(prompt)
        if found:
            return text(f'Meets the criterion.\n{{"critique": "meets it", "score": {found.group(1)}}}')
    return text('{"critique": "cannot tell", "score": "unknown"}')


def _system_text(body: dict[str, Any]) -> str:
    system = body.get("system", "")
    if isinstance(system, list):
        return "".join(block.get("text", "") for block in system)
    return str(system)


class ReferencePlayer:
    """Reply function for StubAnthropic(default=...): a correct agent, one conversation per trial."""

    def __init__(
        self,
        scenario_root: Path,
        scenario: str = "trial-run",
        fixture: str = "reference",
        groups: list[list[int]] | None = None,
        delay_s: float = 0.0,
        echo: str | None = None,
    ) -> None:
        loaded = load_scenario(scenario_root, scenario)
        self.fixture: ReplayFixture = load_fixture(scenario_root / scenario, fixture)
        self.groups = groups or TRIAL_RUN_GROUPS
        self.delay_s = delay_s
        self.echo = echo
        self.variables: dict[str, Any] = {
            "agent": {"address": loaded.agent_address},
            "persona": {p.id: p.address for p in loaded.personas},
        }
        self.lock = threading.Lock()
        self.agent_calls = 0
        self.judge_calls = 0
        self.agent_spans: list[tuple[float, float]] = []  # (arrived, answered) per agent call, perf_counter

    def __call__(self, body: dict[str, Any]) -> Reply:
        arrived = time.perf_counter()
        if self.delay_s:
            time.sleep(self.delay_s)  # the server is threaded: concurrent requests wait in parallel
        if is_judge(body):
            with self.lock:
                self.judge_calls += 1
            return judge_reply(body)
        with self.lock:
            self.agent_calls += 1
            self.agent_spans.append((arrived, time.perf_counter()))
        messages: list[dict[str, Any]] = body["messages"]
        turn = sum(1 for m in messages if m["role"] == "assistant")
        if turn >= len(self.groups):
            final = self.fixture.final_text + (f" {self.echo}" if self.echo else "")
            return text(final, **USAGE)
        context = self._context(body, messages)
        calls = []
        for index in self.groups[turn]:
            step = self.fixture.steps[index]
            args = render(step.args, context)
            if self.echo and step.tool == "GMAIL_REPLY_TO_THREAD":
                args = {**args, "message_body": f"{args['message_body']}\n{self.echo}"}
            calls.append({"type": "tool_use", "id": f"toolu_{index:02d}", "name": step.tool, "input": args})
        preface = [{"type": "text", "text": f"Turn {turn + 1}: working."}]
        return message(
            preface + calls,
            stop_reason="tool_use",
            input_tokens=1200,
            output_tokens=300,
            cache_read=900,
            cache_write=100,
        )

    def _context(self, body: dict[str, Any], messages: list[dict[str, Any]]) -> dict[str, Any]:
        repo = REPO.search(_system_text(body))
        assert repo is not None, "the system prompt names the trial's repository"
        context: dict[str, Any] = {**self.variables, "repo": {"owner": repo.group(1), "name": repo.group(2)}}
        for m in messages:
            if m["role"] != "user" or isinstance(m["content"], str):
                continue
            for block in m["content"]:
                if block.get("type") != "tool_result":
                    continue
                step = self.fixture.steps[int(block["tool_use_id"].removeprefix("toolu_"))]
                content = block["content"]
                if isinstance(content, list):
                    content = "".join(b.get("text", "") for b in content)
                if step.save:
                    context[step.save] = json.loads(content)
        return context


def flaky(reply: ReplyFn, every: int = 4) -> ReplyFn:
    """Fail the first attempt of every `every`-th distinct request (429, 529, 500 in turn).

    With every=4, one response in five is an error: 20%.
    """
    lock = threading.Lock()
    seen: set[str] = set()
    failures = [RATE_LIMITED, OVERLOADED, SERVER_ERROR]
    counter = {"distinct": 0, "failed": 0}

    def wrapped(body: dict[str, Any]) -> Reply:
        key = hashlib.sha256(json.dumps(body, sort_keys=True).encode()).hexdigest()
        with lock:
            first = key not in seen
            seen.add(key)
            if first:
                counter["distinct"] += 1
                if counter["distinct"] % every == 0:
                    failure = failures[counter["failed"] % len(failures)]
                    counter["failed"] += 1
                    return failure
        return reply(body)

    wrapped.counter = counter  # type: ignore[attr-defined]
    return wrapped
