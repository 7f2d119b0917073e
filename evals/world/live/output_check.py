"""`evals tools check --outputs`: what Composio's tools really return, against what the sandbox returns.

Composio's docs pages document every tool's output only as the envelope, so the sandbox's result
shapes are designed (docs/tools.md). This runs the same tour of every tool
(`evals.world.live.tour`) on a freshly seeded live trial-run world and on the sandbox, names each
field the sandbox gives that the live result lacks or types otherwise (a prompt tuned offline would
read it and not find it live), and writes what it saw live as a fixture: per tool, every path of its
result with the JSON types seen there, no values (tests/fixtures/composio/observed_outputs.json, for
a maintainer to review and commit). The live world is removed afterwards, as after a trial.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from evals.core.jsonio import write_json
from evals.scenario.load import load_scenario
from evals.world.live.schema_diff import output_gaps, shape
from evals.world.live.tour import Call, Tour, TourStopped
from evals.world.sandbox.seed import seed
from evals.world.sandbox.tools.toolset import SandboxToolset

SCENARIO = "trial-run"
PERSONA = "dev"


@dataclass
class OutputCheck:
    """Per tool the differences found; `stopped` when the live tour could not go on."""

    gaps: dict[str, list[str]] = field(default_factory=dict)
    observed: dict[str, dict[str, list[str]]] = field(default_factory=dict)
    stopped: str | None = None


async def _tours(scenarios: Path) -> tuple[list[Call], list[Call], str | None]:
    from evals.world.live.backend import LiveBackend  # the live clients load only for this command

    scenario = load_scenario(scenarios, SCENARIO)
    persona = scenario.persona(PERSONA).address
    repo = (scenario.repo.owner, scenario.repo_name(0))
    offline = await Tour(SandboxToolset(seed(scenario, 0)), *repo, persona).run()
    env = await LiveBackend().create(scenario, 0, "tools-check")
    tour = Tour(env.toolset, *repo, persona)
    stopped = None
    try:
        await tour.run()
    except TourStopped as exc:
        stopped = str(exc)
    finally:
        await env.close()
    return offline, tour.calls, stopped


def compare(offline: list[Call], online: list[Call]) -> OutputCheck:
    """Pair the two tours call by call (the live one may have stopped early)."""
    check = OutputCheck()
    for ours, theirs in zip(offline, online, strict=False):
        found = output_gaps(ours.result, theirs.result)
        if found:
            check.gaps.setdefault(ours.slug, []).extend(
                f for f in found if f not in check.gaps.get(ours.slug, [])
            )
        seen = check.observed.setdefault(theirs.slug, {})
        for path, types in shape(theirs.result).items():
            seen[path] = sorted(set(seen.get(path, [])) | types)
    return check


def check_outputs(scenarios: Path, fixture: Path, versions: dict[str, str]) -> OutputCheck:
    """Tour both worlds, compare, write the observed live shapes to `fixture`."""
    offline, online, stopped = asyncio.run(_tours(scenarios))
    check = compare(offline, online)
    check.stopped = stopped
    observed: dict[str, Any] = {
        "observed": datetime.now(UTC).strftime("%Y-%m-%d"),
        "toolkit_versions": dict(sorted(versions.items())),
        "note": "what Composio's tools returned on a tour of the trial-run world: per tool, each path of "
        "the result and the JSON types seen there (no values); written by `evals tools check --outputs`",
        "tools": {slug: dict(sorted(paths.items())) for slug, paths in sorted(check.observed.items())},
    }
    fixture.parent.mkdir(parents=True, exist_ok=True)
    write_json(fixture, observed)
    return check
