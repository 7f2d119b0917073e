"""Where a task keeps its replays: scripted runs of its tools (evals/agents/replay.py), one YAML file
each. Apart from the agents, so the scenario loader, `check-task` and the comparison can name them
without importing a replay's models (the CLI's start-up imports `check-task`)."""

from __future__ import annotations

from pathlib import Path

REFERENCE = "reference"  # the replay every task ships, which `evals check-task` holds to full marks


def replay_path(folder: Path, name: str) -> Path:
    return folder / "replays" / f"{name}.yaml"
