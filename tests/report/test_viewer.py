"""`python -m evals view`: one self-contained viewer.html per run, its data inlined and inert."""

from __future__ import annotations

import base64
import gzip
import json
import re
from pathlib import Path

import pytest
import yaml

from evals.cli import main
from evals.report.viewer import read_page, render_page
from evals.report.viewer.timeline import MAX_STRING, MAX_VALUE, bounded, clip
from evals.scenario.about import load_about

PLANTED = "ghp_PlantedViewerSecret0123456789"
PACKED = re.compile(r'<script type="application/octet-stream" id="run-packed"[^>]*>(.*?)</script>', re.S)


def packed_json(page: str) -> str:
    """The packed block's JSON as stored (pooled values still references)."""
    (packed,) = PACKED.findall(page)
    return gzip.decompress(base64.b64decode(packed)).decode("utf-8")


def test_run_compare_and_grade_write_the_viewer_beside_the_report_and_say_where(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The report's viewer link and every "in the viewer" anchor open at once: no `evals view` first."""
    out = project / "runs" / "regressed"
    for argv in (["run", "--agent", "replay:regressed", "--out", str(out)], ["compare", "--run", str(out)],
                 ["grade", "--run", str(out)]):  # fmt: skip
        (out / "viewer.html").unlink(missing_ok=True)
        assert main(argv) == 1
        printed = capsys.readouterr().out
        assert (out / "viewer.html").is_file() and (out / "report.md").is_file()
        assert f"Viewer: {out / 'viewer.html'}" in printed, argv
        assert "[viewer.html](viewer.html)" in (out / "report.md").read_text(encoding="utf-8")
    assert read_page((out / "viewer.html").read_text(encoding="utf-8"))["summary"]["verdict"] == "regression"


def test_view_writes_one_self_contained_page_with_the_run_in_it(project: Path) -> None:
    out = project / "runs" / "regressed"
    assert main(["run", "--agent", "replay:regressed", "--trials", "2", "--out", str(out)]) == 1
    assert main(["view", "--run", str(out)]) == 0
    page = (out / "viewer.html").read_text(encoding="utf-8")
    template = re.sub(r"<noscript>.*</noscript>", "", page.split('id="run-data">')[0], flags=re.S)
    for remote in ("http://", "https://", 'src="', "<link "):  # nothing fetched from anywhere
        assert remote not in template
    static = page.split("<noscript>")[1].split("</noscript>")[0]
    assert 'src="' not in static and 'href="http' not in static  # its links are anchors in the page
    # the no-JS header tells the story first (#40): the concrete failure of the largest fall, then statistics
    story = static.index('class="story"')
    failure = static.index("FLAG_THRESHOLD = 0.85 as the service runs")
    assert story < failure < static.index("How the gate decided")
    assert story < static.index("88% CI")
    data = read_page(page)
    assert data["summary"]["verdict"] == "regression"
    assert data["summary"]["criteria"]["T3"]["title"].startswith("Threshold exactly 0.85")
    trial = data["trials"][0]
    assert (trial["scenario"], trial["trial"]) == ("trial-run", 0)
    tools = [e["tool"] for e in trial["timeline"] if e["kind"] == "tool"]
    assert tools[0] == "GMAIL_FETCH_EMAILS" and "GITHUB_CREATE_A_PULL_REQUEST" in tools
    assert trial["timeline"][-1] == {
        "kind": "model",
        "turn": None,
        "text": "Raised the threshold and replied.",
        "said": "final answer",
    }
    failed = {p["id"]: p for p in trial["parts"] if p["status"] == "failed"}
    assert "FLAG_THRESHOLD = 0.85 as the service runs" in failed["T3a"]["reason"]
    (pr,) = trial["outcome"]["pulls"]
    assert "+FLAG_THRESHOLD = 0.80" in pr["diff"]
    assert trial["outcome"]["sent"][0]["to"] == ["sam.rivera@acme.example"]


def test_each_task_shows_what_it_tests_from_its_about_yaml(project: Path) -> None:
    """A reader of a failing trial sees the behaviour, each trap and the source that decides it."""
    about = project / "scenario" / "trial-run" / "about.yaml"
    doc = yaml.safe_load(about.read_text(encoding="utf-8"))
    doc["behaviour"] = "<b>spec</b> beats a stale constant"  # text, never markup
    about.write_text(yaml.safe_dump(doc), encoding="utf-8")
    out = project / "runs" / "regressed"
    assert main(["run", "--agent", "replay:regressed", "--trials", "1", "--out", str(out)]) == 1
    page = (out / "viewer.html").read_text(encoding="utf-8")
    (group,) = read_page(page)["groups"]
    (task,) = group["tasks"]
    assert task["about"] == load_about(about.parent).model_dump(mode="json")  # type: ignore[union-attr]
    assert task["about"]["traps"] and all(t["source_of_truth"] for t in task["about"]["traps"])
    static = page.split("<noscript>")[1].split("</noscript>")[0]
    assert "What this task tests: &lt;b&gt;spec&lt;/b&gt; beats a stale constant" in static
    assert "Decided by: " in static and "<b>spec</b>" not in static

    about.unlink()  # a task without about.yaml shows none, and the page is still written
    assert main(["view", "--run", str(out)]) == 0
    (group,) = read_page((out / "viewer.html").read_text(encoding="utf-8"))["groups"]
    assert "about" not in group["tasks"][0]


def test_nothing_in_the_data_can_close_the_script_or_open_markup() -> None:
    hostile = "</script><script>alert(1)</script><!-- x --> & \u2028"
    # "scenario" is drawn at once (the plain part), "text" is a detail (the packed part)
    page = render_page({"trials": [{"scenario": hostile, "text": hostile}]})
    payload = page.split('id="run-data">')[1].split("</script>")[0]
    assert "<" not in payload and ">" not in payload and "&" not in payload
    assert r"\u003c/script" in payload  # the hostile text is in the plain part, escaped
    (packed,) = PACKED.findall(page)
    assert re.fullmatch(r"[A-Za-z0-9+/]+=*", packed)  # base64 only: nothing to close or open
    trial = read_page(page)["trials"][0]
    assert trial["scenario"] == trial["text"] == hostile  # the same text once parsed


def test_a_secret_in_a_run_file_is_redacted_before_the_page_packs_it(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A packed page cannot be searched byte by byte for a leak as the run's other files are, so the
    viewer redacts known secrets itself, even from a file written unredacted (an older run)."""
    out = project / "runs" / "leaky"
    assert main(["run", "--agent", "replay:regressed", "--trials", "1", "--out", str(out)]) == 1
    path = out / "trials" / "trial-run" / "0" / "transcript.json"
    transcript = json.loads(path.read_text(encoding="utf-8"))
    transcript["tool_calls"][0]["result"]["data"]["note"] = f"token={PLANTED}"
    path.write_text(json.dumps(transcript), encoding="utf-8")
    monkeypatch.setenv("GITHUB_TOKEN", PLANTED)
    assert main(["view", "--run", str(out)]) == 0
    page = (out / "viewer.html").read_text(encoding="utf-8")
    shown = json.dumps(read_page(page), ensure_ascii=False)
    assert PLANTED not in page and PLANTED not in shown
    assert "token=[REDACTED]" in shown


def test_long_strings_are_cut_and_say_so() -> None:
    value = {"content": "x" * (MAX_STRING + 500), "n": 3, "list": ["short"]}
    cut = clip(value)
    assert cut["content"].endswith("… [500 more characters]") and len(cut["content"]) < MAX_STRING + 40
    assert cut["n"] == 3 and cut["list"] == ["short"]


def test_a_long_string_in_many_trials_is_stored_once() -> None:
    diff = "+FLAG_THRESHOLD = 0.85\n" * 40
    trials = [{"trial": n, "outcome": {"pulls": [{"diff": diff}]}} for n in range(50)]
    page = render_page({"trials": trials})
    packed = packed_json(page)
    assert packed.count("FLAG_THRESHOLD") == 40  # one copy, not fifty
    assert packed.count('"pulls"') == 1  # the whole identical outcome, stored once
    assert read_page(page)["trials"] == trials


def test_a_huge_tool_result_is_shown_cut_with_where_the_rest_is() -> None:
    small = {"data": {"id": "abc"}, "successful": True}
    assert bounded(small, "transcript.json") == small
    huge = {"data": {"blocks": [{"id": f"b{n}", "text": "row"} for n in range(2000)]}}
    shown = bounded(huge, "transcript.json")
    assert isinstance(shown, str) and shown.startswith('{\n  "data": {')
    assert shown.endswith("more characters in transcript.json]") and len(shown) < MAX_VALUE + 80


def test_the_pr_verdict_never_publishes_a_viewer_the_agents_job_wrote(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The verdict job uploads viewer.html as the `evals-viewer` artifact: one the job where the PR's
    agent ran left behind (any HTML at all) is removed with its summary and report, and the verdict
    writes its own from the records."""
    from evals.github.pr_gate import gate
    from evals.records.rundir import RunDir

    out = project / "runs" / "pr"
    assert main(["run", "--agent", "replay:regressed", "--out", str(out)]) == 1
    planted = "<script>document.title='pwned'</script><p>all green</p>"
    RunDir(out).write_viewer(planted)
    monkeypatch.setenv("EVALS_SCENARIOS", "trial-run")
    assert gate(out, None, project).verdict == "regression"
    page = (out / "viewer.html").read_text(encoding="utf-8")
    assert planted not in page and read_page(page)["summary"]["verdict"] == "regression"
    RunDir(out).write_viewer(planted)
    RunDir(out).forget_outputs()
    assert not (out / "viewer.html").exists()
