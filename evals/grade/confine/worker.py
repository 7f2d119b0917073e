"""Runs inside the confinement: serve the grader's calls into modules, one JSON line each way.

Started as `python -I -S -B worker.py PATHS_JSON` (launch.py, rpc.py). Standard library only; it
imports nothing of the harness. Before anything else it moves the reply channel off stdout: the
replies go to a private duplicate of the original stdout, and fd 1 becomes stderr, so whatever the
measured code prints (a clean-looking result included) never reaches the grader as an answer. Each
request carries a fresh random token from the grader and the reply must echo it: the grader takes
exactly one reply per request, in order, and anything else on the channel fails the whole run.

A request is `{"token", "module", "function", "args"}`: the worker imports `module` (from PATHS,
put first on `sys.path`) and returns `function(*args)`, which must be JSON data, or the exception's
type and message. The grader decides what is called: its own probe modules (a scenario's probe
functions that drive the agent's code step by step), or the agent's module directly, so the
grader's assertions run in the grader, never where the agent's code could reach them.

When the grader is done it kills the confinement; an `atexit` hook the measured code registers never
gets to say anything. Importing this module does nothing: the launcher imports it only to know its
file (which the grader fingerprint then covers); `main()` runs only as a script.
"""

from __future__ import annotations

import importlib
import json
import os
import sys
from typing import Any

ERROR_CHARS = 800


def _answer(request: dict[str, Any]) -> dict[str, Any]:
    token = request.get("token")
    try:
        module = importlib.import_module(str(request["module"]))
        value = getattr(module, str(request["function"]))(*request.get("args", []))
        json.dumps(value)  # only data crosses the channel
        return {"token": token, "value": value}
    except BaseException as exc:  # the measured code may raise anything, SystemExit included
        return {"token": token, "raised": type(exc).__name__, "message": str(exc)[:ERROR_CHARS]}


def main(argv: list[str]) -> None:
    channel = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)
    for path in reversed(json.loads(argv[1])):
        sys.path.insert(0, path)
    for line in sys.stdin:
        reply = _answer(json.loads(line))
        channel.write(json.dumps(reply) + "\n")
        channel.flush()
    os._exit(0)


if __name__ == "__main__":
    main(sys.argv)
