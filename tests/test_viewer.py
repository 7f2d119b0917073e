"""`python -m evals view`: one self-contained viewer.html per run, its data inlined and inert."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from evals.cli import main
from evals.viewer import render_page
from evals.viewer.data import MAX_STRING, MAX_VALUE, bounded, clip

SCRIPT = re.compile(r'<script type="application/json" id="run-data">(.*?)</script>', re.S)


def thaw(value: Any, pool: list[Any]) -> Any:
    """The page's pooled values put back, as its script does."""
    if isinstance(value, list):
        return [thaw(v, pool) for v in value]
    if isinstance(value, dict):
        if list(value) == ["$s"]:
            return thaw(pool[value["$s"]], pool)
        return {k: thaw(v, pool) for k, v in value.items()}
    return value


def inlined(page: str) -> dict[str, Any]:
    (payload,) = SCRIPT.findall(page)
    data: dict[str, Any] = json.loads(payload)
    data["trials"] = thaw(data["trials"], data["pool"])
    return data


def test_view_writes_one_self_contained_page_with_the_run_in_it(project: Path) -> None:
    out = project / "runs" / "regressed"
    assert main(["run", "--agent", "replay:regressed", "--trials", "2", "--out", str(out)]) == 1
    assert main(["view", "--run", str(out)]) == 0
    page = (out / "viewer.html").read_text(encoding="utf-8")
    for remote in ("http://", "https://cdn", 'src="http', "<link "):  # nothing fetched from anywhere
        assert remote not in page.split('id="run-data">')[0]
    data = inlined(page)
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
    }
    failed = {p["id"]: p for p in trial["parts"] if p["status"] == "failed"}
    assert "expected FLAG_THRESHOLD = 0.85" in failed["T3a"]["reason"]
    (pr,) = trial["outcome"]["pulls"]
    assert "+FLAG_THRESHOLD = 0.80" in pr["diff"]
    assert trial["outcome"]["sent"][0]["to"] == ["sam.rivera@acme.example"]


def test_nothing_in_the_data_can_close_the_script_or_open_markup() -> None:
    hostile = "</script><script>alert(1)</script><!-- x --> & \u2028"
    page = render_page({"trials": [{"text": hostile}]})
    payload = page.split('id="run-data">')[1].split("</script>")[0]
    assert "<" not in payload and ">" not in payload and "&" not in payload
    assert inlined(page)["trials"][0]["text"] == hostile  # the same text once parsed


def test_long_strings_are_cut_and_say_so() -> None:
    value = {"content": "x" * (MAX_STRING + 500), "n": 3, "list": ["short"]}
    cut = clip(value)
    assert cut["content"].endswith("… [500 more characters]") and len(cut["content"]) < MAX_STRING + 40
    assert cut["n"] == 3 and cut["list"] == ["short"]


def test_a_long_string_in_many_trials_is_stored_once() -> None:
    diff = "+FLAG_THRESHOLD = 0.85\n" * 40
    trials = [{"trial": n, "outcome": {"pulls": [{"diff": diff}]}} for n in range(50)]
    page = render_page({"trials": trials})
    assert page.count("FLAG_THRESHOLD") == 40  # one copy, not fifty
    assert page.count('"pulls"') == 1  # the whole identical outcome, stored once
    assert inlined(page)["trials"] == trials


def test_a_huge_tool_result_is_shown_cut_with_where_the_rest_is() -> None:
    small = {"data": {"id": "abc"}, "successful": True}
    assert bounded(small, "transcript.json") == small
    huge = {"data": {"blocks": [{"id": f"b{n}", "text": "row"} for n in range(2000)]}}
    shown = bounded(huge, "transcript.json")
    assert isinstance(shown, str) and shown.startswith('{\n  "data": {')
    assert shown.endswith("more characters in transcript.json]") and len(shown) < MAX_VALUE + 80
