"""How well trials overlap: 1 and then 8 trials of `--agent claude` against the stub Messages server.

    .venv/bin/python -m bench.agent [--delay 0.3] [--trials 8] [--repeat 3]

Every model call (agent and judge) waits a fixed delay in the stub, the way a real API call waits
for the model. While they wait, trials overlap, so k trials with concurrency k should take about as
long as one: the goal is wall(8) / wall(1) <= 1.5. Printed:

- end to end: the whole `evals run` (seed, agent, grade, judge, report). Grading runs the agent's
  tests in pytest subprocesses, which is CPU work, so on a small machine this ratio is bounded by
  the cores, not by the harness;
- agent phase: first to last model call of the agent loop, i.e. how well the trials' tool-use
  loops overlap (what the harness's concurrency controls);
- the harness's own time per trial: wall time not spent waiting on model calls.

Each figure is the best of `--repeat` runs: other load on a shared machine only ever adds time
(a run's trials take their turns in lockstep, and the harness's work between two model calls,
executing the tools, is CPU on one event loop: 8 trials' of it queue behind each other), so the
minimum is the least noisy estimate, as in bench/speed.py. Every run is checked to hold the trials
it was asked for: before explicit `--trials` ran what it said (#39), allocation ran one trial of
trial-run (quiet in the baseline) and the ratio compared one trial with one.

Runs in a throwaway copy of the project with a fresh judge cache per run, offline (127.0.0.1 only).
Not a test: timings depend on the machine. Exit 0 when the agent phase meets its goal, 1 when not.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

from evals.cli import main as evals_main
from tests.support.stubs.anthropic_stub import StubAnthropic
from tests.support.stubs.reference_player import ReferencePlayer

ROOT = Path(__file__).resolve().parent.parent
PROJECT_FILES = ("evals.yaml", "pricing.yaml")
PROJECT_DIRS = ("scenario", "baseline", "agent")


def copy_project(dest: Path) -> Path:
    dest.mkdir(parents=True)
    for name in PROJECT_FILES:
        shutil.copy(ROOT / name, dest / name)
    for name in PROJECT_DIRS:
        shutil.copytree(ROOT / name, dest / name, ignore=shutil.ignore_patterns("__pycache__"))
    return dest


def run_once(project: Path, player: ReferencePlayer, trials: int, name: str) -> tuple[float, float, int]:
    """Wall seconds of one `evals run`, of its agent phase, and the model calls it made."""
    shutil.rmtree(project / ".evals-cache", ignore_errors=True)
    before = player.agent_calls + player.judge_calls
    player.agent_spans.clear()
    args = ["run", "--scenario", "trial-run", "--agent", "claude"]
    args += ["--trials", str(trials), "--concurrency", str(trials), "--out", str(project / "runs" / name)]
    quiet = io.StringIO()
    started = time.perf_counter()
    with contextlib.redirect_stdout(quiet), contextlib.redirect_stderr(quiet):
        code = evals_main(args)
    wall = time.perf_counter() - started
    if code != 0:
        sys.exit(f"run {name} exited {code}:\n{quiet.getvalue()}")
    ran = trials_run(project / "runs" / name)
    if ran != trials:
        sys.exit(f"run {name} ran {ran} trials, not the {trials} asked for: the ratio would mean nothing")
    agent_wall = max(end for _, end in player.agent_spans) - min(start for start, _ in player.agent_spans)
    return wall, agent_wall, player.agent_calls + player.judge_calls - before


def trials_run(run_dir: Path) -> int:
    """Trials of trial-run the run holds (records, one line per finished trial)."""
    lines = (run_dir / "results.jsonl").read_text(encoding="utf-8").splitlines()
    return len({json.loads(line)["trial"] for line in lines if line.strip()})


def model_wait_per_trial(run_dir: Path, delay: float) -> float:
    """Model time on one trial's critical path: its agent calls plus its judge calls, each `delay`."""
    grade = json.loads((run_dir / "trials" / "trial-run" / "0" / "grade.json").read_text())
    transcript = json.loads((run_dir / "trials" / "trial-run" / "0" / "transcript.json").read_text())
    judged = sum(1 for p in grade["parts"] if (p.get("judge") or {}).get("source") == "model")
    return float((int(transcript["turns"]) + judged) * delay)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.agent", description=__doc__.split("\n")[0])
    parser.add_argument("--delay", type=float, default=0.3, help="seconds per model call (default 0.3)")
    parser.add_argument("--trials", type=int, default=8, help="trials in the concurrent run (default 8)")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each; the best is shown (default 3)")
    args = parser.parse_args(argv)
    if args.repeat < 1 or args.trials < 1:
        parser.error("--repeat and --trials must be at least 1")
    with tempfile.TemporaryDirectory(prefix="bench-agent-") as tmp:
        project = copy_project(Path(tmp) / "project")
        player = ReferencePlayer(project / "scenario", delay_s=args.delay)
        with StubAnthropic(default=player) as stub:
            os.environ["ANTHROPIC_BASE_URL"] = stub.url
            os.environ["ANTHROPIC_API_KEY"] = "bench-key-not-a-secret"
            os.chdir(project)
            run_once(project, player, 1, "warmup")  # imports and first-use costs stay out of the numbers
            ones, manys = [], []
            for n in range(args.repeat):  # interleaved, so both see the same load
                ones.append(run_once(project, player, 1, f"one-{n}"))
                manys.append(run_once(project, player, args.trials, f"many-{n}"))
        wall_1, agent_1 = min(r[0] for r in ones), min(r[1] for r in ones)
        wall_k, agent_k = min(r[0] for r in manys), min(r[1] for r in manys)
        calls_1, calls_k = ones[0][2], manys[0][2]
        wait = model_wait_per_trial(project / "runs" / "one-0", args.delay)
        k = args.trials
        print(f"model delay {args.delay:.2f} s per call; {calls_1} model calls in 1 trial ({wait:.1f} s)")
        print(f"cores: {os.cpu_count()}; {calls_k} model calls in {k} trials (judge verdicts are cached)")
        print(f"best of {args.repeat} runs each; every run held the trials it was asked for")
        print(f"{'':14}{'wall(1)':>9}{f'wall({k})':>10}{'ratio':>8}")
        for label, one, many in (("end to end", wall_1, wall_k), ("agent phase", agent_1, agent_k)):
            verdict = "met" if many / one <= 1.5 else "NOT met"
            print(f"{label:14}{one:8.2f}s{many:9.2f}s{many / one:8.2f}   goal <= 1.5: {verdict}")
        print(f"harness time per trial, 1 trial:  {wall_1 - wait:5.2f} s (wall minus model waits)")
        print(f"harness time per trial, {k} trials: {(wall_k - wait) / k:5.2f} s (amortised)")
    return 0 if agent_k / agent_1 <= 1.5 else 1


if __name__ == "__main__":
    raise SystemExit(main())
