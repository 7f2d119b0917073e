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
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import orjson
from pydantic import BaseModel, TypeAdapter

from evals.core.errors import BadInputError
from evals.gate.summary import Summary, read_summary_if_any
from evals.grade.result import PartGrade, TrialGrade
from evals.records.model import TrialRecord
from evals.records.rundir import RunDir, TrialFile
from evals.report.viewer.divergence import Side, divergence
from evals.report.viewer.notion import pages_view
from evals.report.viewer.results import present
from evals.report.viewer.results.raw import elided_json, is_base64_blob
from evals.report.viewer.results.shapes import Seen
from evals.report.viewer.tiers import tier_groups

if TYPE_CHECKING:
    from evals.agents.base import ToolCall, Transcript
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
    """A tool call's arguments or result as the raw view shows it, base64 elided: whole when
    small, a large one as the first `MAX_VALUE` characters of its indented JSON, saying where the
    rest is."""
    text = elided_json(value)
    if len(text) <= MAX_VALUE:
        return orjson.loads(text)
    return f"{text[:MAX_VALUE]}\n… [{len(text) - MAX_VALUE} more characters in {where}]"


def brief(args: Any) -> str:
    """The call's short arguments on one line (`query="in:inbox" max_results=20`): what a reader
    scans a timeline by; long values (bodies, contents) are in the views below it."""
    if not isinstance(args, dict):
        return ""
    shown = []
    for key, value in args.items():
        short = isinstance(value, str) and len(value) <= 60 and not is_base64_blob(value)
        if short or isinstance(value, bool | int | float):
            shown.append(f"{key}={json.dumps(value, ensure_ascii=False)}")
    return " ".join(shown)[:240]


def _tool_entry(
    call: ToolCall | None, name: str, args: Any, seen: Seen, where: str = "transcript.json"
) -> dict[str, Any]:
    if call is None:  # the model asked for a tool the harness did not run (not on the allow-list)
        return {
            "kind": "tool",
            "tool": name,
            "brief": brief(args),
            "args": bounded(args, where),
            "ok": False,
            "result": None,
            "index": None,
            "args_view": [],
            "view": [],
        }
    args_view, view = present(call.tool, call.args, call.result, seen)
    return {
        "kind": "tool",
        "index": call.index,
        "tool": call.tool,
        "brief": brief(call.args),
        "args": bounded(call.args, where),
        "result": bounded(call.result, where),
        "args_view": args_view,
        "view": view,
        "ok": bool(call.result.get("successful", True)) and not call.result.get("error"),
        "latency_s": round(call.latency_s, 4),
    }


def _said(entries: list[dict[str, Any]]) -> None:
    """Mark the model's last text as its final answer; the rest it said between tool calls."""
    texts = [e for e in entries if e["kind"] == "model"]
    for e in texts:
        e["said"] = "between tool calls"
    if texts and entries[-1] is texts[-1]:
        texts[-1]["said"] = "final answer"


def _content_entry(block: dict[str, Any], turn: int) -> dict[str, Any] | None:
    """An assistant content block other than a tool call: text, thinking (marked), or any other
    kind by its type."""
    kind = block.get("type")
    if kind == "text":
        text = str(block.get("text", ""))
        return {"kind": "model", "turn": turn, "text": clip(text, 8_000)} if text.strip() else None
    if kind == "thinking":
        return {"kind": "thinking", "turn": turn, "text": clip(str(block.get("thinking", "")), 8_000)}
    if kind == "redacted_thinking":
        return {"kind": "thinking", "turn": turn, "text": "(redacted by the API: encrypted thinking)"}
    return {
        "kind": "other",
        "turn": turn,
        "type": str(kind),
        "text": clip(json.dumps(block, ensure_ascii=False)),
    }


def timeline(transcript: Transcript) -> list[dict[str, Any]]:
    """Model turns and tool calls in order. A model agent's messages give the turns (thinking and
    text, then the tool calls it asked for, matched in order to the calls the harness recorded); an
    agent without messages (a replay, a custom agent) has its tool calls and final text. Each call
    has its views (`evals.report.viewer.results`), read in order so a write is seen against the read
    before it."""
    calls = list(transcript.tool_calls)
    seen = Seen()
    entries: list[dict[str, Any]] = []
    turn = 0
    for message in transcript.messages:
        if message.get("role") != "assistant" or not isinstance(message.get("content"), list):
            continue
        turn += 1
        for block in message["content"]:
            if not isinstance(block, dict):
                continue
            if block.get("type") == "tool_use":
                name = str(block.get("name", ""))
                call = calls.pop(0) if calls and calls[0].tool == name else None
                entries.append({**_tool_entry(call, name, block.get("input") or {}, seen), "turn": turn})
            elif (entry := _content_entry(block, turn)) is not None:
                entries.append(entry)
    entries += [_tool_entry(call, call.tool, call.args, seen) for call in calls]
    if not transcript.messages and transcript.final_text:
        entries.append({"kind": "model", "turn": None, "text": clip(transcript.final_text, 8_000)})
    _said(entries)
    return entries


def prompts_view(transcript: Transcript) -> dict[str, Any] | None:
    """The prompts the agent was given: system, the agent's addendum, task and personas. A
    transcript written before they were recorded has, at most, the task as the first user message."""
    if transcript.prompts is not None:
        return clip(transcript.prompts.model_dump(mode="json"), 20_000)  # type: ignore[no-any-return]
    first = next((m for m in transcript.messages if m.get("role") == "user"), None)
    if first is None:
        return None
    content = first.get("content")
    text = (
        content
        if isinstance(content, str)
        else "".join(
            str(b.get("text", "")) for b in content or [] if isinstance(b, dict) and b.get("type") == "text"
        )
    )
    return {
        "task": clip(text, 20_000),
        "note": "recorded before prompts were: the task from the first message only",
    }


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


_PARTS = TypeAdapter(list[PartGrade])


def _cut(holder: dict[str, Any], key: str) -> None:
    value = holder.get(key)
    if isinstance(value, str) and len(value) > MAX_STRING:
        holder[key] = f"{value[:MAX_STRING]}… [{len(value) - MAX_STRING} more characters in grade.json]"


def parts_view(grade: TrialGrade) -> list[dict[str, Any]]:
    """A trial's rubric parts as JSON (pydantic writes it, orjson reads it back: a 100-trial run has
    thousands of parts), the texts a part can carry at length cut to `MAX_STRING` characters."""
    parts: list[dict[str, Any]] = orjson.loads(_PARTS.dump_json(grade.parts))
    for part in parts:
        _cut(part, "reason")
        _cut(part, "evidence_excerpt")
        if isinstance(part.get("judge"), dict):
            _cut(part["judge"], "critique")
        for check in part.get("checks") or []:
            _cut(check, "detail")
            _cut(check, "evidence")
    return parts


def status_label(status: str, graded: bool, passed: bool | None) -> str:
    """What became of a trial, in a reader's words: errored (infrastructure: not scored), not
    graded, failed (its total under the pass threshold), passed, or undecided (unscored parts could
    flip it either way)."""
    if status != "ok":
        return "errored"
    if not graded:
        return "not graded"
    return {True: "passed", False: "failed"}.get(passed, "undecided")  # type: ignore[arg-type]


def _files(rd: RunDir, record: TrialRecord) -> tuple[Transcript | None, Outcome | None]:
    """The trial's transcript and outcome, when it has them. Their models are imported only then:
    a run of records alone (a merged shard's, the speed bench's) never pays for building them."""
    where = (record.scenario, record.trial)
    if not rd.trial_file(*where, "transcript").is_file() and not rd.trial_file(*where, "outcome").is_file():
        return None, None
    from evals.agents.base import Transcript
    from evals.world.outcome import Outcome

    return _read(rd, record, "transcript", Transcript), _read(rd, record, "outcome", Outcome)


def _trial(rd: RunDir, record: TrialRecord) -> tuple[dict[str, Any], Side]:
    """The trial's view, and what the divergence view compares of it."""
    transcript, outcome = _files(rd, record)
    grade = record.grade or _read(rd, record, "grade", TrialGrade)
    entries = timeline(transcript) if transcript else []
    parts = parts_view(grade) if grade else []
    view = {
        "scenario": record.scenario,
        "trial": record.trial,
        "status": status_label(record.status, grade is not None, grade.passed if grade else None),
        "error": record.error or (transcript.error if transcript else None),
        "total": grade.total if grade else None,
        "max": grade.max_scored if grade else None,
        "passed": grade.passed if grade else None,
        "agent": record.agent,
        "metrics": record.metrics.model_dump(mode="json"),
        "termination": transcript.termination if transcript else None,
        "prompts": prompts_view(transcript) if transcript else None,
        "parts": parts,
        "failed": [p.id for p in grade.parts if p.status == "failed"] if grade else [],
        "timeline": entries,
        "outcome": outcome_view(outcome) if outcome else None,
    }
    names = [n for r in (outcome.repos if outcome else []) for n in (r.full_name, r.full_name.split("/")[-1])]
    side = Side(
        trial=record.trial,
        passed=grade.passed if grade and record.status == "ok" else None,
        calls=list(transcript.tool_calls) if transcript else [],
        names=sorted(set(names), key=len, reverse=True),
        parts=parts,
        entries=[n for n, e in enumerate(entries) if e["kind"] == "tool" and e["index"] is not None],
    )
    return view, side


def trial_view(rd: RunDir, record: TrialRecord) -> dict[str, Any]:
    return _trial(rd, record)[0]


def run_view(
    run_dir: Path, summary: Summary | None = None, records: list[TrialRecord] | None = None
) -> dict[str, Any]:
    """Everything the page shows, as one JSON object. `summary` and `records` are read from the run
    directory unless given (`run`, `compare` and `grade` have them in hand)."""
    rd = RunDir(run_dir)
    meta = rd.read_meta()
    records = rd.read_records() if records is None else records
    summary = read_summary_if_any(rd) if summary is None else summary
    read = [_trial(rd, r) for r in records]
    trials = [view for view, _ in read]
    groups = tier_groups(summary, meta.scenarios, [t["scenario"] for t in trials])
    for group in groups:
        for task in group["tasks"]:
            task["divergence"] = divergence([read[i][1] for i in task["trials"]])
    return {
        "run": run_dir.name,
        "meta": meta.dump(),
        "summary": _summary_view(summary, trials) if summary else None,
        "groups": groups,
        "trials": trials,
    }


_NUMBER = re.compile(r"(\d+)")


def natural(key: str) -> list[Any]:
    """C2 before C10: numbers in a name compared as numbers."""
    return [int(x) if x.isdigit() else x for x in _NUMBER.split(key)]


def criteria_order(summary: Summary, trials: list[dict[str, Any]]) -> list[str]:
    """The flat criterion keys in rubric order: the order a trial's parts list them (a grade keeps
    the rubric's order; summary.json's objects do not), then any criterion no trial graded."""
    order: list[str] = []
    run_order = {name: n for n, name in enumerate(summary.run.scenarios)}
    for t in sorted(trials, key=lambda t: run_order.get(t["scenario"], len(run_order))):
        prefix = f"{t['scenario']}/" if summary.several else ""
        for part in t["parts"]:
            key = prefix + part["criterion"]
            if key in summary.criteria and key not in order:
                order.append(key)
    return order + sorted((k for k in summary.criteria if k not in order), key=natural)


def criterion_trials(trials: list[dict[str, Any]], several: bool) -> dict[str, dict[str, Any]]:
    """Per flat criterion key: the trials where one of its parts failed (at that part), and how many
    trials graded it."""
    failed: dict[str, dict[tuple[str, int], str]] = {}
    graded: dict[str, set[tuple[str, int]]] = {}
    for t in trials:
        prefix = f"{t['scenario']}/" if several else ""
        where = (t["scenario"], t["trial"])
        for part in t["parts"]:
            key = prefix + part["criterion"]
            graded.setdefault(key, set()).add(where)
            if part["status"] == "failed":
                failed.setdefault(key, {}).setdefault(where, part["id"])
    return {
        key: {"failed": [[s, n, part] for (s, n), part in failed.get(key, {}).items()], "graded": len(seen)}
        for key, seen in graded.items()
    }


def _summary_view(summary: Summary, trials: list[dict[str, Any]]) -> dict[str, Any]:
    """The verdict, totals and criteria vs baseline (in rubric order, each with the trials where it
    failed); per-trial parts come from the trials themselves."""
    titles = {
        (name if summary.several else "") + ("/" if summary.several else "") + c: v.title
        for name, agg in summary.scenarios.items()
        for c, v in agg.criteria.items()
    }
    data = summary.model_dump(
        mode="json", include={"verdict", "reasons", "notices", "total", "gate", "adaptive"}
    )
    where = criterion_trials(trials, summary.several)
    data["criteria"] = {
        key: {
            **summary.criteria[key].model_dump(mode="json"),
            "title": titles.get(key, ""),
            "trials": where.get(key, {"failed": [], "graded": 0}),
        }
        for key in criteria_order(summary, trials)
    }
    data["criteria_order"] = list(data["criteria"])
    data["categories"] = {key: item.model_dump(mode="json") for key, item in summary.categories.items()}
    return data
