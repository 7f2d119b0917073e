"""`bench speed`: start-up, `compare` and grading times of this checkout (runs `bench/speed.py`).

`bench/` is speed only; what the gate would do on simulated scores is `evals simulate`. The old
spellings `bench gate` and `bench suite` still run the simulations, deprecated.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

from evals.commands.simulate import add_simulations
from evals.core.errors import BadInputError, ExitCode


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = sub.add_parser("bench", help="speed benchmarks of this checkout (bench/)")
    inner = parser.add_subparsers(dest="bench_command", required=True)
    speed = inner.add_parser(
        "speed", help="start-up, compare and grading times of this checkout against their goals"
    )
    speed.add_argument("--repeat", type=int, default=7, help="processes per timing; the best is shown")
    speed.add_argument("--before", type=Path, help="a checkout to measure as 'before', interleaved")
    speed.set_defaults(handler=handle_speed)
    add_simulations(inner, old="bench")


def handle_speed(args: argparse.Namespace) -> ExitCode:
    """Run `bench/speed.py` of the checkout this package belongs to, in its own process (it times
    fresh `python -m evals` processes, so nothing of this one may be loaded or warmed for it).
    Exit 0 when every goal is met, 1 when one is missed (like `simulate gate`), 3 when a timed command
    failed."""
    checkout = Path(__file__).resolve().parents[2]
    if not (checkout / "bench" / "speed.py").is_file():
        raise BadInputError(f"bench speed measures a harness checkout: no bench/speed.py in {checkout}")
    if args.repeat < 1:
        raise BadInputError("--repeat must be at least 1")
    command = [sys.executable, "-m", "bench.speed", "--repeat", str(args.repeat)]
    if args.before is not None:
        command += ["--before", str(args.before.resolve())]
    done = subprocess.run(command, cwd=checkout, check=False)
    codes = {0: ExitCode.PASS, 1: ExitCode.REGRESSION}
    return codes.get(done.returncode, ExitCode.INFRASTRUCTURE)
