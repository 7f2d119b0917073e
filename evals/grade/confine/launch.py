"""The one launcher in front of every execution of agent-written code.

`Confinement.start(files, argv)` writes the tree to a fresh scratch directory (every path contained:
evals/world/paths.py) and starts `argv` there, confined by the strongest mode this
machine gives (evals/grade/confine/policy.py):

- `bwrap-root` / `bwrap-userns`: bubblewrap with its own pid, network, mount, ipc and uts
  namespaces; read-only binds of /usr, a few /etc files, the interpreter and the grader's probe
  files; a private /tmp, /run and /dev; the scratch copy the only writable place and the working
  directory. As root it then drops to uid 65534 with no capabilities (`setpriv`); without root an
  unprivileged user namespace maps the grader's uid to 65534.
- `landlock`: no namespaces; the Landlock rules and seccomp filter `inside.py` applies.
- `none`: only what every mode has.

Every mode: the launcher itself (bubblewrap stays pid 1 of its namespace) gets an environment built
from an allowlist, never copied from the grader's, so no key or token reaches it (bubblewrap clears
it and sets the same allowlist with the caller's additions inside); `inside.py`
sets resource limits, no_new_privs and the seccomp filter before it execs the program; the whole
confinement is SIGKILLed when the caller is done (its pid namespace, or its session), so no process
outlives the check to write records or tamper with a later trial. Results the grader trusts are
read by the grader (`measure.py`, files read here without following links), never taken from what
the program prints.
"""

from __future__ import annotations

import contextlib
import ctypes
import functools
import json
import os
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from evals.grade.artefact import reading
from evals.grade.confine import inside, worker
from evals.grade.confine.measure import Usage, measurable, namespace_members, session_members, usage
from evals.grade.confine.policy import (
    GUARANTEES,
    MODES,
    ConfinementUnavailable,
    ExecutionDeferred,
    Mode,
    deferring,
    forced_mode,
    minimum_mode,
    strength,
)
from evals.world.paths import UnsafePath, contained

PYTHON = sys.executable
NOBODY = 65534
SYSTEM_PATH = "/usr/bin:/bin"
INSIDE = Path(inside.__file__).resolve()
WORKER = Path(worker.__file__).resolve()
HERE = INSIDE.parent
ETC_FILES = (
    "/etc/ld.so.cache",
    "/etc/ld.so.conf",
    "/etc/ld.so.conf.d",
    "/etc/localtime",
    "/etc/passwd",
    "/etc/group",
    "/etc/nsswitch.conf",
)
DEVICES = ("/dev/urandom", "/dev/random", "/dev/zero")
PR_SET_DUMPABLE = 4
READ_LIMIT = 4 << 20


@dataclass(frozen=True)
class Limits:
    """Resource limits inside (the wall-clock timeout is the caller's). A program that reaches one
    fails (MemoryError, EMFILE, EAGAIN from fork) or is killed (SIGXFSZ, SIGXCPU): its own failure,
    which the check reads as a failed run, never an error of the grader.

    `processes` is how many more processes the program may start: RLIMIT_NPROC counts every process
    of the real uid, so the limit is what that uid already runs plus this margin (`nproc_limit`).
    The kernel never applies RLIMIT_NPROC to uid 0, so it binds where the program runs as another
    uid: mode `bwrap-root` (uid 65534), and every mode when the grader is not root. As root in
    `landlock`, `none` and `bwrap-userns` (whose uid 65534 is root outside) only the caller's
    timeout and the kill of the whole confinement end a fork bomb (docs/security.md)."""

    cpu_s: int = 120
    memory_bytes: int = 4 << 30
    file_bytes: int = 64 << 20
    open_files: int = 4096
    processes: int = 256

    def rlimits(self, uid: int | None = None) -> dict[str, int]:
        """The limits `inside.py` sets; `uid`: the real uid the program runs as (the grader's by default)."""
        return {
            "RLIMIT_CORE": 0,
            "RLIMIT_CPU": self.cpu_s,
            "RLIMIT_AS": self.memory_bytes,
            "RLIMIT_FSIZE": self.file_bytes,
            "RLIMIT_NOFILE": self.open_files,
            "RLIMIT_NPROC": nproc_limit(os.getuid() if uid is None else uid, self.processes),
        }


def _status_field(status: bytes, name: bytes) -> bytes | None:
    """One field of a /proc/PID/status text, or None. Its first line is the process's name, in which
    the kernel escapes newlines, so a field is always found at the start of a line."""
    start = status.find(b"\n" + name + b":")
    if start < 0:
        return None
    start += len(name) + 2
    end = status.find(b"\n", start)
    return status[start : end if end >= 0 else len(status)]


def _read_status(path: str) -> bytes:
    fd = os.open(path, os.O_RDONLY)
    try:
        chunks = []
        while chunk := os.read(fd, 8192):
            chunks.append(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


def processes_of(uid: int, proc: str = "/proc") -> int:
    """How many processes (threads count too, as RLIMIT_NPROC counts them) the real uid runs now.

    Called before every confined program (nine per Nightshift trial), over every process of the
    machine: each status file is read as bytes and only its `Uid` and `Threads` lines are looked at,
    which took a tenth of the grader's own CPU per trial when every line was split into a dict."""
    count = 0
    try:
        pids = [p for p in os.listdir(proc) if p.isdigit()]
    except OSError:
        return 0
    for pid in pids:
        try:
            status = _read_status(f"{proc}/{pid}/status")
        except OSError:
            continue  # gone meanwhile
        real = _status_field(status, b"Uid")
        if int((real or b"-1").split()[0]) == uid:
            count += int((_status_field(status, b"Threads") or b"1").strip() or 1)
    return count


def nproc_limit(uid: int, margin: int) -> int:
    """RLIMIT_NPROC for a program run as `uid`: what the uid runs already, plus `margin`."""
    return processes_of(uid) + margin


def interpreter_paths() -> list[str]:
    """What the interpreter needs to start: its prefix, a virtualenv's, and where the binary lives."""
    found = {sys.base_prefix, sys.prefix, str(Path(os.path.realpath(PYTHON)).parent.parent)}
    return sorted(found)


def environment(scratch: Path, extra: Mapping[str, str] = {}) -> dict[str, str]:
    """The only environment the launcher and the program ever get: fixed values, nothing copied."""
    return {
        "PATH": SYSTEM_PATH,
        "LANG": "C.UTF-8",
        "PYTHONHASHSEED": "0",
        "PYTHONDONTWRITEBYTECODE": "1",
        "HOME": str(scratch),
        "TMPDIR": str(scratch / ".tmp"),
        **extra,
    }


def write_tree(files: Mapping[str, str], root: Path) -> list[str]:
    """Write `files` under `root`, each path checked and contained; return the paths refused as
    unsafe (never written). A file the filesystem will not take (a name over 255 bytes, a path
    over PATH_MAX, a character UTF-8 cannot encode) raises AgentArtefactError naming it: the
    checks that run this tree fail, since the sandbox tools refuse such names and only a tree the
    agent made odd some other way gets here (evals/grade/artefact.py)."""
    refused = []
    for path, content in files.items():
        shown = path if len(path) <= 120 else f"{path[:60]}...{path[-40:]} ({len(path)} characters)"
        with reading(f"the file {shown!r}"):
            try:
                dest = contained(root, path)
            except UnsafePath:
                refused.append(path)
                continue
            dest.parent.mkdir(parents=True, exist_ok=True)
            dest.write_text(content, encoding="utf-8")
    return refused


def _give_to_nobody(root: Path) -> None:
    for folder, dirs, names in os.walk(root):
        for name in [folder, *(os.path.join(folder, n) for n in (*dirs, *names))]:
            os.lchown(name, NOBODY, NOBODY)


def _bwrap_binds(scratch: Path, readable: Sequence[str], extra: Mapping[str, str] = {}) -> list[str]:
    args = [
        "--die-with-parent",
        "--new-session",
        "--clearenv",
        "--unshare-net",
        "--unshare-pid",
        "--unshare-ipc",
        "--unshare-uts",
        "--unshare-cgroup-try",
        "--hostname",
        "confined",
        "--ro-bind",
        "/usr",
        "/usr",
    ]
    for link in ("bin", "sbin", "lib", "lib64"):
        args += ["--symlink", f"usr/{link}", f"/{link}"]
    args += ["--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp", "--tmpfs", "/run"]
    # A private /dev/shm anyone inside may write (multiprocessing's locks live there). Like /tmp it
    # has no size of its own (bubblewrap's --size needs 0.7; Ubuntu 22.04 ships 0.6): RLIMIT_FSIZE
    # bounds each file, the timeout the rest.
    args += ["--perms", "1777", "--tmpfs", "/dev/shm"]
    for path in ETC_FILES:
        args += ["--ro-bind-try", path, path]
    made = {"/", "/usr", "/tmp", "/run", "/proc", "/dev", "/etc"}
    for path in [*readable, str(scratch)]:
        # bubblewrap (as root) creates missing parents 0700, which uid 65534 could not traverse
        for parent in reversed(Path(path).parents):
            if str(parent) not in made:
                made.add(str(parent))
                args += ["--perms", "0755", "--dir", str(parent)]
        args += ["--bind" if path == str(scratch) else "--ro-bind", path, path]
    for key, value in environment(scratch, extra).items():  # --clearenv above: only these, extras too
        args += ["--setenv", key, value]
    return [*args, "--chdir", str(scratch)]


def _drop_capabilities() -> list[str]:
    """As root outside bubblewrap: keep uid 0 (the interpreter may be readable by root only) but
    drop every capability, so DAC and ptrace checks apply to it like to any process of its uid."""
    if os.geteuid() != 0 or not _executable("setpriv"):
        return []
    return ["setpriv", "--inh-caps=-all", "--bounding-set=-all", "--no-new-privs", "--"]


def command(
    mode: Mode,
    scratch: Path,
    argv: Sequence[str],
    readable: Sequence[str],
    limits: Limits,
    info_fd: int | None,
    extra: Mapping[str, str] = {},
) -> list[str]:
    """The full command line: launcher, confinement, then `argv`. `extra`: the caller's environment
    additions, which bubblewrap (it clears the environment) is told to set inside."""
    config: dict[str, Any] = {"rlimits": limits.rlimits(NOBODY if mode == "bwrap-root" else None)}
    inner = [PYTHON, "-I", "-S", "-B", str(INSIDE)]
    ro = [*interpreter_paths(), str(HERE), *readable]
    if mode == "landlock":
        config["landlock"] = {"ro": ["/usr", *ETC_FILES, *DEVICES, *ro], "rw": [str(scratch), "/dev/null"]}
        config["deny_sockets"] = True
    confined = [*inner, json.dumps(config), "--", *argv]
    if mode in ("landlock", "none"):
        return [*_drop_capabilities(), *confined]
    binds = _bwrap_binds(scratch, sorted(set(ro)), extra)
    info = ["--info-fd", str(info_fd)] if info_fd is not None else []
    if mode == "bwrap-root":
        drop = ["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups"]
        drop += ["--inh-caps=-all", "--bounding-set=-all", "--no-new-privs", "--"]
        return ["bwrap", *binds, *info, *drop, *confined]
    user = [
        "--unshare-user",
        "--disable-userns",
        "--uid",
        str(NOBODY),
        "--gid",
        str(NOBODY),
        "--cap-drop",
        "ALL",
    ]
    return ["bwrap", *user, *binds, *info, *confined]


def _executable(name: str) -> bool:
    return shutil.which(name, path=SYSTEM_PATH) is not None


@functools.cache
def available(mode: Mode) -> bool:
    """Whether `mode` works on this machine: tried once per process (a tiny program, confined)."""
    if mode == "none":
        return True
    if sys.platform != "linux":
        return False
    if mode == "landlock":
        return inside.landlock_abi() >= 1
    if not _executable("bwrap") or (
        mode == "bwrap-root" and (os.geteuid() != 0 or not _executable("setpriv"))
    ):
        return False
    scratch = Path(tempfile.mkdtemp(prefix="evals-confine-check-"))
    try:
        os.chmod(scratch, 0o755)
        argv = command(mode, scratch, [PYTHON, "-I", "-S", "-c", "pass"], [], Limits(), None)
        done = subprocess.run(
            argv, cwd=scratch, env=environment(scratch), capture_output=True, timeout=60, check=False
        )
        return done.returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def chosen_mode() -> Mode:
    """The mode agent code runs under here: forced (EVALS_CONFINE) or the strongest available, never
    weaker than EVALS_CONFINE_MINIMUM (ConfinementUnavailable otherwise)."""
    forced = forced_mode()
    if forced is not None and not available(forced):
        raise ConfinementUnavailable(
            f"the confinement mode {forced} (EVALS_CONFINE) does not work on this machine"
        )
    mode: Mode = forced if forced is not None else next(m for m in MODES if available(m))
    minimum = minimum_mode()
    if strength(mode) < strength(minimum):
        raise ConfinementUnavailable(
            f"this machine gives agent code only the confinement mode {mode!r} ({GUARANTEES[mode]}); "
            f"EVALS_CONFINE_MINIMUM asks for at least {minimum!r}: install bubblewrap (docs/security.md "
            "'How the PR workflow stays safe')"
        )
    return mode


@functools.cache
def _undumpable_grader() -> None:
    """Mode `none` only: the grader's own /proc/<pid>/environ, fds and memory become unreadable to a
    same-uid child (its ancestors' stay readable: that mode runs without secrets or not at all)."""
    if sys.platform == "linux":
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_DUMPABLE, 0, 0, 0, 0)


class Confinement:
    """One confined program over a scratch copy of a tree. Use as a context manager: leaving it
    kills every process of the confinement and removes the copy."""

    def __init__(
        self, mode: Mode, proc: subprocess.Popen[bytes], scratch: Path, init: int | None, ns: str | None
    ):
        self.mode = mode
        self.proc = proc
        self.scratch = scratch
        self._init = init
        self._namespace = ns

    @classmethod
    def start(
        cls,
        files: Mapping[str, str],
        argv: Sequence[str],
        *,
        readable: Sequence[Path] = (),
        env: Mapping[str, str] = {},
        limits: Limits = Limits(),
        stdin: int | IO[Any] | None = subprocess.DEVNULL,
        stdout: int | IO[Any] | None = subprocess.DEVNULL,
        stderr: int | IO[Any] | None = subprocess.DEVNULL,
    ) -> Confinement:
        """Copy `files` into a fresh scratch directory and start `argv` there, confined.

        `readable`: grader folders the program may read (probe scripts, stubs), bound read-only.
        `env`: fixed extra variables (never values taken from the grader's environment)."""
        if deferring():
            raise ExecutionDeferred("agent code is not executed in this job (EVALS_DEFER_EXECUTION)")
        mode = chosen_mode()
        if mode == "none":
            _undumpable_grader()
        scratch = Path(tempfile.mkdtemp(prefix="evals-confine-"))
        try:
            write_tree(files, scratch)
            (scratch / ".tmp").mkdir(exist_ok=True)
            os.chmod(scratch, 0o755)
            if mode == "bwrap-root":
                _give_to_nobody(scratch)
            read_r, read_w = os.pipe() if mode.startswith("bwrap") else (-1, -1)
            info = read_w if read_w >= 0 else None
            readable_paths = [str(p.resolve()) for p in readable]
            argv_full = command(mode, scratch, argv, readable_paths, limits, info, env)
            try:
                proc = subprocess.Popen(
                    argv_full,
                    cwd=scratch,
                    env=environment(scratch, env),
                    stdin=stdin,
                    stdout=stdout,
                    stderr=stderr,
                    pass_fds=(info,) if info is not None else (),
                    start_new_session=True,
                )
            finally:
                if info is not None:
                    os.close(info)
            init, ns = _read_info(read_r) if read_r >= 0 else (None, None)
        except BaseException:
            shutil.rmtree(scratch, ignore_errors=True)
            raise
        return cls(mode, proc, scratch, init, ns)

    # --- what the grader reads --------------------------------------------------------------

    def pids(self) -> list[int]:
        """Every live process of the confinement, detached ones included."""
        if self._namespace is not None and self._init is not None:
            return namespace_members(self._namespace, self._init)
        return session_members(self.proc.pid)

    def measure(self) -> Usage | None:
        """Memory and descriptors of the confinement's processes (MeasurementDenied fails closed); None
        where the system has no /proc to read them from (not Linux)."""
        return usage(self.pids()) if measurable() else None

    def read_file(self, rel: str, limit: int = READ_LIMIT) -> bytes | None:
        """A regular file of the scratch copy, read without following any link (the program may
        have swapped a folder for a link to a grader file); None when absent or not a plain file."""
        try:
            parts = contained(self.scratch, rel).relative_to(self.scratch.resolve()).parts
        except UnsafePath:
            return None
        fds = [os.open(self.scratch, os.O_RDONLY | os.O_DIRECTORY)]
        try:
            for part in parts[:-1]:
                fds.append(os.open(part, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW, dir_fd=fds[-1]))
            fds.append(os.open(parts[-1], os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK, dir_fd=fds[-1]))
            info = os.fstat(fds[-1])
            if not stat.S_ISREG(info.st_mode) or info.st_size > limit:
                return None
            return os.read(fds[-1], limit + 1)[:limit]
        except OSError:
            return None
        finally:
            for fd in fds:
                os.close(fd)

    # --- the end ----------------------------------------------------------------------------------

    def kill(self) -> None:
        """SIGKILL every process of the confinement and reap the launcher."""
        if self._init is not None:
            _signal(self._init)  # the pid namespace's init: the kernel kills the rest with it
        else:
            with contextlib.suppress(OSError):  # the launcher's process group (where /proc is missing too)
                os.killpg(self.proc.pid, signal.SIGKILL)
            for _ in range(100):  # forks between a listing and the kill are in the next listing
                members = session_members(self.proc.pid)
                if not members:
                    break
                for pid in members:
                    _signal(pid)
        _signal(self.proc.pid)
        self.proc.wait()

    def close(self) -> None:
        try:
            self.kill()
        finally:
            shutil.rmtree(self.scratch, ignore_errors=True)

    def __enter__(self) -> Confinement:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _signal(pid: int) -> None:
    with contextlib.suppress(OSError):  # already gone
        os.kill(pid, signal.SIGKILL)


def _read_info(fd: int) -> tuple[int | None, str | None]:
    """bubblewrap's --info-fd JSON: the host pid of the namespace's init and the namespace's inode."""
    raw = b""
    try:
        while chunk := os.read(fd, 4096):
            raw += chunk
    finally:
        os.close(fd)
    try:
        info = json.loads(raw) if raw else {}
        return int(info["child-pid"]), f"pid:[{int(info['pid-namespace'])}]"
    except (ValueError, KeyError, TypeError):
        return None, None
