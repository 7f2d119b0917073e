"""The run viewer in a real browser: headless Chromium (Debian's `chromium`) loads the viewer of a
regression run from file:// and the test reads the rendered DOM.

With CI=true a missing browser fails the test (`.ci/run` installs it); elsewhere it is skipped with
the command that installs it.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bench.viewer import FLAGS  # Chromium as root on this kind of machine: one list for bench and test
from evals.cli import main
from tests.support.viewer_runs import NEW_PAGE, NEW_TEXT, tiered_run

INSTALL = "apt-get install -y chromium && pip install -r requirements.txt (playwright)"
INJECTED = '</script><img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script> @octocat'


def chromium() -> str:
    """The system browser, or a skip (a failure in CI) saying how to install it."""
    path = os.environ.get("EVALS_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        path = None
    if path:
        return path
    message = f"headless Chromium or the playwright package is missing; install: {INSTALL}"
    if os.environ.get("CI") == "true":
        pytest.fail(message)
    pytest.skip(message)


@pytest.fixture
def viewer(project: Path) -> Path:
    """Built before the browser starts: playwright's sync API holds an event loop the run cannot share."""
    return regression_run(project)


@contextlib.contextmanager
def browser_tab(tmp_path: Path) -> Iterator[Any]:
    """A tab of headless Chromium with a new, empty profile; `tab.errors` collects uncaught page errors."""
    from playwright.sync_api import sync_playwright

    executable = chromium()
    with sync_playwright() as p:
        context = p.chromium.launch_persistent_context(
            str(tmp_path / "profile"),  # a new, empty user-data-dir
            executable_path=executable,
            headless=True,
            args=FLAGS,
            viewport={"width": 1000, "height": 800},
        )
        try:
            tab = context.new_page()
            errors: list[str] = []
            tab.on("pageerror", lambda exc: errors.append(str(exc)))
            tab.errors = errors
            yield tab
        finally:
            context.close()


@pytest.fixture
def page(viewer: Path, tmp_path: Path) -> Iterator[Any]:
    with browser_tab(tmp_path) as tab:
        yield tab


@pytest.fixture
def tiered_viewer(full_project: Path) -> Path:
    out = tiered_run(full_project)
    assert main(["view", "--run", str(out)]) == 0
    return out / "viewer.html"


@pytest.fixture
def tiered_page(tiered_viewer: Path, tmp_path: Path) -> Iterator[Any]:
    with browser_tab(tmp_path) as tab:
        yield tab


def regression_run(project: Path) -> Path:
    out = project / "runs" / "regressed"
    assert main(["run", "--agent", "replay:regressed", "--trials", "2", "--out", str(out)]) == 1
    # what an agent could write into a tool result: it must show as text, never run
    path = out / "trials" / "trial-run" / "1" / "transcript.json"
    transcript = json.loads(path.read_text(encoding="utf-8"))
    transcript["tool_calls"][0]["result"]["data"]["note"] = INJECTED
    path.write_text(json.dumps(transcript), encoding="utf-8")
    assert main(["view", "--run", str(out)]) == 0
    return out / "viewer.html"


def test_the_viewer_of_a_regression_shows_verdict_reasons_tool_calls_and_deep_links(
    viewer: Path, page: Any, tmp_path: Path
) -> None:
    page.goto(viewer.as_uri() + "#trial-run/0/T3a")
    page.wait_for_selector("body[data-ready='1']")

    assert page.text_content("#verdict") == "regression"
    assert "dropped" in (page.text_content("#reasons") or "")

    # the deep link opened trial 0, scrolled to part T3a and marked it
    part = page.locator("[id='trial-run/0/T3a']")
    assert part.is_visible() and "target" in (part.get_attribute("class") or "")
    assert "status-failed" in (part.locator("td").nth(1).get_attribute("class") or "")
    assert "expected FLAG_THRESHOLD = 0.85" in (part.text_content() or "")
    box = part.bounding_box()
    assert box is not None and box["y"] + box["height"] > 0 and box["y"] < 800  # in view

    # a tool call's arguments, one click away
    call = page.locator("[id='trial-run/0'] details.call", has_text="GITHUB_CREATE_A_PULL_REQUEST")
    call.locator("summary").click()
    args = call.locator("pre.args")
    assert args.is_visible() and '"title": "fix: raise moderation threshold"' in (args.text_content() or "")

    # a criterion anchor (#trial-run/1/T1: parts T1a and T1b) opens the other trial at its first part
    page.evaluate("location.hash = '#trial-run/1/T1'")
    page.wait_for_selector("[id='trial-run/1/T1a'].target")
    assert page.locator("[id='trial-run/1']").evaluate("d => d.open")
    critique = page.locator("[id='trial-run/1/T1b'] .critique").text_content() or ""
    assert critique.startswith("judge (scored") and "does not confirm the fix" in critique

    # agent text is text: the injected markup shows verbatim and never ran
    page.locator("[id='trial-run/1'] details.call").first.locator("summary").click()
    assert json.dumps(INJECTED) in (page.locator("[id='trial-run/1'] pre.result").first.text_content() or "")
    assert page.evaluate("window.__pwned") is None
    assert page.locator("img").count() == 0

    # search filters the trials
    page.fill("#search", "GMAIL_REPLY_TO_THREAD")
    assert page.locator("details.trial:not(.hidden)").count() == 2
    page.fill("#search", "no such text anywhere")
    assert page.locator("details.trial:not(.hidden)").count() == 0
    page.fill("#search", "")

    page.screenshot(path=str(tmp_path / "viewer.png"), full_page=True)
    assert (tmp_path / "viewer.png").stat().st_size > 0
    assert page.errors == []


def test_the_viewer_lists_tasks_by_tier_and_shows_notion_edits_against_the_seed(
    tiered_viewer: Path, tiered_page: Any, tmp_path: Path
) -> None:
    page = tiered_page
    page.goto(tiered_viewer.as_uri())
    page.wait_for_selector("body[data-ready='1']")
    summary = json.loads((tiered_viewer.parent / "summary.json").read_text(encoding="utf-8"))
    k = summary["adaptive"]["trials"]

    # tier headings in order, each with its tasks and the report's per-tier rates
    assert page.locator("section.tier > h2").all_text_contents() == [
        "L1 · single-service",
        "L2 · cross-service",
        "L3 · multi-stakeholder",
    ]
    for tier, task in (("L1", "board-move"), ("L2", "trial-run"), ("L3", "nightshift")):
        section = page.locator(f"section.tier[data-tier='{tier}']")
        assert section.locator("section.task").evaluate_all("s => s.map(x => x.dataset.task)") == [task]
        assert section.locator("details.trial").count() == 2
        stats = summary["tiers"][tier]
        line = section.locator(".tier-stats").text_content() or ""
        for label, rate in (("pass@1", "pass_at_1"), (f"pass@{k}", "pass_at_k"), (f"pass^{k}", "pass_pow_k")):
            assert f"{label} {round(stats[rate] * 100)}%" in line
    assert summary["tiers"]["L3"]["pass_at_1"] < summary["tiers"]["L1"]["pass_at_1"]  # figures that differ

    # a seeded table row the agent edited: the changed cells, before → after, by column
    page.evaluate("location.hash = '#trial-run/0'")
    row = page.locator("[id='trial-run/0'] tr.change[data-state='edited']", has_text="Status:").first
    row.wait_for()
    status = row.locator(".cell", has_text="Status:")
    assert status.locator("del").text_content() == "To Do" and status.locator("ins").text_content() == "Done"

    # a seeded paragraph the agent rewrote: its seeded text and its final text
    page.evaluate("location.hash = '#nightshift/1'")
    edited = page.locator("[id='nightshift/1'] tr.change[data-state='edited']").filter(
        has=page.get_by_text("Status: OPEN", exact=True)
    )
    edited.wait_for()
    assert edited.locator(".before del").text_content() == "Status: OPEN"
    assert (edited.locator(".after ins").text_content() or "").startswith("Status: IN REVIEW")

    # judged evidence is shown as the judge read it, and says what its placeholders stand for
    placeheld = page.locator("[id='nightshift/1'] pre.evidence", has_text="{repo}").first
    caption = placeheld.locator("xpath=preceding-sibling::div[1]").text_content() or ""
    assert caption.startswith("evidence as the judge read it: {repo}")

    # a page the agent created is marked new, its blocks added
    page.evaluate("location.hash = '#board-move/0'")
    new = page.locator("[id='board-move/0'] .page.created", has_text=NEW_PAGE)
    new.wait_for()
    assert new.locator(".badge.new").text_content() == "new page"
    assert new.locator("tr.change[data-state='added'] ins").text_content() == NEW_TEXT

    # search hides the tiers and tasks with no matching trial
    page.fill("#search", NEW_TEXT)
    page.wait_for_selector(f"body[data-searched='{NEW_TEXT.lower()}']", state="attached")
    visible = page.locator("section.tier:not(.hidden)").evaluate_all("s => s.map(x => x.dataset.tier)")
    assert visible == ["L1"]

    page.screenshot(path=str(tmp_path / "tiers.png"), full_page=True)
    assert page.errors == []
