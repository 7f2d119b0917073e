"""Size and load time of the run viewer for a 100-trial run (goal: page under 10 MB, open in under 2 s).

    .venv/bin/python -m bench.viewer [--trials 100] [--chromium /usr/bin/chromium]

Runs Nightshift offline (`--agent auto` without a key: its replays, the full tool-call transcripts
of the published runs) for `--trials` trials in a throwaway copy of the project, writes viewer.html
(`python -m evals view`) and measures, in one run of headless Chromium from file://:

- size: viewer.html in MB;
- load: navigation start to the page's `data-ready` mark (parse the inlined JSON, draw the
  header, the criteria table and every trial's summary line);
- deep link: opening `#nightshift/<last>/C1`, which renders that trial's timeline, parts and outcome.

Also the worst case for size: the same run with every trial's strings made unique (no two trials
share an inbox, page or file, so nothing is stored once). Not a test: timings depend on the machine.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def make_run(work: Path, trials: int) -> Path:
    from evals.cli import main

    for name in ("evals.yaml", "pricing.yaml"):
        shutil.copy(ROOT / name, work / name)
    for name in ("scenario", "baseline", "agent"):
        shutil.copytree(ROOT / name, work / name, ignore=shutil.ignore_patterns("__pycache__"))
    out = work / "runs" / "bench"
    os.chdir(work)
    os.environ.pop("ANTHROPIC_API_KEY", None)
    started = time.perf_counter()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        main(["run", "--scenario", "nightshift", "--trials", str(trials), "--out", str(out)])
    print(f"run: {trials} Nightshift trials in {time.perf_counter() - started:.1f} s")
    return out


def salt(value: Any, tag: str) -> Any:
    """Every string longer than a word made unique to one trial (the size's worst case)."""
    if isinstance(value, str):
        return value + tag if len(value) > 40 else value
    if isinstance(value, list):
        return [salt(v, tag) for v in value]
    if isinstance(value, dict):
        return {k: salt(v, tag) for k, v in value.items()}
    return value


def measure(page: Path, chromium: str, trials: int) -> tuple[float, float]:
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as profile, sync_playwright() as p:
        context = p.chromium.launch_persistent_context(
            profile, executable_path=chromium, headless=True, args=FLAGS
        )
        tab = context.new_page()
        errors: list[str] = []
        tab.on("pageerror", lambda exc: errors.append(str(exc)))
        tab.goto(page.as_uri())
        tab.wait_for_selector("body[data-ready='1']", state="attached", timeout=60_000)
        load = tab.evaluate("performance.now()") / 1000
        started = tab.evaluate("performance.now()")
        tab.evaluate(f"location.hash = '#nightshift/{trials - 1}/C1'")
        tab.wait_for_selector(f"[id='nightshift/{trials - 1}'] .parts", timeout=60_000)
        deep = (tab.evaluate("performance.now()") - started) / 1000
        context.close()
    if errors:
        raise SystemExit(f"page errors: {errors}")
    return load, deep


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--trials", type=int, default=100)
    parser.add_argument("--chromium", default=shutil.which("chromium") or "/usr/bin/chromium")
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    from evals.viewer import render_page, write_viewer
    from evals.viewer.data import run_view

    with tempfile.TemporaryDirectory() as tmp:
        run = make_run(Path(tmp), args.trials)
        page = write_viewer(run)
        size = page.stat().st_size / 1e6
        load, deep = measure(page, args.chromium, args.trials)
        print(f"viewer.html: {size:.2f} MB (goal < 10); load {load:.2f} s (goal < 2); deep link {deep:.2f} s")
        data = run_view(run)
        data["trials"] = [salt(t, f" #{n}") for n, t in enumerate(data["trials"])]
        worst = Path(tmp) / "worst.html"
        worst.write_text(render_page(data), encoding="utf-8")
        w_load, w_deep = measure(worst, args.chromium, args.trials)
        print(
            f"worst case (no string shared between trials): {worst.stat().st_size / 1e6:.2f} MB; "
            f"load {w_load:.2f} s; deep link {w_deep:.2f} s"
        )
        print(json.dumps({"trials": args.trials, "mb": round(size, 2), "load_s": round(load, 2)}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
