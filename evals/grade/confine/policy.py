"""What the confinement may be on this machine, and whether agent code may run in this process at all.

"Confinement" is where agent-written code runs; "sandbox" names only the simulated world
(`--world sandbox`). Three settings, all from the environment of the process that grades (the
workflow sets them, never the agent):

- `EVALS_CONFINE`: `auto` (default: the strongest mode that works here) or a mode's name, which
  must then work (tests force each mode this way).
- `EVALS_CONFINE_MINIMUM`: the weakest mode this process accepts (default `none`). A machine that
  cannot give at least that fails the grade as an infrastructure error instead of running the
  agent's code with less: the PR verdict job sets `landlock`, since a later step there runs with a
  write token and `none` does not stop writes to the checkout.
- `EVALS_DEFER_EXECUTION=1`: agent code never runs here. The job that holds the model key sets it:
  every check that would execute agent code raises `ExecutionDeferred`, its part is left unscored
  in that job, and the secret-less job after it runs the check (evals/run/recheck.py).

The names before the confinement had its own word, `EVALS_SANDBOX` and `EVALS_SANDBOX_MINIMUM`,
still work when the new one is unset, with a deprecation note on stderr (workflows pinned to an
older harness set them).

Modes, strongest first (docs/security.md, "How the PR workflow stays safe", has what each guarantees):
`bwrap-root` (root: bubblewrap namespaces, then uid 65534 with no capabilities), `bwrap-userns`
(an unprivileged user namespace), `landlock` (no namespaces: a Landlock filesystem and TCP
allowlist plus seccomp), `none` (an allowlisted environment, limits and a kill of the whole
session only).
"""

from __future__ import annotations

import os
import sys
from typing import Literal, get_args

from evals.core.errors import InfrastructureError

Mode = Literal["bwrap-root", "bwrap-userns", "landlock", "none"]
MODES: tuple[Mode, ...] = get_args(Mode)  # strongest first
FORCE_ENV = "EVALS_CONFINE"
MINIMUM_ENV = "EVALS_CONFINE_MINIMUM"
# The old names, read when the new one is unset (deprecated): new name -> old name.
DEPRECATED_ENV = {FORCE_ENV: "EVALS_SANDBOX", MINIMUM_ENV: "EVALS_SANDBOX_MINIMUM"}
_warned: set[str] = set()
DEFER_ENV = "EVALS_DEFER_EXECUTION"

GUARANTEES: dict[Mode, str] = {
    "bwrap-root": "own pid, network, mount, ipc and uts namespaces; uid 65534 without capabilities; "
    "writes only to its scratch copy; sees only the interpreter, the probe files and its copy",
    "bwrap-userns": "own user, pid, network, mount, ipc and uts namespaces (uid 65534 inside, the "
    "grader's uid outside); writes only to its scratch copy; sees only the interpreter, the probe files "
    "and its copy",
    "landlock": "Landlock: reads only the interpreter, the probe files and its copy, writes only its "
    "copy, no TCP, no ptrace-mode access to other processes (no /proc/<pid>/environ); seccomp: no "
    "sockets; the grader's uid",
    "none": "an allowlisted environment, resource limits and a kill of its whole session only: the "
    "network, the filesystem and same-uid processes are NOT isolated",
}


class ExecutionDeferred(Exception):
    """Agent code may not run in this process (EVALS_DEFER_EXECUTION): the check is left for the
    secret-less job that re-grades the run."""


class ConfinementUnavailable(InfrastructureError):
    """This machine cannot give the confinement this process requires: the grade is an infrastructure
    error, never a run with less isolation."""


def strength(mode: Mode) -> int:
    """Higher is stronger."""
    return len(MODES) - MODES.index(mode)


def _setting(name: str) -> str:
    """The variable's value, or its deprecated old name's (with a note on stderr, once) when unset."""
    value = os.environ.get(name, "").strip()
    old = DEPRECATED_ENV.get(name)
    if value or old is None:
        return value
    value = os.environ.get(old, "").strip()
    if value and old not in _warned:
        _warned.add(old)
        print(f"evals: {old} is deprecated, set {name} instead (read as {name}={value})", file=sys.stderr)
    return value


def _mode_setting(name: str, default: str) -> str:
    value = _setting(name) or default
    if value != "auto" and value not in MODES:
        raise ConfinementUnavailable(f"{name}={value!r}: expected auto or one of {', '.join(MODES)}")
    return value


def forced_mode() -> Mode | None:
    """The mode EVALS_CONFINE names, or None for auto."""
    value = _mode_setting(FORCE_ENV, "auto")
    return None if value == "auto" else value  # type: ignore[return-value]


def minimum_mode() -> Mode:
    value = _mode_setting(MINIMUM_ENV, "none")
    if value == "auto":
        raise ConfinementUnavailable(f"{MINIMUM_ENV}: expected one of {', '.join(MODES)}")
    return value  # type: ignore[return-value]


def deferring() -> bool:
    """Whether agent code is forbidden in this process (the job holding the model key)."""
    return os.environ.get(DEFER_ENV, "").strip() not in ("", "0")
