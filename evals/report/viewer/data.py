"""What the viewer shows, read from a run directory through the typed records.

run.json, results.jsonl and the per-trial transcript, outcome and grade through `RunDir`, and
summary.json through `read_summary_if_any`. The result is plain JSON, inlined into one HTML page
(`evals.report.viewer.pack`); the task list is grouped by tier (`evals.report.viewer.tiers`), Notion
changes are read against the seeded state (`evals.report.viewer.notion`).

Bounded so any 100-trial run fits one page: long strings are cut (`MAX_STRING`), a large tool result
is shown as its first `MAX_VALUE` characters (the whole is in the trial's transcript.json), files as
the PR's diff rather than whole trees, and Notion pages only by what the agent changed.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel

from evals.agents.base import ToolCall, Transcript
from evals.core.errors import BadInputError
from evals.gate.summary import Summary, read_summary_if_any
from evals.grade.result import TrialGrade
from evals.records.model import TrialRecord
from evals.records.rundir import RunDir, TrialFile
from evals.report.viewer.notion import pages_view
from evals.report.viewer.tiers import tier_groups
from evals.world.outcome import Outcome

M = TypeVar("M", bound=BaseModel)
MAX_STRING = 2_000
MAX_VALUE = 20_000
MAX_DIFF = 20_000


def clip(value: Any, limit: int = MAX_STRING) -> Any:
    """A JSON value with every string cut to `limit` characters (saying how much was cut)."""
    if isinstance(value, str):
        return value if len(value) <= limit else f"{value[:limit]}… [{len(value) - limit} more characters]"
    if isinstance(value, list):
        return [clip(v, limit) for v in value]
    if isinstance(value, dict):
        return {str(k): clip(v, limit) for k, v in value.items()}
    return value


def bounded(value: Any, where: str) -> Any:
    """A tool call's arguments or result, shown whole when small; a large one as the first
    `MAX_VALUE` characters of its indented JSON, saying where the rest is."""
    value = clip(value)
    text = json.dumps(value, indent=2, ensure_ascii=False)
    if len(text) <= MAX_VALUE:
        return value
    return f"{text[:MAX_VALUE]}\n… [{len(text) - MAX_VALUE} more characters in {where}]"


def _tool_entry(
    call: ToolCall | None, name: str, args: Any, where: str = "transcript.json"
) -> dict[str, Any]:
    if call is None:  # the model asked for a tool the harness did not run (not on the allow-list)
        return {
            "kind": "tool",
            "tool": name,
            "args": bounded(args, where),
            "ok": False,
            "result": None,
            "index": None,
        }
    return {
        "kind": "tool",
        "index": call.index,
        "tool": call.tool,
        "args": bounded(call.args, where),
        "result": bounded(call.result, where),
        "ok": bool(call.result.get("successful", True)) and not call.result.get("error"),
        "latency_s": round(call.latency_s, 4),
    }


def timeline(transcript: Transcript) -> list[dict[str, Any]]:
    """Model turns and tool calls in order. A model agent's messages give the turns (text, then the
    tool calls it asked for, matched in order to the calls the harness recorded); an agent without
    messages (a replay, a custom agent) has its tool calls and final text."""
    calls = list(transcript.tool_calls)
    entries: list[dict[str, Any]] = []
    turn = 0
    for message in transcript.messages:
        if message.get("role") != "assistant" or not isinstance(message.get("content"), list):
            continue
        turn += 1
        for block in message["content"]:
            if block.get("type") == "text" and block.get("text", "").strip():
                entries.append({"kind": "model", "turn": turn, "text": clip(block["text"], 8_000)})
            elif block.get("type") == "tool_use":
                name = str(block.get("name", ""))
                call = calls.pop(0) if calls and calls[0].tool == name else None
                entries.append({**_tool_entry(call, name, block.get("input") or {}), "turn": turn})
    entries += [_tool_entry(call, call.tool, call.args) for call in calls]
    if not transcript.messages and transcript.final_text:
        entries.append({"kind": "model", "turn": None, "text": clip(transcript.final_text, 8_000)})
    return entries


def outcome_view(outcome: Outcome) -> dict[str, Any]:
    """What the agent left behind: each PR with its diff, pushes to the default branch, the Notion
    pages it created or changed (each edit against the seeded text), and the mail it sent."""
    pulls = [
        {
            "repo": repo.full_name,
            "number": pr.number,
            "title": pr.title,
            "body": clip(pr.body),
            "state": "merged" if pr.merged else pr.state,
            "url": pr.url,
            "changed": pr.changed,
            "diff": clip(pr.diff, MAX_DIFF),
        }
        for repo in outcome.repos
        for pr in repo.pulls
    ]
    pushed = [
        {"repo": r.full_name, "branch": r.default_branch, "changed": r.main_changed} for r in outcome.repos
    ]
    return {
        "pulls": pulls,
        "pushed": [p for p in pushed if p["changed"]],
        "pages": pages_view(outcome, MAX_STRING),
        "sent": [clip(mail.model_dump(exclude={"thread_seed_ids"})) for mail in outcome.sent],
    }


def _read(rd: RunDir, record: TrialRecord, kind: TrialFile, model: type[M]) -> M | None:
    """A trial file as its model, or None when it is missing or unreadable (an errored trial): the
    page shows what there is rather than refusing a whole run for one damaged file."""
    try:
        return rd.read_trial(record.scenario, record.trial, kind, model)
    except BadInputError:
        return None


def trial_view(rd: RunDir, record: TrialRecord) -> dict[str, Any]:
    transcript = _read(rd, record, "transcript", Transcript)
    outcome = _read(rd, record, "outcome", Outcome)
    grade = record.grade or _read(rd, record, "grade", TrialGrade)
    return {
        "scenario": record.scenario,
        "trial": record.trial,
        "status": record.status,
        "error": record.error or (transcript.error if transcript else None),
        "total": grade.total if grade else None,
        "max": grade.max_scored if grade else None,
        "passed": grade.passed if grade else None,
        "metrics": record.metrics.model_dump(mode="json"),
        "termination": transcript.termination if transcript else None,
        "parts": [clip(p.model_dump(mode="json")) for p in grade.parts] if grade else [],
        "failed": [p.id for p in grade.parts if p.status == "failed"] if grade else [],
        "timeline": timeline(transcript) if transcript else [],
        "outcome": outcome_view(outcome) if outcome else None,
    }


def run_view(run_dir: Path) -> dict[str, Any]:
    """Everything the page shows, as one JSON object."""
    rd = RunDir(run_dir)
    meta = rd.read_meta()
    records = rd.read_records()
    summary = read_summary_if_any(rd)
    trials = [trial_view(rd, r) for r in records]
    return {
        "run": run_dir.name,
        "meta": meta.dump(),
        "summary": _summary_view(summary) if summary else None,
        "groups": tier_groups(summary, meta.scenarios, [t["scenario"] for t in trials]),
        "trials": trials,
    }


def _summary_view(summary: Summary) -> dict[str, Any]:
    """The verdict, totals and criteria vs baseline; per-trial parts come from the trials themselves."""
    titles = {
        (name if summary.several else "") + ("/" if summary.several else "") + c: v.title
        for name, agg in summary.scenarios.items()
        for c, v in agg.criteria.items()
    }
    data = summary.model_dump(
        mode="json", include={"verdict", "reasons", "notices", "total", "gate", "adaptive"}
    )
    data["criteria"] = {
        key: {**item.model_dump(mode="json"), "title": titles.get(key, "")}
        for key, item in summary.criteria.items()
    }
    data["categories"] = {key: item.model_dump(mode="json") for key, item in summary.categories.items()}
    return data
