"""Write one head's tree to a temp folder and run a probe script on it in an isolated subprocess.

`-I` keeps the user's site and PYTHONPATH out, the stub packages in `sitestub/` go first on the
path, and a timeout turns a hang into a result. A probe that crashes or times out is reported as
such, so the criterion fails with the error as its evidence instead of failing the whole grade.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
STUBS = HERE / "sitestub"
TIMEOUT_S = 20.0


@dataclass(frozen=True)
class ProbeResult:
    ok: bool
    data: dict[str, Any] = field(default_factory=dict)
    error: str = ""


def run_probe(
    files: dict[str, str], script: str, spec: dict[str, Any], timeout: float = TIMEOUT_S
) -> ProbeResult:
    """Run `HERE/script` against `files` with `spec` (plus the tree's path) as its JSON argument."""
    with tempfile.TemporaryDirectory(prefix="evals-probe-") as tmp:
        root = Path(tmp)
        for path, content in files.items():
            if not path.endswith(".py"):
                continue  # the probe imports code; other files are not needed
            dest = (root / path).resolve()
            if root.resolve() not in dest.parents:
                continue  # a path escaping the tree is not the agent's code to run
            dest.parent.mkdir(parents=True, exist_ok=True)
            dest.write_text(content, encoding="utf-8")
        payload = json.dumps({**spec, "path": [str(STUBS), str(root)]})
        try:
            proc = subprocess.run(
                [sys.executable, "-I", "-B", str(HERE / script), payload],
                cwd=root,
                env={"PYTHONHASHSEED": "0", "PATH": "/usr/bin:/bin"},
                capture_output=True,
                text=True,
                timeout=timeout,
                check=False,
            )
        except subprocess.TimeoutExpired:
            return ProbeResult(False, error=f"probe timed out after {timeout:g}s")
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
