"""The launcher in front of every execution of agent code, in each mode this machine can give.

The hostile module of tests/support/attacks.py runs inside: with planted secrets in the grader's
environment, a TCP/UDP listener on 127.0.0.1, a file outside the scratch copy and the daemon it leaves.
Each mode is held to what docs/security.md says it gives; `none` to the little
it promises (no secret in its environment, nothing left running).
"""

from __future__ import annotations

import json
import os
import uuid
from pathlib import Path

import pytest

from evals.grade.confine import launch, policy
from evals.grade.confine.measure import MeasurementDenied, usage
from evals.grade.confine.policy import MODES, ConfinementUnavailable, ExecutionDeferred, Mode
from evals.grade.confine.rpc import CallRaised, ChannelError, Worker
from tests.support.attacks import CANARIES, Listener, steal_and_hide, survivors

ISOLATED: set[Mode] = {"bwrap-root", "bwrap-userns", "landlock"}  # network and filesystem promised


def forced(monkeypatch: pytest.MonkeyPatch, mode: Mode) -> None:
    if not launch.available(mode):
        pytest.skip(f"confinement mode {mode} does not work on this machine")
    monkeypatch.setenv("EVALS_CONFINE", mode)


@pytest.fixture
def planted(monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    for name, value in CANARIES.items():
        monkeypatch.setenv(name, value)
    return CANARIES


@pytest.mark.parametrize("mode", MODES)
def test_hostile_code_steals_nothing_writes_nothing_outside_and_leaves_nothing_running(
    mode: Mode, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, planted: dict[str, str]
) -> None:
    forced(monkeypatch, mode)
    outside = tmp_path / "run-dir" / "results.jsonl"
    outside.parent.mkdir()
    outside.write_text("", encoding="utf-8")
    marker = f"evals-daemon-{uuid.uuid4().hex}"
    with Listener() as listener:
        module = steal_and_hide(listener.port, [str(outside)], marker)
        with Worker(
            {"evil.py": module, "ok.py": "def env():\n    import os\n    return dict(os.environ)\n"}, []
        ) as w:
            assert w.mode == mode
            w.call("evil", "__repr__")  # importing it runs every attack
            seen = w.call("ok", "env")
            loot = w.call("evil", "_loot")
            assert survivors(marker), "the daemon runs while the confinement does"
    assert not survivors(marker), "a process outlived the confinement"
    assert set(seen) <= {"PATH", "LANG", "PYTHONHASHSEED", "PYTHONDONTWRITEBYTECODE", "HOME", "TMPDIR", "PWD"}
    if mode != "none" or os.geteuid() == 0:  # as root, `none` drops capabilities: no ptrace-read of others
        assert not any(value in loot for value in planted.values())
    if mode in ISOLATED:
        assert listener.heard() == b"", "the confinement reached the grader's 127.0.0.1"
        assert outside.read_text(encoding="utf-8") == ""
    else:  # `none` promises neither: exactly why the PR workflow refuses it (EVALS_CONFINE_MINIMUM)
        assert not any(value.encode() in listener.heard() for value in planted.values())


@pytest.mark.parametrize("mode", MODES)
def test_the_confinement_cannot_hide_its_descriptors_or_leave_its_session(
    mode: Mode, monkeypatch: pytest.MonkeyPatch
) -> None:
    """prctl(PR_SET_DUMPABLE, 0) would make /proc/<pid>/fd unreadable to a same-uid grader, and setsid
    would leave the session the launcher kills: the seccomp filter refuses both."""
    forced(monkeypatch, mode)
    source = (
        "import ctypes, os\n"
        "def hide():\n"
        "    libc = ctypes.CDLL(None, use_errno=True)\n"
        "    return [libc.prctl(4, 0, 0, 0, 0), ctypes.get_errno()]\n"
        "def leave():\n"
        "    try:\n"
        "        os.setsid()\n"
        "        return 'left'\n"
        "    except OSError as exc:\n"
        "        return exc.errno\n"
    )
    with Worker({"m.py": source}, []) as w:
        assert w.call("m", "hide") == [-1, 1]  # EPERM
        assert w.call("m", "leave") == 1
        assert w.measure().processes == 1


def test_a_denied_read_fails_the_measurement_closed(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(path: str) -> list[str]:
        raise PermissionError(13, "Permission denied", path)

    monkeypatch.setattr(os, "listdir", refuse)
    with pytest.raises(MeasurementDenied):
        usage([os.getpid()])


def test_the_worker_channel_takes_only_the_reply_to_each_call(monkeypatch: pytest.MonkeyPatch) -> None:
    """Printing a reply-shaped line reaches stderr, not the channel; dying is an error, not a result."""
    source = (
        "import json, os, sys\n"
        "def forge():\n"
        "    print(json.dumps({'token': 'guess', 'value': 'pass'}))\n"
        "    sys.stdout.flush()\n"
        "    return 'honest'\n"
        "def vanish():\n"
        "    os._exit(0)\n"
        "def boom():\n"
        "    raise SystemExit(3)\n"
    )
    with Worker({"m.py": source}, []) as w:
        assert w.call("m", "forge") == "honest"
        assert '"value": "pass"' in w.stderr_tail()
        with pytest.raises(CallRaised, match="SystemExit"):
            w.call("m", "boom")
        with pytest.raises(ChannelError, match="ended without replying"):
            w.call("m", "vanish")


def test_a_worker_that_hangs_misses_its_deadline() -> None:
    with Worker({"m.py": "def hang():\n    while True:\n        pass\n"}, [], timeout=2) as w:
        with pytest.raises(ChannelError) as caught:
            w.call("m", "hang")
        assert caught.value.timed_out


def test_a_file_the_program_swapped_for_a_link_is_not_read_through_it(tmp_path: Path) -> None:
    secret = tmp_path / "grader-only.txt"
    secret.write_text(CANARIES["GITHUB_TOKEN"], encoding="utf-8")
    with launch.Confinement.start({"a.txt": "x"}, [launch.PYTHON, "-c", "pass"]) as sb:
        sb.proc.wait()
        (sb.scratch / "report.xml").symlink_to(secret)
        (sb.scratch / "dir").symlink_to(tmp_path)
        assert sb.read_file("report.xml") is None and sb.read_file("dir/grader-only.txt") is None
        assert sb.read_file("a.txt") == b"x"


def test_unsafe_paths_in_a_stored_tree_are_never_written(tmp_path: Path) -> None:
    root = tmp_path / "scratch"
    root.mkdir()
    refused = launch.write_tree(
        {"../escape.py": "x", "/abs.py": "x", "a//b.py": "x", "ok/fine.py": "x", "nul\x00.py": "x"}, root
    )
    assert sorted(refused) == sorted(["../escape.py", "/abs.py", "a//b.py", "nul\x00.py"])
    assert [p.relative_to(root).as_posix() for p in root.rglob("*.py")] == ["ok/fine.py"]
    assert not (tmp_path / "escape.py").exists()


def test_a_forced_mode_that_does_not_work_or_a_weaker_one_than_required_is_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("EVALS_CONFINE", "none")
    monkeypatch.setenv("EVALS_CONFINE_MINIMUM", "landlock")
    with pytest.raises(ConfinementUnavailable, match="EVALS_CONFINE_MINIMUM"):
        launch.chosen_mode()
    monkeypatch.setenv("EVALS_CONFINE", "bwrap-anything")
    with pytest.raises(ConfinementUnavailable, match="expected auto or one of"):
        launch.chosen_mode()


def test_the_old_variable_names_still_work_with_a_deprecation_note(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Workflows pinned to a harness from before the confinement had its own word set EVALS_SANDBOX*:
    they are read when the new name is unset, with a note; the new name wins when both are set."""
    monkeypatch.setattr(policy, "_warned", set())
    monkeypatch.delenv("EVALS_CONFINE", raising=False)
    monkeypatch.delenv("EVALS_CONFINE_MINIMUM", raising=False)
    monkeypatch.setenv("EVALS_SANDBOX", "none")
    monkeypatch.setenv("EVALS_SANDBOX_MINIMUM", "landlock")
    with pytest.raises(ConfinementUnavailable, match="EVALS_CONFINE_MINIMUM"):
        launch.chosen_mode()
    err = capsys.readouterr().err
    assert "EVALS_SANDBOX is deprecated, set EVALS_CONFINE instead" in err
    assert "EVALS_SANDBOX_MINIMUM is deprecated, set EVALS_CONFINE_MINIMUM instead" in err
    monkeypatch.setenv("EVALS_CONFINE", "landlock")
    monkeypatch.setenv("EVALS_CONFINE_MINIMUM", "none")
    assert policy.forced_mode() == "landlock" and policy.minimum_mode() == "none"


def test_where_execution_is_deferred_no_agent_code_starts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("EVALS_DEFER_EXECUTION", "1")
    touched = tmp_path / "ran"
    with pytest.raises(ExecutionDeferred):
        launch.Confinement.start({}, [launch.PYTHON, "-c", f"open({str(touched)!r}, 'w')"])
    assert not touched.exists()


def test_the_environment_is_built_from_an_allowlist(planted: dict[str, str]) -> None:
    env = launch.environment(Path("/tmp/x"), {"PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"})
    assert not set(env) & set(planted) and json.dumps(env).count("canary") == 0


# ---------------------------------------------------------------- #38: environment, IPC, namespaces, limits

PROBE = """import ctypes, json, multiprocessing, os, subprocess, sys
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
NR = {
    "x86_64": dict(shmget=29, msgget=68, semget=64, mq_open=240, unshare=272, setns=308, clone=56),
    "aarch64": dict(shmget=194, msgget=186, semget=190, mq_open=180, unshare=97, setns=268, clone=220),
}[os.uname().machine]
def call(name, *args):
    number = 435 if name == "clone3" else NR[name]
    return ctypes.get_errno() if libc.syscall(number, *args) < 0 else 0
def square(x):
    return x * x
out = {"env": os.environ.get("EVALS_TEST_EXTRA")}
out["refused"] = {
    "shmget": call("shmget", 0, 4096, 0o1600), "msgget": call("msgget", 0, 0o1600),
    "semget": call("semget", 0, 1, 0o1600), "mq_open": call("mq_open", b"/q", 0o100 | 2, 0o600, None),
    "unshare(CLONE_NEWUSER)": call("unshare", 0x10000000),
    "unshare(CLONE_NEWIPC)": call("unshare", 0x08000000),
    "setns": call("setns", 0, 0), "clone(CLONE_NEWUSER)": call("clone", 0x10000000 | 17, 0, 0, 0, 0),
    "clone3": call("clone3", 0, 0),
}
out["subprocess"] = subprocess.run([sys.executable, "-c", "print(1)"], capture_output=True).stdout.decode()
worker = multiprocessing.get_context("fork").Process(target=square, args=(2,))
worker.start()
worker.join()
out["process"] = worker.exitcode
try:
    with multiprocessing.get_context("fork").Pool(2) as pool:
        out["pool"] = pool.map(square, [1, 2, 3])
except OSError as exc:
    out["pool"] = exc.errno
print(json.dumps(out))
"""


def run_confined(files: dict[str, str], argv: list[str], **kw: object) -> str:
    import subprocess

    with launch.Confinement.start(files, argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, **kw) as c:  # type: ignore[arg-type]
        out, _ = c.proc.communicate(timeout=120)
    return out.decode()


@pytest.mark.parametrize("mode", MODES)
def test_no_ipc_object_or_namespace_and_the_extras_arrive_in_every_mode(
    mode: Mode, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SysV IPC and message queues would outlive the run where there is no IPC namespace; a user
    namespace would give the program every capability back; the launcher's additions
    (PYTEST_DISABLE_PLUGIN_AUTOLOAD) must reach the program under bubblewrap's --clearenv too. And
    the ordinary tools still work: subprocess, fork, multiprocessing (clone3 is ENOSYS, so libc
    falls back to clone)."""
    forced(monkeypatch, mode)
    out = run_confined({"p.py": PROBE}, [launch.PYTHON, "-I", "p.py"], env={"EVALS_TEST_EXTRA": "reached"})
    seen = json.loads(out.strip().splitlines()[-1])
    assert seen["env"] == "reached"
    assert seen["refused"] == {
        name: 38 if name == "clone3" else 1 for name in seen["refused"]
    }  # ENOSYS, EPERM
    assert seen["subprocess"] == "1\n" and seen["process"] == 0
    # Landlock allows no write to the host's /dev/shm (shared with every process): no semaphores there.
    assert seen["pool"] == ([1, 4, 9] if mode != "landlock" else 13)


def test_the_seccomp_filter_names_every_call_on_both_architectures() -> None:
    from evals.grade.confine import inside

    for machine, numbers in inside.ARCH.items():
        named = {"clone", "unshare", "setns", *inside.IPC_CALLS}
        assert named <= set(numbers), machine
        calls = {k: v for k, v in numbers.items() if k != "audit"}
        assert len(set(calls.values())) == len(calls), machine  # no two calls share a number
        program = inside.seccomp_program(machine, deny_sockets=True)
        assert all(0 <= jt < 256 and 0 <= jf < 256 for _, jt, jf, _ in program)
        assert {k for _, _, _, k in program} >= {numbers[n] for n in named} | {inside.CLONE3}


def binds_nproc(mode: Mode) -> bool:
    """The kernel never applies RLIMIT_NPROC to uid 0: it binds where the program's real uid is another."""
    return os.geteuid() != 0 or mode == "bwrap-root"


@pytest.mark.parametrize("mode", MODES)
def test_a_fork_bomb_is_bounded_where_the_process_limit_binds(
    mode: Mode, monkeypatch: pytest.MonkeyPatch
) -> None:
    forced(monkeypatch, mode)
    if not binds_nproc(mode):
        pytest.skip(
            f"as root, RLIMIT_NPROC does not bind in mode {mode} (docs/security.md): the timeout ends it"
        )
    bomb = (
        "import os, time\nmade = 0\ntry:\n    while made < 5000:\n        if os.fork() == 0:\n"
        "            time.sleep(60)\n            os._exit(0)\n        made += 1\nexcept OSError as exc:\n"
        "    print('refused after', made, exc.errno)\n"
    )
    out = run_confined({"b.py": bomb}, [launch.PYTHON, "-I", "b.py"], limits=launch.Limits(processes=40))
    assert "refused after" in out and out.split()[-1] == "11", out  # EAGAIN
    assert int(out.split()[-2]) <= 40


def test_the_process_limit_counts_what_the_uid_runs_already() -> None:
    limit = launch.Limits(processes=10).rlimits(os.getuid())["RLIMIT_NPROC"]
    assert limit >= 10 + 1  # this process at least
    assert launch.Limits(processes=10).rlimits(launch.NOBODY)["RLIMIT_NPROC"] >= 10
