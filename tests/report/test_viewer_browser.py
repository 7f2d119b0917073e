"""The run viewer in a real browser: headless Chromium (Debian's `chromium`) loads the viewer of a
regression run from file:// and the test reads the rendered DOM.

With CI=true a missing browser fails the test (`.ci/run` installs it); elsewhere it is skipped with
the command that installs it.
"""

from __future__ import annotations

import base64
import contextlib
import copy
import json
import os
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bench.viewer import FLAGS  # Chromium as root on this kind of machine: one list for bench and test
from evals.cli import main
from tests.support.project import SECRET_VARS, copy_project
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
    # the story before any statistic (#40): the largest fallen part's concrete failure, then the reasons
    story = page.text_content("#story") or ""
    assert "FLAG_THRESHOLD = 0.85 as the service runs" in story
    assert page.evaluate(
        "document.getElementById('story').compareDocumentPosition(document.getElementById('reasons'))"
        " & Node.DOCUMENT_POSITION_FOLLOWING"
    )
    assert "p = " not in story and " CI " not in story

    # the deep link opened trial 0, scrolled to part T3a and marked it
    part = page.locator("[id='trial-run/0/T3a']")
    assert part.is_visible() and "target" in (part.get_attribute("class") or "")
    assert "status-failed" in (part.locator("td").nth(1).get_attribute("class") or "")
    assert "FLAG_THRESHOLD = 0.85 as the service runs" in (part.text_content() or "")
    box = part.bounding_box()
    assert box is not None and box["y"] + box["height"] > 0 and box["y"] < 800  # in view

    # a tool call as what it is, and its raw arguments one click further
    call = page.locator("[id='trial-run/0'] details.call", has_text="GITHUB_CREATE_A_PULL_REQUEST")
    call.locator("summary").first.click()
    assert "fix: raise moderation threshold" in (call.locator(".args-view").text_content() or "")
    call.locator("details.raw > summary").click()
    args = call.locator("pre.args")
    args.wait_for(state="visible")  # built by the toggle event, which fires after the click returns
    assert '"title": "fix: raise moderation threshold"' in (args.text_content() or "")

    # a criterion anchor (#trial-run/1/T1: parts T1a and T1b) opens the other trial at its first part
    page.evaluate("location.hash = '#trial-run/1/T1'")
    page.wait_for_selector("[id='trial-run/1/T1a'].target")
    assert page.locator("[id='trial-run/1']").evaluate("d => d.open")
    critique = page.locator("[id='trial-run/1/T1b'] .critique").text_content() or ""
    assert critique.startswith("judge (scored") and "does not confirm the fix" in critique

    # at 360 px (#40) nothing runs off the page: each table scrolls inside its own box
    page.set_viewport_size({"width": 360, "height": 800})
    page.screenshot(path=str(tmp_path / "viewer-360.png"), full_page=True)
    widths = page.evaluate(
        """() => ({page: document.documentElement.scrollWidth,
                  tables: [...document.querySelectorAll('table')].filter((t) => t.offsetParent)
                    .map((t) => [t.getBoundingClientRect().right, getComputedStyle(t).overflowX])})"""
    )
    assert widths["page"] <= 360, widths["page"]
    assert len(widths["tables"]) >= 3 and all(right <= 360 for right, _ in widths["tables"]), widths
    assert all(overflow == "auto" for _, overflow in widths["tables"])  # a wider one scrolls in its box

    # agent text is text: the injected markup shows verbatim and never ran
    first = page.locator("[id='trial-run/1'] details.call").first
    first.locator("summary").first.click()
    first.locator("details.raw > summary").click()
    assert json.dumps(INJECTED) in (first.locator("pre.result").text_content() or "")
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
        about = section.locator("details.about")  # what the task tests, from its about.yaml
        assert (about.locator("summary").text_content() or "").startswith("What this task tests: ")
        assert about.locator("li", has_text="Decided by: ").count() >= 1
        stats = summary["tiers"][tier]
        line = section.locator(".tier-stats").text_content() or ""
        for label, rate in (("pass@1", "pass_at_1"), (f"pass@{k}", "pass_at_k"), (f"pass^{k}", "pass_pow_k")):
            assert f"{label} {round(stats[rate] * 100)}%" in line
    assert summary["tiers"]["L3"]["pass_at_1"] > summary["tiers"]["L1"]["pass_at_1"]  # figures that differ

    # criteria in rubric order, task by task as the run listed them: C2 before C10, not after it
    keys = page.locator("#criteria tr.criterion").evaluate_all("rs => rs.map(r => r.dataset.criterion)")
    night = [k.split("/")[1] for k in keys if k.startswith("nightshift/")]
    assert night == [f"C{n}" for n in range(1, 21)]
    assert [k.split("/")[0] for k in keys][:: len(keys) - 1] == ["board-move", "nightshift"]

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


# A mail body an agent's world could hold: markup, a script, a bidi override that would draw "passed"
# over "failed", and a forged status badge. It must read as text, in both the scripted and the static page.
HOSTILE_MAIL = (
    'Hi,\n<span class="badge st-passed">passed</span><script>window.__pwned=3</script>'
    '<img src=x onerror="window.__pwned=4">\nStatus: \u202edeliaf\u202c, thanks'
)
DECODED = "Support has escalated a batch of false positives from the content moderation classifier"
BASE64_RUN = re.compile(r"[A-Za-z0-9+/=_-]{81,}")


def base64_runs(text: str) -> list[str]:
    """Runs of more than 80 base64 characters that decode to text (a URL's path is not one)."""
    found = []
    for run in BASE64_RUN.findall(text):
        try:
            alt = b"-_" if "-" in run or "_" in run else None
            base64.b64decode(run + "=" * (-len(run) % 4), altchars=alt, validate=True).decode("utf-8")
        except ValueError:
            continue
        found.append(run)
    return found


def mixed_run(project: Path) -> Path:
    """trial-run with trial 0 the reference (passes) and trial 1 the regressed replay (fails), a
    HOSTILE_MAIL (its text/plain part base64url, as Gmail's) added to the inbox both fetched first."""
    out = project / "runs" / "mixed"
    argv = ["run", "--scenario", "trial-run", "--agent", "replay:reference,regressed", "--trials", "2"]
    argv += ["--out", str(out)]
    assert main(argv) in (0, 1)
    for trial in (0, 1):
        path = out / "trials" / "trial-run" / str(trial) / "transcript.json"
        transcript = json.loads(path.read_text(encoding="utf-8"))
        messages = transcript["tool_calls"][0]["result"]["data"]["messages"]
        hostile = copy.deepcopy(messages[0])
        hostile.update(messageId=f"hostile{trial}", threadId=f"hostile{trial}", messageText=HOSTILE_MAIL)
        for part in hostile["payload"]["parts"]:
            part["body"]["data"] = base64.urlsafe_b64encode(HOSTILE_MAIL.encode()).decode().rstrip("=")
        messages.append(hostile)
        path.write_text(json.dumps(transcript), encoding="utf-8")
    assert main(["view", "--run", str(out)]) == 0
    return out / "viewer.html"


@pytest.fixture(scope="module")
def mixed_viewer(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Built once for the tests that read it (the reference trial's grading takes seconds), in its
    own copy of the project, offline and without keys like every test."""
    with pytest.MonkeyPatch.context() as patch:
        for name in SECRET_VARS:
            patch.delenv(name, raising=False)
        project = copy_project(tmp_path_factory.mktemp("mixed") / "project")
        patch.chdir(project)
        yield mixed_run(project)


OPEN = "([t, kind]) => document.getElementById(t).querySelectorAll('.timeline details.' + kind)"


def open_calls(page: Any, trial: str) -> None:
    """Open every call of a trial and then its raw JSON, as a reader clicking each would: the whole
    transcript as it can be seen. (One script rather than a click per call: the toggle events the
    page builds a call on are the same.)"""
    for kind in ("call", "raw"):
        page.evaluate(OPEN + ".forEach((d) => { d.open = true; })", [trial, kind])
        page.wait_for_function(
            OPEN.replace("document.", "[...document.") + "].every((d) => d.dataset.built)", arg=[trial, kind]
        )


def test_a_transcript_reads_as_mail_and_prompts_and_criteria_link_to_the_trials_that_failed(
    mixed_viewer: Path, tmp_path: Path
) -> None:
    with browser_tab(tmp_path) as page:
        page.goto(mixed_viewer.as_uri() + "#trial-run/0")
        page.wait_for_selector("body[data-ready='1']")

        # a fetched mail as a mail: its headers and its body decoded from the base64url MIME part
        open_calls(page, "trial-run/0")
        mail = page.locator("[id='trial-run/0/call-0'] .mail").first
        assert "Sam Rivera" in (mail.locator("td.h-from").text_content() or "") or "sam.rivera" in (
            mail.locator("td.h-from").text_content() or ""
        )
        assert mail.locator("td.h-subject").text_content() == "False positives from the moderation classifier"
        assert DECODED in " ".join((mail.locator("pre.mail-body").text_content() or "").split())
        shown = page.locator("[id='trial-run/0'] .timeline").inner_text()
        assert "GMAIL_FETCH_EMAILS" in shown and base64_runs(shown) == []
        raw = json.loads((mixed_viewer.parent / "trials/trial-run/0/transcript.json").read_text())
        assert base64_runs(json.dumps(raw))  # the transcript itself holds base64: the page does not show it

        # the prompts the agent was given
        page.locator("[id='trial-run/0'] details.prompts > summary").click()
        system = page.locator("[id='trial-run/0'] pre.system-prompt").text_content() or ""
        assert system.startswith("You are a software engineer at Acme AI Labs.")
        assert "Check the latest task" in (
            page.locator("[id='trial-run/0'] pre.task-prompt").text_content() or ""
        )
        assert (
            page.locator("[id='trial-run/0'] table.personas td", has_text="sam.rivera@acme.example").count()
            == 1
        )

        # a trial says what became of it; criteria in rubric order link to the trials where they failed
        assert page.locator("[id='trial-run/0'] > summary .badge").text_content() == "passed"
        assert page.locator("[id='trial-run/1'] > summary .badge").text_content() == "failed"
        order = page.locator("#criteria tr.criterion").evaluate_all("rs => rs.map(r => r.dataset.criterion)")
        assert order == ["T1", "T2", "T3", "T4", "T5"]
        page.locator("[id='criterion-T3'] a").first.click()
        page.wait_for_selector("[id='trial-run/1/T3a'].target")
        assert page.locator("[id='trial-run/1']").evaluate("d => d.open")
        assert "FLAG_THRESHOLD = 0.85 as the service runs" in (
            page.locator("[id='trial-run/1/T3a']").text_content() or ""
        )

        # failures only: the passing trial, the criteria that never failed and the passed parts go
        page.check("#failures-only")
        assert (
            page.locator("[id='trial-run/0']").is_hidden() and page.locator("[id='trial-run/1']").is_visible()
        )
        assert (
            page.locator("[id='criterion-T2']").is_hidden()
            and page.locator("[id='criterion-T3']").is_visible()
        )
        assert page.locator("[id='trial-run/1'] tr.part-passed").first.is_hidden()
        assert page.locator("[id='trial-run/1'] tr.part-failed").first.is_visible()
        page.uncheck("#failures-only")
        assert page.locator("[id='trial-run/0']").is_visible()
        assert page.errors == []


def test_a_failing_trial_stands_beside_a_passing_one_from_where_they_part_and_hostile_mail_stays_text(
    mixed_viewer: Path, tmp_path: Path
) -> None:
    with browser_tab(tmp_path) as page:
        page.goto(mixed_viewer.as_uri() + "#trial-run/divergence")
        page.wait_for_selector("body[data-ready='1']")
        box = page.locator("[id='trial-run/divergence']")
        assert "Why trial 1 failed where trial 0 passed" in (
            box.locator("summary").first.text_content() or ""
        )
        table = box.locator("table.side-by-side")
        table.wait_for()
        heads = table.locator("th").all_text_contents()
        assert heads == ["trial 1 (failed)", "trial 0 (passed)"]
        first = table.locator("tr").nth(1)
        assert "differs" in (first.get_attribute("class") or "")
        cells = [first.locator("td").nth(n).text_content() or "" for n in (0, 1)]
        assert cells[0] != cells[1]
        assert box.locator("table.flipped td", has_text="T3a").count() == 1
        table.locator("th a").first.click()  # to the failing trial itself
        page.wait_for_selector("[id='trial-run/1'].target")

        # the hostile mail: text, its bidi override named, no badge, nothing ran
        page.locator("[id='trial-run/1/call-0'] > summary").click()
        body = page.locator("[id='trial-run/1/call-0'] pre.mail-body").last
        assert body.evaluate("b => b.children.length") == 0
        text = body.text_content() or ""
        assert '<span class="badge st-passed">passed</span><script>' in text and "⟨U+202E⟩deliaf" in text
        assert "\u202e" not in page.locator("body").inner_text()
        assert page.locator(".mail .badge").count() == 0 and page.locator("img").count() == 0
        assert page.evaluate("window.__pwned") is None
        assert page.errors == []


def test_without_javascript_the_page_shows_the_summary_failing_parts_and_transcripts(
    mixed_viewer: Path, tmp_path: Path
) -> None:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium(), headless=True, args=FLAGS)
        try:
            page = browser.new_context(java_script_enabled=False).new_page()
            page.goto(mixed_viewer.as_uri())
            static = page.locator("#static")
            assert static.is_visible()
            assert static.locator(".verdict").text_content() in ("inconclusive", "regression", "pass")
            assert static.locator("table").first.locator("tr").count() == 6  # the criteria, rubric order
            # a failing trial with its failing parts and reasons, opened by its summary (no script)
            page.locator("#static [id='trial-run/1'] > summary").click()
            part = page.locator("#static [id='trial-run/1/T3a']")
            told = part.text_content() or ""
            assert part.is_visible() and "FLAG_THRESHOLD = 0.85 as the service runs" in told
            # its transcript as static HTML: the mail decoded, the hostile one as text
            page.locator("#static [id='trial-run/1/call-0'] > summary").click()
            body = page.locator("#static [id='trial-run/1/call-0'] pre.mail-body").last
            assert body.evaluate("b => b.children.length") == 0
            assert "<script>window.__pwned=3</script>" in (body.text_content() or "")
            page.locator("#static [id='trial-run/0'] > summary").click()
            page.locator("#static [id='trial-run/0/call-0'] > summary").click()
            assert DECODED in " ".join(page.locator("#static [id='trial-run/0/call-0']").inner_text().split())
            assert base64_runs(static.inner_text()) == [] and page.locator("img").count() == 0
        finally:
            browser.close()


def _agreement_on(run: Path) -> None:
    """The run's summary as if baseline/judge.jsonl held one measurement, 100% on T1b over 12 labels."""
    from evals.gate.agreement import measure
    from evals.gate.judge_record import JudgeCheck, JudgeIdentity

    t1b = measure([(1, 1)] * 8 + [(0, 0)] * 4, range(2))
    check = JudgeCheck(
        recorded="2026-12-01T03:40:00Z",
        source="the bundled replays",
        judge=JudgeIdentity(model="claude-test", prompts={}),
        min_agreement=0.8,
        overall=t1b,
        criteria={"trial-run/T1b": t1b},
    )
    path = run / "summary.json"
    summary = json.loads(path.read_text(encoding="utf-8"))
    summary["judge_agreement"] = check.model_dump(mode="json")
    path.write_text(json.dumps(summary), encoding="utf-8")


def test_a_reviewer_labels_judged_parts_by_keyboard_and_the_exported_file_reads_back_as_those_labels(
    mixed_viewer: Path, tmp_path: Path
) -> None:
    from evals.grade.labelled import load_labelled

    run = tmp_path / "run"
    shutil.copytree(mixed_viewer.parent, run)
    _agreement_on(run)
    assert main(["view", "--run", str(run)]) == 0
    grades = [
        json.loads((run / f"trials/trial-run/{t}/grade.json").read_text(encoding="utf-8")) for t in (0, 1)
    ]
    sha = {(t, p["id"]): p["evidence_sha256"] for t, g in enumerate(grades) for p in g["parts"]}
    earlier = {
        "part": "T1b",
        "evidence_sha256": sha[(1, "T1b")],
        "score": 0,
        "by": "bo",
        "why": "wrong threshold",
        "date": "2026-11-30",
        "run": "nightly-7",
    }
    continued = tmp_path / "in" / "nightly-7-bo.jsonl"
    continued.parent.mkdir()
    continued.write_text(json.dumps(earlier) + "\n", encoding="utf-8")

    with browser_tab(tmp_path) as page:
        page.goto((run / "viewer.html").as_uri())
        page.wait_for_selector("body[data-ready='1']")
        # the measured agreement beside the judged criterion (T1's judged part T1b)
        assert "judge vs people: T1b 100% of 12" in (
            page.locator("[id='criterion-T1'] .agreement").text_content() or ""
        )

        page.locator("#labelling > summary").click()
        page.fill("#label-reviewer", "ana")
        page.set_input_files("#labelling input.label-import[data-task='trial-run']", str(continued))
        page.wait_for_selector("#label-said:has-text('imported 1 label')")

        # keyboard first: the first judged part, the judge's score and agreement beside the evidence
        page.keyboard.press("Escape")  # out of the reviewer's field: the keys label
        page.keyboard.press("n")
        first = page.locator("[id='trial-run/0/T1b'] .label-box.label-current")
        first.wait_for()
        assert (first.locator(".judge-score").text_content() or "").startswith("judge's score: 1 / 1")
        assert "judge agrees with people on T1b: 100% of 12 labels" in (
            first.locator(".agreement").text_content() or ""
        )
        page.keyboard.press("0")
        page.keyboard.press("r")
        page.keyboard.type("says the fix without the threshold\tignored")
        page.keyboard.press("Enter")
        assert first.locator("button.chosen").text_content() == "0"
        for _ in range(2):  # T5 of trial 0, then T1b of trial 1 (bo's label shown there)
            page.keyboard.press("n")
        last = page.locator("[id='trial-run/1/T1b'] .label-box.label-current")
        last.wait_for()
        assert "0 by bo (wrong threshold)" in (last.locator(".people").text_content() or "")
        page.keyboard.press("1")
        page.keyboard.press("7")  # more than T1b's points: refused, said
        assert "the most T1b can score is 1" in (page.text_content("#label-said") or "")

        with page.expect_download() as download:
            page.click("#labelling button.label-export[data-task='trial-run']")
        assert download.value.suggested_filename == continued.name  # the imported file, continued
        task = tmp_path / "task"
        (task / "labels").mkdir(parents=True)
        download.value.save_as(task / "labels" / download.value.suggested_filename)
        assert page.errors == []

    read = [
        (x.line.part, x.line.evidence_sha256, x.line.score, x.line.by, x.line.why, x.line.run)
        for x in load_labelled(task)
    ]
    assert read == [
        ("T1b", sha[(1, "T1b")], 0, "bo", "wrong threshold", "nightly-7"),
        ("T1b", sha[(0, "T1b")], 0, "ana", "says the fix without the threshold ignored", run.name),
        ("T1b", sha[(1, "T1b")], 1, "ana", "", run.name),
    ]
    assert all(re.fullmatch(r"\d{4}-\d{2}-\d{2}", x.line.date) for x in load_labelled(task))
