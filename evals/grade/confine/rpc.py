"""The grader's side of worker.py: call into modules inside a confinement, measure it between calls.

`Worker(files, paths)` starts the confined worker over a tree; `call(module, function, *args)`
sends one request with a fresh random token and waits (within the worker's deadline) for the one
reply that echoes it. The channel is fail-closed: a reply with another token, a line that is not a
reply, a second line where one was due, a dead worker or a missed deadline raise `ChannelError`,
and the caller treats the whole run as failed. Between calls the worker is blocked reading its next
request, so `measure()` (evals/grade/confine/measure.py) reads the confinement's memory and
descriptors at a known point of the work.

A grader-side test of the agent's module is written against this: `worker.call("pricing", "total",
[1, 2])` returns what the agent's function returned, as data, so the assertion runs in the grader's
process, where no test file or `conftest.py` of the agent's can reach it.
"""

from __future__ import annotations

import json
import os
import secrets
import select
import subprocess
import tempfile
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from evals.grade.confine.launch import PYTHON, WORKER, Confinement, Limits
from evals.grade.confine.measure import Usage

LINE_LIMIT = 8 << 20
STDERR_TAIL = 1500


class ChannelError(RuntimeError):
    """The worker died, missed its deadline, or something other than its one reply was on the channel."""

    def __init__(self, message: str, *, timed_out: bool = False) -> None:
        super().__init__(message)
        self.timed_out = timed_out


class CallRaised(RuntimeError):
    """The called function raised inside the confinement: its type and message, as text."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(f"{kind}: {message}")
        self.kind = kind
        self.message = message


class Worker:
    """A confined worker over `files`; `paths` (grader folders, then the tree's own folders relative
    to it) go first on its `sys.path`. Use as a context manager."""

    def __init__(
        self,
        files: Mapping[str, str],
        paths: Sequence[Path],
        *,
        tree_paths: Sequence[str] = (".",),
        timeout: float = 20.0,
        limits: Limits = Limits(),  # noqa: B008
    ) -> None:
        self._stderr = tempfile.TemporaryFile()  # noqa: SIM115 (closed in close())
        self._deadline = time.monotonic() + timeout
        self.timeout = timeout
        self._buffer = b""
        try:
            scratch_paths = json.dumps([*map(str, paths), *tree_paths])
            self.confinement = Confinement.start(
                files,
                [PYTHON, "-I", "-S", "-B", str(WORKER), scratch_paths],
                readable=paths,
                limits=limits,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=self._stderr,
            )
            if self.call("builtins", "len", []) != 0:  # the handshake: the worker is up and reading
                raise ChannelError("the worker answered its first call wrongly")
        except BaseException:
            if hasattr(self, "confinement"):
                self.confinement.close()
            self._stderr.close()
            raise

    @property
    def mode(self) -> str:
        return self.confinement.mode

    def call(self, module: str, function: str, *args: Any) -> Any:
        """`module.function(*args)` inside the confinement: its JSON value, else CallRaised/ChannelError."""
        token = secrets.token_hex(16)
        request = json.dumps({"token": token, "module": module, "function": function, "args": list(args)})
        proc = self.confinement.proc
        assert proc.stdin is not None
        try:
            proc.stdin.write(request.encode() + b"\n")
            proc.stdin.flush()
        except OSError as exc:
            raise ChannelError(f"the worker stopped reading ({self._ended()})") from exc
        reply = self._reply()
        if (
            not isinstance(reply, dict)
            or reply.get("token") != token
            or not ({"value"} <= reply.keys() or {"raised"} <= reply.keys())
        ):
            raise ChannelError("the channel carried something other than the reply to this call")
        if "raised" in reply:
            raise CallRaised(str(reply["raised"]), str(reply.get("message", "")))
        return reply["value"]

    def _reply(self) -> Any:
        """The next line on the channel, within the deadline."""
        proc = self.confinement.proc
        assert proc.stdout is not None
        fd = proc.stdout.fileno()
        while b"\n" not in self._buffer:
            left = self._deadline - time.monotonic()
            if left <= 0:
                raise ChannelError(f"timed out after {self.timeout:g}s", timed_out=True)
            ready, _, _ = select.select([fd], [], [], left)
            if not ready:
                continue
            chunk = os.read(fd, 65536)
            if not chunk:
                raise ChannelError(f"the worker ended without replying ({self._ended()})")
            self._buffer += chunk
            if len(self._buffer) > LINE_LIMIT:
                raise ChannelError("a reply longer than the channel allows")
        line, _, self._buffer = self._buffer.partition(b"\n")
        if self._buffer:
            raise ChannelError("more than one line on the channel where one reply was due")
        try:
            return json.loads(line)
        except (ValueError, RecursionError) as exc:  # RecursionError: a reply nested 100,000 deep
            raise ChannelError("the channel carried a line that is not a reply") from exc

    def _ended(self) -> str:
        code = self.confinement.proc.poll()
        tail = self.stderr_tail()
        return (f"exit {code}" if code is not None else "still running") + (f": {tail}" if tail else "")

    def stderr_tail(self, chars: int = STDERR_TAIL) -> str:
        """The end of what the confinement wrote on stderr (the program's prints go there too)."""
        self._stderr.seek(0, os.SEEK_END)
        size = self._stderr.tell()
        self._stderr.seek(max(0, size - chars * 4))
        return self._stderr.read().decode("utf-8", "replace")[-chars:].strip()

    def measure(self) -> Usage | None:
        """The confinement's memory and descriptors, read from /proc; None without /proc (not Linux)."""
        return self.confinement.measure()

    def close(self) -> None:
        try:
            self.confinement.close()
        finally:
            self._stderr.close()

    def __enter__(self) -> Worker:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
