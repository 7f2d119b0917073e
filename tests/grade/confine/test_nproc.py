"""RLIMIT_NPROC's base: the processes (threads) a real uid runs, counted from /proc status files.

`processes_of` reads only the `Uid` and `Threads` lines of each status file (it runs before every
confined program, over every process of the machine); these tests hold it to what the kernel's
format means, on a fake /proc and against a line-by-line reading of the real one.
"""

from __future__ import annotations

import os
from pathlib import Path

from evals.grade.confine.launch import nproc_limit, processes_of


def _status(name: str, uid: int, threads: int | None) -> str:
    lines = [f"Name:\t{name}", "Umask:\t0022", "State:\tS (sleeping)"]
    lines += [f"Uid:\t{uid}\t{uid + 7}\t{uid}\t{uid}"]  # real, effective, saved, filesystem
    lines += ["Gid:\t0\t0\t0\t0"] + ([f"Threads:\t{threads}"] if threads is not None else [])
    return "\n".join([*lines, "SigQ:\t0/1000", ""])


def _fake_proc(tmp_path: Path, statuses: dict[str, str]) -> str:
    for pid, text in statuses.items():
        (tmp_path / pid).mkdir()
        (tmp_path / pid / "status").write_text(text)
    (tmp_path / "self").mkdir()  # not a pid: skipped
    (tmp_path / "42").mkdir()  # a process gone between the listing and the read: skipped
    return str(tmp_path)


def test_counts_threads_of_the_real_uid_only(tmp_path: Path) -> None:
    proc = _fake_proc(
        tmp_path,
        {
            "1": _status("init", 0, 1),
            "7": _status("worker", 1000, 5),
            "8": _status("Uid: 1000", 0, 3),  # a name that looks like a field is not one
            "9": _status("other", 1007, 2),  # 1007 is uid 1000's effective uid elsewhere: not counted
            "10": _status("old kernel", 1000, None),  # no Threads line: one
        },
    )
    assert processes_of(1000, proc) == 6
    assert processes_of(0, proc) == 4
    assert processes_of(65534, proc) == 0


def test_no_proc_counts_nothing(tmp_path: Path) -> None:
    assert processes_of(0, str(tmp_path / "missing")) == 0


def _line_by_line(uid: int) -> int:
    """The reading `processes_of` replaced: every line of every status file split into a dict."""
    count = 0
    for pid in (p for p in os.listdir("/proc") if p.isdigit()):
        try:
            with open(f"/proc/{pid}/status", encoding="utf-8") as status:
                fields = dict(line.split(":", 1) for line in status if ":" in line)
        except OSError:
            continue
        if int(fields.get("Uid", "-1").split()[0]) == uid:
            count += int(fields.get("Threads", "1").strip() or 1)
    return count


def test_agrees_with_a_full_reading_of_the_real_proc() -> None:
    if not os.path.isdir("/proc/self"):
        return  # not Linux: nothing to compare (processes_of counts 0 there too)
    uid = os.getuid()
    # Processes come and go between two readings; this test's own process and thread stay.
    assert processes_of(uid) >= 1
    assert abs(processes_of(uid) - _line_by_line(uid)) <= 8
    assert nproc_limit(uid, 256) >= 257
