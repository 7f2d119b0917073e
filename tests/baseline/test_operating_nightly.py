"""A dry run of the nightly's steps with the gate's own record added: two shards, the canary job, then
the fan-in's scripts in order (merge, history, operating, bless, compare), offline on replays. After it
baseline/operating.jsonl holds the night's A/A line and the canary's line, and the compare step's
report (the one the job summary shows) says them in its first screen.

The workflow itself is not edited here (docs/github.md, "How the nightly is sharded", gives the steps);
this runs the stage scripts the steps call, as the workflow would, in a copy of the project.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

from tests.support.paths import ROOT


def step(project: Path, script: str, **env: str) -> subprocess.CompletedProcess[str]:
    """One workflow step: `bash scripts/NAME.sh` in the checkout with the step's env, no secret."""
    path = f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"
    done = subprocess.run(
        ["bash", str(ROOT / "scripts" / script)],
        cwd=project,
        env={"PATH": path, "HOME": str(project), **env},
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode in (0, 1), f"{script}: {done.stdout}\n{done.stderr}"
    return done


def test_the_fan_in_records_the_nights_aa_check_and_the_canary_and_the_report_says_so(project: Path) -> None:
    config = project / "evals.yaml"
    config.write_text(
        re.sub(r"^suite: .*$", "suite: [board-move]", config.read_text(encoding="utf-8"), flags=re.M),
        encoding="utf-8",
    )
    (project / "canary" / "canary.yaml").write_text(
        "description: board-move plays appended-note\noffline:\n  board-move: appended-note\n",
        encoding="utf-8",
    )
    night = {"EVALS_SCENARIOS": "board-move", "EVALS_TRIALS": "6"}
    agent = "replay:reference,appended-note,reference"  # each half of the six trials scores 3, 0 and 3
    for i in (0, 1):
        step(
            project,
            "agent.sh",
            RUN_DIR=f"runs/shards/s{i}",
            EVALS_TRIAL_SLICE=f"{i}/2",
            EVALS_AGENT=agent,
            **night,
        )
    step(project, "canary.sh", CANARY_DIR="runs/canary")  # the canary job (its own checkout in Actions)
    (project / "baseline" / "operating.jsonl").unlink()  # …whose line is thrown away with that checkout

    fan_in = {"RUN_DIR": "runs/nightly", "SHARDS_DIR": "runs/shards"}
    step(project, "merge.sh", **fan_in)
    step(project, "history.sh", **fan_in)
    said = step(project, "operating.sh", CANARY_DIR="runs/canary", **fan_in).stdout
    assert "A/A check of nightly: pass (trials per half: board-move 3+3)" in said
    assert "Canary canary: caught" in said
    step(project, "bless.sh", BASELINE_OUT="candidate/baseline.json", BLESS_FORCE="1", **fan_in)
    step(project, "compare.sh", **fan_in)

    lines = [json.loads(x) for x in (project / "baseline" / "operating.jsonl").read_text().splitlines()]
    assert [(x["kind"], x["run"], x["verdict"]) for x in lines] == [
        ("aa", "nightly", "pass"),
        ("canary", "canary", "regression"),
    ]
    report = (project / "runs" / "nightly" / "report.md").read_text(encoding="utf-8")
    first_screen = "\n".join(report.splitlines()[:25])
    assert "**0 false alarms in 1 nightly A/A check**; **caught the canary in 1 of 1**" in first_screen
    # the night's trend (history.sh, `trend --run`) below the verdict, put there by `compare` alone
    trend = (project / "runs" / "nightly" / "trend.md").read_text(encoding="utf-8")
    assert trend.startswith("### Nightly trend") and report.endswith("\n" + trend)
    assert report.count("### Nightly trend") == 1
    # a re-run fan-in job appends nothing
    step(project, "operating.sh", CANARY_DIR="runs/canary", **fan_in)
    assert len((project / "baseline" / "operating.jsonl").read_text().splitlines()) == 2
