"""Size and load time of the run viewer for a 100-trial run (goals: page at most 10 MB, open in under 2 s).

    .venv/bin/python -m bench.viewer [--trials 100] [--chromium /usr/bin/chromium]

Runs Nightshift offline (`--agent auto` without a key: its replays, the full tool-call transcripts
of the published runs) for `--trials` trials in a throwaway copy of the project, writes viewer.html
(`python -m evals view`) and measures, in one run of headless Chromium from file://:

- size: viewer.html in MB, against the goal, the JSON it packs (evals/report/viewer/pack.py) and its
  static part for a browser without JavaScript (evals/report/viewer/static.py);
- write: seconds to read the run and write the page (what `run`, `compare` and `grade` now pay);
- first paint: navigation start to the page's `viewer-painted` mark (parse the plain data, draw the
  header, the criteria table, the tiers and every trial's summary line);
- ready: navigation start to `viewer-ready` (the trials' details inflated and parsed);
- deep link: opening `#nightshift/<last>/C1`, which renders that trial's timeline, parts and outcome.

Two cases, both printed against the goal: typical (the run as it is) and worst (every string longer
than a word made unique to its trial, so no two trials share an inbox, page, file or tool result and
nothing is stored once). Not a test: timings depend on the machine.
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


GOAL_MB = 10.0
GOAL_S = 2.0


def measure(page: Path, chromium: str, trials: int) -> dict[str, float]:
    """Seconds to first paint, to ready and for the deep link, in one fresh browser profile."""
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
        marks = tab.evaluate(
            "Object.fromEntries(performance.getEntriesByType('mark').map(m => [m.name, m.startTime]))"
        )
        started = tab.evaluate("performance.now()")
        tab.evaluate(f"location.hash = '#nightshift/{trials - 1}/C1'")
        tab.wait_for_selector(f"[id='nightshift/{trials - 1}'] .parts", timeout=60_000)
        deep = (tab.evaluate("performance.now()") - started) / 1000
        context.close()
    if errors:
        raise SystemExit(f"page errors: {errors}")
    return {
        "paint_s": marks["viewer-painted"] / 1000,
        "ready_s": marks["viewer-ready"] / 1000,
        "deep_s": deep,
    }


def json_mb(data: dict[str, Any]) -> float:
    """The data as the plain JSON it would be without packing, in MB."""
    return len(json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8")) / 1e6


def static_mb(page: Path) -> float:
    """The page's `<noscript>` part (what a browser without JavaScript reads), in MB."""
    text = page.read_text(encoding="utf-8")
    return len(text.split("<noscript>", 1)[1].split("</noscript>", 1)[0].encode("utf-8")) / 1e6


def line(name: str, page: Path, data_mb: float, times: dict[str, float]) -> dict[str, Any]:
    size = page.stat().st_size / 1e6
    fits = "within" if size <= GOAL_MB else "OVER"
    print(
        f"{name}: viewer.html {size:.2f} MB ({fits} the {GOAL_MB:.0f} MB goal, {size / GOAL_MB:.0%} of it; "
        f"{data_mb:.2f} MB of JSON packed, {static_mb(page):.2f} MB static for no JavaScript); written in "
        f"{times['write_s']:.2f} s; first paint {times['paint_s']:.2f} s, "
        f"ready {times['ready_s']:.2f} s (goal < {GOAL_S:.0f}); deep link {times['deep_s']:.2f} s"
    )
    return {"mb": round(size, 2), **{k: round(v, 2) for k, v in times.items()}}


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--trials", type=int, default=100)
    parser.add_argument("--chromium", default=shutil.which("chromium") or "/usr/bin/chromium")
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    from evals.report.viewer import render_page, write_viewer
    from evals.report.viewer.data import run_view

    with tempfile.TemporaryDirectory() as tmp:
        run = make_run(Path(tmp), args.trials)
        started = time.perf_counter()
        page = write_viewer(run)
        wrote = time.perf_counter() - started
        data = run_view(run)
        times = {"write_s": wrote, **measure(page, args.chromium, args.trials)}
        typical = line("typical", page, json_mb(data), times)
        data["trials"] = [salt(t, f" #{n}") for n, t in enumerate(data["trials"])]
        worst_page = Path(tmp) / "worst.html"
        started = time.perf_counter()
        worst_page.write_text(render_page(data), encoding="utf-8")
        times = {"write_s": time.perf_counter() - started, **measure(worst_page, args.chromium, args.trials)}
        worst = line("worst case (no string shared between trials)", worst_page, json_mb(data), times)
        print(json.dumps({"trials": args.trials, "goal_mb": GOAL_MB, "typical": typical, "worst": worst}))
    return 0 if max(typical["mb"], worst["mb"]) <= GOAL_MB else 1


if __name__ == "__main__":
    raise SystemExit(main())
