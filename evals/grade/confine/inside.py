"""Runs inside the confinement, the last trusted code before the agent's: confine this process, then exec.

Started as `python -I -S inside.py CONFIG_JSON -- ARGV...` by the launcher (evals/grade/confine/
launch.py), after bubblewrap has set up its namespaces where it is available. Standard library only
(ctypes), so it runs under the interpreter the launcher hands it and imports nothing of the
harness. In order:

1. resource limits (no core files, file size, open files, CPU seconds, address space);
2. PR_SET_NO_NEW_PRIVS: no setuid binary can raise privileges again (Landlock needs it too);
3. Landlock, when asked (the launcher's mode without namespaces): reads only below the `ro`
   paths, writes only below the `rw` paths, no TCP (ABI >= 4), abstract unix sockets and signals
   scoped to the confinement (ABI >= 6), and no ptrace-mode access to any process outside it, so no
   `/proc/<ancestor>/environ`;
4. seccomp: `prctl(PR_SET_DUMPABLE)` (a same-uid child could hide its descriptors from the
   grader's /proc reads), `ptrace`, `process_vm_readv/writev` and `setsid` (leaving the session the
   launcher kills) fail with EPERM; so do `unshare`, `setns` and `clone` with a namespace flag (no
   user namespace inside), the SysV IPC calls and `mq_open` (an IPC namespace's equivalent where
   there is none); `clone3` fails with ENOSYS so libc falls back to `clone`; optionally `socket()`
   and `io_uring_setup()` fail with EACCES (`socketpair()` still works);
5. execve ARGV with the environment the launcher built from its allowlist; descriptors other than
   0-2 are close-on-exec in Python, so nothing else of this process reaches the program.

A setup failure prints one line on stderr and exits 125, so the launcher tells it from the
program's own exit status.

Importing this module does nothing (the launcher imports it only to know its file, which the
grader fingerprint then covers); `main()` runs only as a script.
"""

from __future__ import annotations

import ctypes
import json
import os
import resource
import sys
from typing import Any

SETUP_FAILED = 125
PR_SET_NO_NEW_PRIVS = 38
PR_SET_DUMPABLE = 4
PR_SET_SECCOMP = 22
SECCOMP_MODE_FILTER = 2
LANDLOCK_CREATE, LANDLOCK_ADD, LANDLOCK_RESTRICT = 444, 445, 446  # the same on every architecture
LANDLOCK_CREATE_RULESET_VERSION = 1
LANDLOCK_RULE_PATH_BENEATH = 1
FS_EXECUTE, FS_WRITE_FILE, FS_READ_FILE, FS_READ_DIR = 1 << 0, 1 << 1, 1 << 2, 1 << 3
FS_REFER, FS_TRUNCATE, FS_IOCTL_DEV = 1 << 13, 1 << 14, 1 << 15
FILE_RIGHTS = FS_EXECUTE | FS_WRITE_FILE | FS_READ_FILE | FS_TRUNCATE | FS_IOCTL_DEV
READ_RIGHTS = FS_EXECUTE | FS_READ_FILE | FS_READ_DIR
NET_BIND_TCP, NET_CONNECT_TCP = 1 << 0, 1 << 1
SCOPE_ABSTRACT_UNIX, SCOPE_SIGNAL = 1 << 0, 1 << 1
IO_URING_SETUP = 425
CLONE3 = 435  # the same on every architecture
# The namespace flags of clone(2) (CLONE_NEWNS, NEWCGROUP, NEWUTS, NEWIPC, NEWUSER, NEWPID, NEWNET).
CLONE_NEW_ANY = 0x00020000 | 0x02000000 | 0x04000000 | 0x08000000 | 0x10000000 | 0x20000000 | 0x40000000
# SysV IPC and POSIX message queues: objects that outlive the process, shared by every process of the
# IPC namespace (so, outside bubblewrap, from one confined run to the next).
IPC_CALLS = (
    "shmget",
    "shmat",
    "shmctl",
    "shmdt",
    "semget",
    "semop",
    "semtimedop",
    "semctl",
    "msgget",
    "msgsnd",
    "msgrcv",
    "msgctl",
    "mq_open",
)
# Per architecture: seccomp's audit arch, then the syscall numbers the filter names (x86_64: the
# kernel's arch/x86/entry/syscalls/syscall_64.tbl; aarch64: include/uapi/asm-generic/unistd.h).
ARCH: dict[str, dict[str, int]] = {
    "x86_64": {
        "audit": 0xC000003E,
        "socket": 41,
        "ptrace": 101,
        "setsid": 112,
        "prctl": 157,
        "process_vm_readv": 310,
        "process_vm_writev": 311,
        "clone": 56,
        "unshare": 272,
        "setns": 308,
        "shmget": 29,
        "shmat": 30,
        "shmctl": 31,
        "shmdt": 67,
        "semget": 64,
        "semop": 65,
        "semctl": 66,
        "semtimedop": 220,
        "msgget": 68,
        "msgsnd": 69,
        "msgrcv": 70,
        "msgctl": 71,
        "mq_open": 240,
    },
    "aarch64": {
        "audit": 0xC00000B7,
        "socket": 198,
        "ptrace": 117,
        "setsid": 157,
        "prctl": 167,
        "process_vm_readv": 270,
        "process_vm_writev": 271,
        "clone": 220,
        "unshare": 97,
        "setns": 268,
        "shmget": 194,
        "shmat": 196,
        "shmctl": 195,
        "shmdt": 197,
        "semget": 190,
        "semop": 193,
        "semctl": 191,
        "semtimedop": 192,
        "msgget": 186,
        "msgsnd": 189,
        "msgrcv": 188,
        "msgctl": 187,
        "mq_open": 180,
    },
}
EPERM, EACCES, ENOSYS = 1, 13, 38


class RulesetAttr(ctypes.Structure):
    _fields_ = [("fs", ctypes.c_uint64), ("net", ctypes.c_uint64), ("scoped", ctypes.c_uint64)]


class PathBeneath(ctypes.Structure):
    _pack_ = 1
    _fields_ = [("allowed", ctypes.c_uint64), ("parent_fd", ctypes.c_int32)]


class SockFilter(ctypes.Structure):
    _fields_ = [
        ("code", ctypes.c_uint16),
        ("jt", ctypes.c_uint8),
        ("jf", ctypes.c_uint8),
        ("k", ctypes.c_uint32),
    ]


class SockFprog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_uint16), ("filter", ctypes.POINTER(SockFilter))]


def _libc() -> Any:
    libc = ctypes.CDLL(None, use_errno=True)
    libc.syscall.restype = ctypes.c_long
    return libc


def fail(message: str) -> None:
    sys.stderr.write(f"confinement setup: {message}\n")
    sys.stderr.flush()
    os._exit(SETUP_FAILED)


def landlock_abi() -> int:
    """The kernel's Landlock ABI version, 0 when Landlock is missing or disabled (or not Linux)."""
    if sys.platform != "linux":
        return 0
    abi = int(
        _libc().syscall(
            LANDLOCK_CREATE, None, ctypes.c_size_t(0), ctypes.c_uint32(LANDLOCK_CREATE_RULESET_VERSION)
        )
    )
    return abi if abi > 0 else 0


def _ruleset(abi: int) -> tuple[RulesetAttr, int, int]:
    """The handled rights for this ABI, the struct size it knows, and every filesystem right."""
    fs_all = (1 << 13) - 1
    if abi >= 2:
        fs_all |= FS_REFER
    if abi >= 3:
        fs_all |= FS_TRUNCATE
    if abi >= 5:
        fs_all |= FS_IOCTL_DEV
    net = NET_BIND_TCP | NET_CONNECT_TCP if abi >= 4 else 0
    scoped = SCOPE_ABSTRACT_UNIX | SCOPE_SIGNAL if abi >= 6 else 0
    size = 24 if abi >= 6 else 16 if abi >= 4 else 8
    return RulesetAttr(fs_all, net, scoped), size, fs_all


def apply_landlock(ro: list[str], rw: list[str]) -> None:
    libc = _libc()
    abi = landlock_abi()
    if abi < 1:
        fail("Landlock is not available")
    attr, size, fs_all = _ruleset(abi)
    rfd = int(libc.syscall(LANDLOCK_CREATE, ctypes.byref(attr), ctypes.c_size_t(size), ctypes.c_uint32(0)))
    if rfd < 0:
        fail(f"landlock_create_ruleset: {os.strerror(ctypes.get_errno())}")
    for paths, rights in ((ro, READ_RIGHTS), (rw, fs_all)):
        for path in paths:
            try:
                fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
            except FileNotFoundError:
                continue
            allowed = rights if os.path.isdir(path) else rights & FILE_RIGHTS
            rule = PathBeneath(allowed, fd)
            added = libc.syscall(
                LANDLOCK_ADD,
                ctypes.c_int(rfd),
                ctypes.c_int(LANDLOCK_RULE_PATH_BENEATH),
                ctypes.byref(rule),
                ctypes.c_uint32(0),
            )
            os.close(fd)
            if added < 0:
                fail(f"landlock_add_rule {path}: {os.strerror(ctypes.get_errno())}")
    if libc.syscall(LANDLOCK_RESTRICT, ctypes.c_int(rfd), ctypes.c_uint32(0)) < 0:
        fail(f"landlock_restrict_self: {os.strerror(ctypes.get_errno())}")
    os.close(rfd)


def seccomp_program(machine: str, deny_sockets: bool) -> list[tuple[int, int, int, int]]:
    """The BPF filter as (code, jt, jf, k): denied calls return an errno, everything else is allowed,
    a foreign architecture (or the x32 ABI) is killed.

    EPERM: ptrace and process_vm_readv/writev (other processes' memory), setsid (leaving the session
    the launcher kills), prctl(PR_SET_DUMPABLE) (hiding descriptors from the grader's /proc reads),
    unshare, setns and clone with a CLONE_NEW* flag (no new namespace, a user namespace above all:
    inside one the program would hold every capability again), SysV IPC and mq_open (objects that
    would outlive the run where there is no IPC namespace). ENOSYS: clone3, whose flags live in
    memory a filter cannot read; libc then falls back to clone, which the filter can (what container
    runtimes do). EACCES, when asked: socket and io_uring_setup."""
    nr = ARCH[machine]
    ld, jeq, jge, jset, ret = 0x20, 0x15, 0x35, 0x45, 0x06
    allow, errno, kill = 0x7FFF0000, 0x00050000, 0x80000000
    eperm = ["ptrace", "process_vm_readv", "process_vm_writev", "setsid", "unshare", "setns", *IPC_CALLS]
    tests = [("eperm", nr[name]) for name in eperm] + [("enosys", CLONE3)]
    if deny_sockets:
        tests += [("eacces", nr["socket"]), ("eacces", IO_URING_SETUP)]
    # Instructions with symbolic jump targets (a label, or 0: the next one), resolved below.
    code: list[tuple[int, str | int, str | int, int]] = [
        (ld, 0, 0, 4),  # arch
        (jeq, 0, "kill", nr["audit"]),
        (ld, 0, 0, 0),  # nr
        (jge, "kill", 0, 0x40000000),  # the x32 ABI
        # prctl(PR_SET_DUMPABLE, ...) is denied, any other prctl allowed; not prctl: skip both.
        (jeq, 0, 2, nr["prctl"]),
        (ld, 0, 0, 16),  # args[0], low 32 bits (both architectures are little-endian)
        (jeq, "eperm", "allow", PR_SET_DUMPABLE),
        # clone(flags, ...) with any namespace flag is denied; not clone: skip both.
        (jeq, 0, 2, nr["clone"]),
        (ld, 0, 0, 16),
        (jset, "eperm", "allow", CLONE_NEW_ANY),
    ]
    code += [(jeq, label, 0, number) for label, number in tests]
    returns = {"allow": allow, "eperm": errno | EPERM, "eacces": errno | EACCES, "enosys": errno | ENOSYS}
    at = {label: len(code) + i for i, label in enumerate([*returns, "kill"])}
    program = [
        (op, jt if isinstance(jt, int) else at[jt] - i - 1, jf if isinstance(jf, int) else at[jf] - i - 1, k)
        for i, (op, jt, jf, k) in enumerate(code)
    ]
    program += [(ret, 0, 0, value) for value in returns.values()] + [(ret, 0, 0, kill)]
    return program


def install_seccomp(deny_sockets: bool) -> None:
    machine = os.uname().machine
    if machine not in ARCH:
        fail(f"no seccomp filter for {machine}")
    program = seccomp_program(machine, deny_sockets)
    array = (SockFilter * len(program))(*(SockFilter(*ins) for ins in program))
    fprog = SockFprog(len(program), array)
    if _libc().prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.byref(fprog), 0, 0) != 0:
        fail(f"seccomp: {os.strerror(ctypes.get_errno())}")


def main(argv: list[str]) -> None:
    config: dict[str, Any] = json.loads(argv[1])
    program = argv[argv.index("--") + 1 :]
    for name, value in config.get("rlimits", {}).items():
        try:
            resource.setrlimit(getattr(resource, name), (value, value))
        except (ValueError, OSError, AttributeError) as exc:
            fail(f"setrlimit {name}: {exc}")
    if sys.platform == "linux":  # elsewhere only the limits (mode `none`, docs/security.md)
        if _libc().prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
            fail("PR_SET_NO_NEW_PRIVS failed")
        landlock = config.get("landlock")
        if landlock:
            apply_landlock(list(landlock["ro"]), list(landlock["rw"]))
        install_seccomp(bool(config.get("deny_sockets")))
    try:
        os.execve(program[0], program, dict(os.environ))
    except OSError as exc:
        fail(f"exec {program[0]}: {exc}")


if __name__ == "__main__":
    main(sys.argv)
