"""What the grader reads about a confinement from /proc itself: facts the code inside cannot forge.

Whatever the measured code prints, returns or patches in its own process is its word. The kernel's
accounting is not: the memory its processes hold (VmRSS, whole pages) and the descriptors they have
open (each socket and pipe by inode, so a descriptor shared by two processes counts once) are read
here, by the grader, between the steps it drives. A read the kernel refuses (a process that made
itself undumpable, which the confinement's seccomp filter forbids) raises `MeasurementDenied`: the
check fails closed rather than reading "nothing held".

Which processes are the confinement's: in the bubblewrap modes every process of its pid namespace but
its init; otherwise every live process of the session the launcher started (the seccomp filter
denies `setsid`, so no descendant can leave it).
"""

from __future__ import annotations

import os
from dataclasses import dataclass


class MeasurementDenied(RuntimeError):
    """The kernel refused the grader a read about a process of the confinement."""


@dataclass(frozen=True)
class Usage:
    processes: int = 0
    rss_bytes: int = 0
    fds: int = 0
    sockets: int = 0
    pipes: int = 0

    def minus(self, earlier: Usage) -> dict[str, int]:
        """What changed since `earlier`, field by field."""
        return {
            "processes": self.processes - earlier.processes,
            "rss_bytes": self.rss_bytes - earlier.rss_bytes,
            "fds": self.fds - earlier.fds,
            "sockets": self.sockets - earlier.sockets,
            "pipes": self.pipes - earlier.pipes,
        }


def measurable() -> bool:
    """Whether this system has the /proc the grader reads (Linux)."""
    return os.path.isdir("/proc/self/fd")


def _stat_fields(pid: int) -> list[str]:
    """/proc/PID/stat after the command name (which may hold spaces and parentheses)."""
    with open(f"/proc/{pid}/stat", encoding="utf-8", errors="replace") as handle:
        return handle.read().rsplit(")", 1)[1].split()


def _all_pids() -> list[int]:
    if not measurable():
        return []
    return [int(name) for name in os.listdir("/proc") if name.isdigit()]


def session_members(session: int) -> list[int]:
    """Live (not zombie) processes of `session`."""
    out = []
    for pid in _all_pids():
        try:
            fields = _stat_fields(pid)
        except OSError:
            continue
        if fields[0] != "Z" and int(fields[3]) == session:
            out.append(pid)
    return out


def namespace_members(namespace: str, init: int) -> list[int]:
    """Live processes whose pid namespace is `namespace` ("pid:[inode]"), its init left out."""
    out = []
    for pid in _all_pids():
        if pid == init:
            continue
        try:
            if os.readlink(f"/proc/{pid}/ns/pid") != namespace or _stat_fields(pid)[0] == "Z":
                continue
        except OSError:
            continue
        out.append(pid)
    return out


def _rss(pid: int) -> int:
    with open(f"/proc/{pid}/status", encoding="utf-8") as handle:
        for line in handle:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    return 0


def usage(pids: list[int]) -> Usage:
    """Memory and descriptors of `pids`, read from /proc; MeasurementDenied on a refused read."""
    rss = fds = 0
    sockets: set[str] = set()
    pipes: set[str] = set()
    counted = 0
    for pid in pids:
        try:
            rss += _rss(pid)
            names = os.listdir(f"/proc/{pid}/fd")
            for fd in names:
                try:
                    target = os.readlink(f"/proc/{pid}/fd/{fd}")
                except FileNotFoundError:
                    continue
                fds += 1
                if target.startswith("socket:"):
                    sockets.add(target)
                elif target.startswith("pipe:"):
                    pipes.add(target)
        except PermissionError as exc:
            raise MeasurementDenied(f"cannot read /proc/{pid} of the confinement: {exc.strerror}") from exc
        except (FileNotFoundError, ProcessLookupError):
            continue  # it exited between the listing and the read
        counted += 1
    return Usage(processes=counted, rss_bytes=rss, fds=fds, sockets=len(sockets), pipes=len(pipes))
