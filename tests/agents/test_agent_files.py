"""Agent files stay in `agent/`, and the limits that decide whose failure a trial is have floors.

Replays the issue's attacks on a copy of the project: `system_addendum` pointed at
`/proc/self/environ`, out of `agent/` with `..`, at a file of the PR head outside `agent/`, or through a
link; a PR that lowers `timeout_s` and `max_retries` to turn the model's failures into infrastructure
errors the score leaves out.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from evals.agents.config import FILE_LIMIT, load_agent_config
from evals.cli import main
from evals.core.config import AgentLimits
from evals.core.errors import BadInputError
from evals.gate.fingerprint import agent_config_hash
from tests.support.claude_runs import every_trial
from tests.support.stubs.anthropic_stub import StubAnthropic
from tests.support.stubs.reference_player import ReferencePlayer, flaky


def set_agent(project: Path, **changes: Any) -> None:
    path = project / "agent" / "agent.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    data.update(changes)
    path.write_text(yaml.safe_dump(data), encoding="utf-8")


def refused(project: Path) -> str:
    with pytest.raises(BadInputError) as caught:
        load_agent_config(project / "agent")
    return str(caught.value)


@pytest.mark.parametrize(
    ("addendum", "says"),
    [
        ("/proc/self/environ", "inside agent/"),
        ("agent/../../../../proc/self/environ", "inside agent/"),
        ("agent/../evals.yaml", "inside agent/"),
        ("scenario/trial-run/prompts/system.md", "outside agent/"),
        ("README.md", "outside agent/"),
        ("agent", "outside agent/"),
    ],
)
def test_a_system_addendum_outside_agent_is_refused(project: Path, addendum: str, says: str) -> None:
    set_agent(project, system_addendum=addendum)
    assert says in refused(project)


def test_a_link_in_agent_is_refused_even_a_dangling_one(project: Path) -> None:
    environ = project / "agent" / "prompt.md"
    environ.unlink()
    environ.symlink_to("/proc/self/environ")
    assert "a link" in refused(project)
    environ.unlink()
    environ.symlink_to(project / "agent" / "no-such-file")
    assert "a link" in refused(project)


def test_a_link_to_a_folder_is_refused_without_walking_into_it(project: Path) -> None:
    (project / "agent" / "everything").symlink_to("/")
    assert "agent/everything: a link" in refused(project)


def test_a_fifo_or_an_oversized_file_in_agent_is_refused(project: Path) -> None:
    fifo = project / "agent" / "pipe"
    os.mkfifo(fifo)
    assert "not a regular file" in refused(project)
    fifo.unlink()
    (project / "agent" / "huge.md").write_bytes(b"x" * (FILE_LIMIT + 1))
    assert "bytes" in refused(project)


def test_the_addendum_is_read_from_agent_and_is_part_of_the_agent_hash(project: Path) -> None:
    config, addendum = load_agent_config(project / "agent")
    assert config.system_addendum == "agent/prompt.md" and addendum
    before = agent_config_hash(project / "agent")
    (project / "agent" / "prompt.md").write_text(addendum + "\nAlways pass.\n", encoding="utf-8")
    assert agent_config_hash(project / "agent") != before


def set_floors(project: Path, **floors: float) -> None:
    config = project / "evals.yaml"
    block = "agent_limits:\n" + "".join(f"  {k}: {v}\n" for k, v in floors.items())
    text = re.sub(r"^agent_limits:.*\n(  .*\n)+", block, config.read_text(encoding="utf-8"), flags=re.M)
    config.write_text(text, encoding="utf-8")


def test_a_pr_cannot_lower_the_request_timeout_or_the_retries_below_the_definitions_floors(
    project: Path,
) -> None:
    set_agent(project, timeout_s=1, max_retries=0)
    config, _ = load_agent_config(project / "agent")
    assert (config.timeout_s, config.max_retries) == (600, 4)  # evals.yaml's agent_limits
    set_floors(project, timeout_s=30, max_retries=2)
    config, _ = load_agent_config(project / "agent")
    assert (config.timeout_s, config.max_retries) == (30, 2)
    set_agent(project, timeout_s=900, max_retries=6)  # asking for more patience is the agent's choice
    assert load_agent_config(project / "agent", AgentLimits())[0].timeout_s == 900


def test_lowered_limits_cannot_turn_the_models_failures_into_excluded_errors(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every other request's first attempt fails (429, 529, 500). With the PR's `max_retries: 0`
    each such trial would be an infrastructure error, left out of the score; the definition's floor
    retries it, so both trials are graded."""
    set_floors(project, timeout_s=600, max_retries=2)
    set_agent(project, timeout_s=1, max_retries=0)
    every_trial(project)
    out = project / "runs" / "floors"
    reply = flaky(ReferencePlayer(project / "scenario"), every=2)
    with StubAnthropic(default=reply) as stub:
        monkeypatch.setenv("ANTHROPIC_BASE_URL", stub.url)
        monkeypatch.setenv("ANTHROPIC_API_KEY", "stub-key-0123456789")
        run = ["run", "--scenario", "trial-run", "--agent", "claude", "--trials", "2", "--out", str(out)]
        code = main(run)
    assert reply.counter["failed"] >= 4  # type: ignore[attr-defined]
    lines = (out / "results.jsonl").read_text(encoding="utf-8").splitlines()
    assert [yaml.safe_load(line)["status"] for line in lines] == ["ok", "ok"]
    assert code == 0
