"""Write one head's tree to a temp folder and run a probe script on it in an isolated subprocess.

The caller (a scenario's own check) names the script and the folders of stub packages that stand in
for services the code would reach (e.g. a stub `redis`); both usually live in the scenario's folder.
`-I -S` keep the user's site, PYTHONPATH and every installed package out: the code sees the
standard library, the stub folders (first on the path) and its own tree, so no package the grader
happens to have installed decides a grade (skipping `site` also saves a third of a bare
interpreter's start-up, paid once per distinct tree). A timeout turns a hang into a result. A probe
that crashes or times out is reported as such, so the criterion fails with the error as its
evidence instead of failing the whole grade.

Results are kept in a small process-wide cache keyed by the content of everything the subprocess
sees (the tree's Python files, the script, the stub folders, the spec): replayed trials produce
identical trees, so only the first trial pays for the subprocess. A timeout is not kept, since it
may say more about the machine's load than about the code.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from evals.core.jsonio import digest, sha256_text

TIMEOUT_S = 20.0
CACHED_RESULTS = 32
TIMED_OUT = "probe timed out after"


@dataclass(frozen=True)
class ProbeResult:
    ok: bool
    data: dict[str, Any] = field(default_factory=dict)
    error: str = ""


def code_files(files: dict[str, str], root: Path) -> dict[Path, str]:
    """The tree's Python files under `root` (other files are not needed to import code; a path
    escaping the tree is not the agent's code to run)."""
    out: dict[Path, str] = {}
    for path, content in files.items():
        if not path.endswith(".py"):
            continue
        dest = (root / path).resolve()
        if root.resolve() in dest.parents:
            out[dest] = content
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
    """Run `script` (`python -I -S script SPEC_JSON`) on the Python files of `files`, with `stubs` first
    on `sys.path`; `spec` (plus the path) is the script's JSON argument."""

    files: dict[str, str]
    script: Path
    spec: dict[str, Any]
    stubs: Sequence[Path] = ()
    timeout: float = TIMEOUT_S

    @cached_property
    def key(self) -> str:
        """Digest of everything the subprocess sees: equal keys give equal results."""
        return digest(
            {
                "tree": {p: self.files[p] for p in sorted(self.files) if p.endswith(".py")},
                "script": [str(self.script), sha256_text(self.script.read_text(encoding="utf-8"))],
                "stubs": [[str(s), _folder_digest(s)] for s in self.stubs],
                "spec": self.spec,
                "timeout": self.timeout,
            }
        )

    def run(self, cache: ProbeCache | None = None) -> ProbeResult:
        """The result, from `cache` (default: the process-wide one) when this exact probe ran before."""
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


def run_probe(request: ProbeRequest) -> ProbeResult:
    """Run the probe in a fresh temp tree, uncached."""
    with tempfile.TemporaryDirectory(prefix="evals-probe-") as tmp:
        root = Path(tmp)
        for dest, content in code_files(request.files, root).items():
            dest.parent.mkdir(parents=True, exist_ok=True)
            dest.write_text(content, encoding="utf-8")
        payload = json.dumps({**request.spec, "path": [*map(str, request.stubs), str(root)]})
        try:
            proc = subprocess.run(
                [sys.executable, "-I", "-S", "-B", str(request.script), payload],
                cwd=root,
                env={"PYTHONHASHSEED": "0", "PATH": "/usr/bin:/bin"},
                capture_output=True,
                text=True,
                timeout=request.timeout,
                check=False,
            )
        except subprocess.TimeoutExpired:
            return ProbeResult(False, error=f"{TIMED_OUT} {request.timeout:g}s")
    lines = [line for line in proc.stdout.splitlines() if line.strip()]
    try:
        result = json.loads(lines[-1]) if lines else None
    except json.JSONDecodeError:
        result = None
    if not isinstance(result, dict):
        tail = (proc.stderr or proc.stdout)[-600:]
        return ProbeResult(False, error=f"probe exited {proc.returncode} without a result: {tail}")
    if not result.get("ok"):
        return ProbeResult(False, error=str(result.get("error", "probe failed")))
    return ProbeResult(True, data=result)
