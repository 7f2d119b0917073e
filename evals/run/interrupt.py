"""Ctrl-C during a run: say so at once, keep what can be resumed, and never hang.

Python's own Ctrl-C inside `asyncio.run` cancels the trials, then waits for every worker thread to
end: a trial being graded runs the agent's tests in a thread, so the terminal stayed silent for about
20 s, the trials in progress left no line, and the message named `--resume DIR`, not the folder.

Here the first Ctrl-C (or SIGTERM, which evals/cli.py delivers as SIGINT) records every trial in
progress as `error: interrupted` in results.jsonl (an errored trial is what `--resume` runs again),
prints the exact `evals run --resume <folder>` to paste, and lets the run unwind, for at most
`GRACE_S` seconds (world clean-up, the progress bar); past that the process ends without waiting for
the grading threads. A second Ctrl-C ends it at once. Either way the exit code is the signal's
(130, or 143 for SIGTERM).
"""

from __future__ import annotations

import os
import signal
import sys
import threading
from collections.abc import Coroutine, Iterator
from contextlib import contextmanager, suppress
from types import FrameType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # evals/cli.py imports this module at start-up: no pydantic before a command runs,
    # and no asyncio (a sixth of `--help`'s CPU) before a run needs it (`Interrupts.run`)
    import asyncio

    from evals.records.rundir import RunDir

GRACE_S = float(os.environ.get("EVALS_INTERRUPT_GRACE_S", "1.5"))  # tests raise it: no race on a slow machine
INTERRUPTED = "interrupted"  # the prefix evals/cli.py looks for: the run already said it
received: list[int] = []  # signals evals/cli.py saw (SIGTERM arrives here as SIGINT)
said: list[str] = []  # the run's own message, once printed: the CLI does not print its generic one


def _code() -> int:
    return 128 + (received[-1] if received else signal.SIGINT)


def _end_now(code: int) -> None:
    """End the process without waiting for any thread (a grading thread may run for many seconds)."""
    for stream in (sys.stdout, sys.stderr):
        with suppress(OSError, ValueError):
            stream.flush()
    os._exit(code)


class Interrupts:
    """The run's SIGINT handler while its trials run. `running` is the set of (scenario, trial) in
    progress, kept by `run_trials`."""

    def __init__(self, rd: RunDir, agent: str) -> None:
        self.rd = rd
        self.agent = agent
        self.running: set[tuple[str, int]] = set()
        self.count = 0
        self.task: asyncio.Task[None] | None = None
        self.watchdog: threading.Timer | None = None  # ends the process if unwinding outlasts GRACE_S
        self.loop: asyncio.AbstractEventLoop | None = None

    def record_running(self) -> list[tuple[str, int]]:
        """Each trial in progress as `error: interrupted` (resumable), unless it already has a line."""
        from evals.records.model import TrialRecord

        done = {(r.scenario, r.trial) for r in self.rd.read_records()}
        stopped = sorted(self.running - done)
        for scenario, trial in stopped:
            error = "interrupted (Ctrl-C or SIGTERM) while running; `evals run --resume` runs it again"
            self.rd.append_record(
                TrialRecord(scenario=scenario, trial=trial, status="error", agent=self.agent, error=error)
            )
        return stopped

    def message(self, stopped: list[tuple[str, int]]) -> str:
        name = signal.Signals(received[-1] if received else signal.SIGINT).name
        which = ", ".join(f"{s}#{t}" for s, t in stopped)
        kept = (
            f"{len(stopped)} trial(s) in progress recorded as interrupted ({which})"
            if stopped
            else "no trial was in progress"
        )
        return (
            f"{INTERRUPTED} ({name}): {kept}; finished trials are kept in results.jsonl. "
            f"Stopping in at most {GRACE_S:g} s (Ctrl-C again to stop at once). Finish the run with:\n"
            f"  evals run --resume {self.rd.path}"
        )

    def on_sigint(self, signum: int, frame: FrameType | None) -> None:
        self.count += 1
        if self.count > 1:
            print("interrupted again: stopping at once", file=sys.stderr)
            _end_now(_code())
        try:
            stopped = self.record_running()
        except (OSError, ValueError) as exc:  # a run dir that cannot take a line: say so, still stop
            print(f"warning: the trials in progress were not recorded: {exc}", file=sys.stderr)
            stopped = []
        text = self.message(stopped)
        said.append(text)
        print(text, file=sys.stderr, flush=True)
        self.watchdog = threading.Timer(GRACE_S, _end_now, args=(_code(),))
        self.watchdog.daemon = True
        self.watchdog.start()
        task, loop = self.task, self.loop
        if task is None or loop is None or task.done():
            raise KeyboardInterrupt
        # as asyncio.run's own Ctrl-C does: cancel the trials (each closes its world), never raise
        # inside one of them, where nobody would retrieve it
        loop.call_soon_threadsafe(task.cancel)

    def run(self, trials: Coroutine[Any, Any, None]) -> None:
        """`asyncio.run(trials)`, cancelled by the first Ctrl-C, which then ends it as KeyboardInterrupt."""
        import asyncio

        async def main() -> None:
            self.task, self.loop = asyncio.current_task(), asyncio.get_running_loop()
            await trials

        try:
            asyncio.run(main())
        except asyncio.CancelledError:
            if self.count:
                raise KeyboardInterrupt from None
            raise
        finally:
            self.task = self.loop = None


@contextmanager
def interrupts(rd: RunDir, agent: str) -> Iterator[Interrupts]:
    """The run's Ctrl-C handling around its trials (only in the main thread, where signals arrive;
    elsewhere Python's own stays)."""
    handler = Interrupts(rd, agent)
    if threading.current_thread() is not threading.main_thread():
        yield handler
        return
    previous = signal.signal(signal.SIGINT, handler.on_sigint)
    try:
        yield handler
    finally:
        signal.signal(signal.SIGINT, previous)
        if handler.watchdog is not None:  # unwound in time: the caller ends the command (130)
            handler.watchdog.cancel()
