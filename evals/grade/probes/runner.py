"""Run a probe on one head's tree in the confinement, step by step, and measure it from outside.

The caller (a scenario's own check) names the probe module (a script in its folder), the steps to
call in it, and the folders of stub packages that stand in for services the code would reach (e.g.
a stub `redis`). The tree's Python files are copied into a confinement (evals/grade/confine/), where a
worker imports the probe module and calls each step with the spec; the grader reads the confinement's
memory and descriptors from /proc after each step (`ProbeResult.usage`). `-I -S` keep the user's
site, PYTHONPATH and every installed package out: the code sees the standard library, the stub
folders and its own tree, so no package the grader happens to have installed decides a grade.

What a step returns is the probe's in-process reading, which the measured code shares a process
with: it arrives on a private channel, one reply per step, each echoing a fresh random token, and
the confinement is killed after the last step, so printing a clean-looking result or an `atexit` hook
tells the grader nothing. A check should still gate on the outside readings wherever the question
allows (descriptors opened, memory held), and read a step's value as the code's own account.

A probe that crashes, dies, times out or puts anything else on the channel is reported as such, so
the criterion fails with the error as its evidence instead of failing the whole grade.

Results are kept in a small process-wide cache keyed by the content of everything the confinement sees
(the tree's Python files, the probe, the stub folders, the spec and steps) and the confinement mode:
replayed trials produce identical trees, so only the first trial pays for the confinement. A timeout is
not kept, since it may say more about the machine's load than about the code.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from dataclasses import asdict, dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from evals.core.jsonio import digest, sha256_text
from evals.grade.artefact import reading
from evals.grade.confine.launch import chosen_mode
from evals.grade.confine.measure import MeasurementDenied
from evals.grade.confine.policy import ExecutionDeferred, deferring
from evals.grade.confine.rpc import CallRaised, ChannelError, Worker
from evals.world.paths import UnsafePath, checked_path

TIMEOUT_S = 20.0
CACHED_RESULTS = 32
TIMED_OUT = "probe timed out after"
LAUNCHED = "launched"  # the outside reading taken before the first step


@dataclass(frozen=True)
class ProbeResult:
    ok: bool
    data: dict[str, Any] = field(default_factory=dict)  # each step's value, by step
    error: str = ""
    # the grader's reading after each step; empty where the system has no /proc (not Linux)
    usage: dict[str, dict[str, int]] = field(default_factory=dict)
    mode: str = ""


def code_files(files: dict[str, str]) -> dict[str, str]:
    """The tree's Python files (other files are not needed to import code); a path that is not a
    plain relative path is not the agent's code to run."""
    out = {}
    for path, content in files.items():
        if not path.endswith(".py"):
            continue
        try:
            out[checked_path(path)] = content
        except UnsafePath:
            continue
    return out


def _folder_digest(folder: Path) -> str:
    """Content of a stub folder, so an edited stub is never served an old result."""
    return digest(
        {
            p.relative_to(folder).as_posix(): sha256_text(p.read_text(encoding="utf-8"))
            for p in sorted(folder.rglob("*.py"))
        }
    )


@dataclass(frozen=True, eq=False)
class ProbeRequest:
    """Call `steps` of the probe module `script` (each as `step(spec)`) on the Python files of `files`,
    with the script's folder and `stubs` first on `sys.path`."""

    files: dict[str, str]
    script: Path
    spec: dict[str, Any]
    steps: Sequence[str]
    stubs: Sequence[Path] = ()
    timeout: float = TIMEOUT_S
    # whether the grader reads the confinement from /proc before and after each step (`usage`); a
    # caller that never looks at `usage` saves the reads (each lists every process of the machine)
    measured: bool = True

    @cached_property
    def key(self) -> str:
        """Digest of everything the confinement sees, and how it is confined: equal keys, equal results.
        A tree whose names or text UTF-8 cannot encode cannot be keyed (nor written): AgentArtefactError."""
        with reading("the agent's Python files"):
            return self._digest()

    def _digest(self) -> str:
        keyed: dict[str, Any] = {
            "tree": {p: self.files[p] for p in sorted(self.files) if p.endswith(".py")},
            "script": [str(self.script), sha256_text(self.script.read_text(encoding="utf-8"))],
            "stubs": [[str(s), _folder_digest(s)] for s in self.stubs],
            "spec": self.spec,
            "steps": list(self.steps),
            "timeout": self.timeout,
            "mode": chosen_mode(),
        }
        if not self.measured:  # a result without `usage` must not answer a caller that reads it
            keyed["unmeasured"] = True
        return digest(keyed)

    def run(self, cache: ProbeCache | None = None) -> ProbeResult:
        """The result, from `cache` (default: the process-wide one) when this exact probe ran before;
        never where agent code may not run, even if it ran earlier in this process."""
        if deferring():
            raise ExecutionDeferred("agent code is not executed in this job (EVALS_DEFER_EXECUTION)")
        return (RESULTS if cache is None else cache).get_or_run(self.key, lambda: run_probe(self))


class ProbeCache:
    """A bounded, thread-safe memo of probe results; concurrent requests for one key share one run."""

    def __init__(self, size: int = CACHED_RESULTS) -> None:
        self.size = size
        self.hits = 0
        self.misses = 0
        self._lock = threading.Lock()
        self._entries: OrderedDict[str, Future[ProbeResult]] = OrderedDict()

    def get_or_run(self, key: str, run: Callable[[], ProbeResult]) -> ProbeResult:
        with self._lock:
            pending = self._entries.get(key)
            if pending is not None:
                self._entries.move_to_end(key)
                self.hits += 1
            else:
                self.misses += 1
                mine: Future[ProbeResult] = Future()
                self._entries[key] = mine
                while len(self._entries) > self.size:
                    self._entries.popitem(last=False)
        if pending is not None:
            return pending.result()
        try:
            result = run()
        except BaseException as exc:
            self._forget(key, mine)
            mine.set_exception(exc)
            raise
        mine.set_result(result)
        if result.error.startswith(TIMED_OUT):
            self._forget(key, mine)
        return result

    def _forget(self, key: str, entry: Future[ProbeResult]) -> None:
        with self._lock:
            if self._entries.get(key) is entry:
                del self._entries[key]


RESULTS = ProbeCache()


def measure(worker: Worker, step: str, usage: dict[str, dict[str, int]] | None) -> None:
    """The grader's reading after `step`, kept under its name (none where there is no /proc, or
    where the request is not measured: `usage` None)."""
    if usage is None:
        return
    reading = worker.measure()
    if reading is not None:
        usage[step] = asdict(reading)


def run_probe(request: ProbeRequest) -> ProbeResult:
    """Run the probe's steps in a fresh confinement, uncached."""
    module = request.script.stem
    paths = [request.script.resolve().parent, *(s.resolve() for s in request.stubs)]
    with Worker(code_files(request.files), paths, timeout=request.timeout) as worker:
        data: dict[str, Any] = {}
        usage: dict[str, dict[str, int]] | None = {} if request.measured else None
        try:
            measure(worker, LAUNCHED, usage)
            for step in request.steps:
                data[step] = worker.call(module, step, request.spec)
                measure(worker, step, usage)
        except CallRaised as exc:
            return ProbeResult(False, error=str(exc), mode=worker.mode)
        except ChannelError as exc:
            if exc.timed_out:
                return ProbeResult(False, error=f"{TIMED_OUT} {request.timeout:g}s", mode=worker.mode)
            return ProbeResult(False, error=f"probe failed: {exc}", mode=worker.mode)
        except MeasurementDenied as exc:
            return ProbeResult(False, error=f"probe not measurable: {exc}", mode=worker.mode)
    return ProbeResult(True, data=data, usage=usage or {}, mode=worker.mode)
