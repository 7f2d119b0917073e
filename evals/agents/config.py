"""`agent/agent.yaml`: the Claude agent's model, limits, sampling and tool allowlist.

This file (with the prompt it points to) is what a pull request changes and what the gate judges,
so it is validated strictly: a misspelt `max_turn` silently ignored would run a different agent
from the one the reviewer read.

Everything the agent is lives in `agent/`: the files there are all regular files (no link, no
device), none larger than FILE_LIMIT, and every path agent.yaml names (`system_addendum`) resolves
inside it, so a PR cannot read `/proc/self/environ` or a file outside `agent/` into the system
prompt, and everything that shapes the agent is in the agent hash (evals/gate/fingerprint.py
hashes every file of `agent/`). The limits that decide whose failure a trial is (`timeout_s`,
`max_retries`) have floors in the eval definition (`agent_limits` in evals.yaml): a value below
its floor is raised to it, so the model's slow answers stay the agent's to bear.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Literal

from pydantic import Field

from evals.core.config import CONFIG_FILE, AgentLimits, load_config
from evals.core.errors import BadInputError
from evals.core.loading import load_model
from evals.core.model import FrozenModel

AGENT_FILE = "agent.yaml"
FILE_LIMIT = 256 * 1024  # bytes per file in agent/ (a prompt is a few kB)
TOTAL_LIMIT = 1024 * 1024


class Thinking(FrozenModel):
    """`thinking` as the Messages API takes it (sent only when configured; unset: the model's default,
    adaptive on Claude Sonnet 5.5). `display: summarized` returns the thinking text, and on Sonnet 5.5
    the notes written between tool calls, which come back as thinking blocks (empty when omitted)."""

    type: Literal["adaptive", "between_tools", "enabled", "disabled"] = "adaptive"
    display: Literal["summarized", "omitted"] | None = None
    budget_tokens: int | None = Field(default=None, ge=1024, description="only with type enabled")


class AgentConfig(FrozenModel):
    model: str = Field(min_length=1, description="model id; also the key into the pricing file")
    max_turns: int = Field(default=60, gt=0, description="model calls per trial before it is stopped")
    max_tokens: int = Field(
        default=16_000,
        gt=0,
        description="output tokens per model response, thinking included (the Messages API docs' "
        "thinking examples use 16000; a reply cut off here ends the trial)",
    )
    max_total_tokens: int | None = Field(
        default=None, gt=0, description="input + output tokens per trial before it is stopped (none: no cap)"
    )
    temperature: float | None = Field(
        default=None,
        ge=0,
        le=1,
        description="none: the model's default. Set, it is sent with anthropic-version 2023-06-01, "
        "because version 2026-10-21 (anthropic SDK 2.x) rejects sampling parameters",
    )
    effort: Literal["low", "medium", "high", "xhigh", "max"] | None = Field(
        default=None, description="output_config.effort; none: the model's default"
    )
    thinking: Thinking | None = Field(default=None, description="none: the model's default thinking")
    tools: list[str] = Field(default_factory=list, description="allowlist of tool slugs; empty: every tool")
    max_tool_result_chars: int | None = Field(
        default=40_000,
        gt=0,
        description="a longer tool result reaches the model cut to this many characters, with a note "
        "saying how much was left out and how to ask for less (the transcript keeps it whole); "
        "none: never cut. Live results (mail with payloads) can be tens of thousands of tokens",
    )
    system_addendum: str | None = Field(
        default=None,
        description="file appended to the scenario's system prompt: a path relative to the project root "
        "that resolves inside agent/ (e.g. agent/prompt.md)",
    )
    max_retries: int = Field(
        default=4,
        ge=0,
        le=20,
        description="SDK retries on 429, 529, 5xx, lost connections (floor: evals.yaml)",
    )
    timeout_s: float = Field(
        default=600.0, gt=0, description="per model request, retries excluded (floor: evals.yaml)"
    )

    def within(self, floors: AgentLimits) -> AgentConfig:
        """This config with `timeout_s` and `max_retries` raised to the definition's floors."""
        return self.model_copy(
            update={
                "timeout_s": max(self.timeout_s, floors.timeout_s),
                "max_retries": max(self.max_retries, floors.max_retries),
            }
        )


def check_agent_files(agent_dir: Path) -> None:
    """Every entry of `agent_dir` is a folder or a regular file of at most FILE_LIMIT bytes (and all
    together at most TOTAL_LIMIT): a link could make the agent (and its hash) whatever it points at.
    Walked without following links, so a link to `/` is refused, not listed."""
    total = 0
    if agent_dir.is_symlink():
        raise BadInputError(f"{agent_dir}: a link; the agent's files must be regular files in agent/")
    for folder, dirs, names in os.walk(agent_dir):
        for name in sorted([*dirs, *names]):
            path = Path(folder) / name
            info = path.lstat()
            where = path.relative_to(agent_dir.parent)
            if stat.S_ISLNK(info.st_mode):
                raise BadInputError(f"{where}: a link; the agent's files must be regular files in agent/")
            if stat.S_ISDIR(info.st_mode):
                continue
            if not stat.S_ISREG(info.st_mode):
                raise BadInputError(f"{where}: not a regular file")
            if info.st_size > FILE_LIMIT:
                raise BadInputError(
                    f"{where}: {info.st_size} bytes; a file of the agent may hold {FILE_LIMIT}"
                )
            total += info.st_size
    if total > TOTAL_LIMIT:
        raise BadInputError(f"{agent_dir}: {total} bytes in all; the agent's files may hold {TOTAL_LIMIT}")


def agent_file(agent_dir: Path, name: str, key: str) -> Path:
    """`name` (relative to the project root, as agent.yaml writes paths) as a file inside agent/."""
    relative = Path(name)
    if relative.is_absolute() or ".." in relative.parts or not relative.parts:
        raise BadInputError(f"{agent_dir / AGENT_FILE}: {key}: {name!r} must be a path inside agent/")
    path = agent_dir.parent / relative
    inside = agent_dir.resolve()
    if not path.resolve().is_relative_to(inside) or path.resolve() == inside:
        raise BadInputError(f"{agent_dir / AGENT_FILE}: {key}: {name!r} is outside agent/")
    if not path.is_file():
        raise BadInputError(f"{agent_dir / AGENT_FILE}: {key}: {path} not found")
    return path


def definition_floors(agent_dir: Path) -> AgentLimits:
    """The eval definition's floors: `agent_limits` of the evals.yaml beside agent/ (defaults without one)."""
    root = agent_dir.parent
    if not (root / CONFIG_FILE).is_file():
        return AgentLimits()
    return load_config(root)[0].agent_limits


def load_agent_config(agent_dir: Path, floors: AgentLimits | None = None) -> tuple[AgentConfig, str]:
    """The config (limits raised to the floors: `floors`, else the definition's) and the text of its
    system addendum (empty when it has none)."""
    if agent_dir.is_dir():
        check_agent_files(agent_dir)
    config = load_model(AgentConfig, agent_dir / AGENT_FILE)
    addendum = ""
    if config.system_addendum:
        path = agent_file(agent_dir, config.system_addendum, "system_addendum")
        try:
            addendum = path.read_text(encoding="utf-8").strip()
        except UnicodeDecodeError as exc:
            raise BadInputError(f"{path}: not UTF-8 text") from exc
    return config.within(floors if floors is not None else definition_floors(agent_dir)), addendum
