"""What the viewer shows, read from a run directory through the typed records.

run.json, results.jsonl and the per-trial transcript, outcome and grade through `RunDir`, and
summary.json through `read_summary_if_any` (or the summary and records a command has in hand). The
result is plain JSON, inlined into one HTML page (`evals.report.viewer.pack`) and drawn without
JavaScript too (`evals.report.viewer.static`). Each part has its module: the timeline of a transcript
(`timeline`, its calls drawn by kind in `results/`), the summary's criteria in rubric order
(`criteria`), tasks by tier (`tiers`), Notion changes against the seeded state (`notion`), a failing
trial beside a passing one (`divergence`), the judged parts to label and the judge's measured
agreement (`labelling`).

Bounded so any 100-trial run fits one page: long strings are cut (`MAX_STRING`), files as the PR's
diff rather than whole trees, Notion pages only by what the agent changed.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import orjson
from pydantic import BaseModel, TypeAdapter

from evals.core.errors import BadInputError
from evals.gate.summary import Summary, read_summary_if_any
from evals.grade.result import PartGrade, TrialGrade
from evals.records.model import TrialRecord
from evals.records.rundir import RunDir, TrialFile
from evals.report.viewer.criteria import summary_view
from evals.report.viewer.divergence import Side, divergence
from evals.report.viewer.labelling import labelling_view
from evals.report.viewer.notion import pages_view
from evals.report.viewer.tiers import tier_groups
from evals.report.viewer.timeline import MAX_STRING, clip, prompts_view, timeline

if TYPE_CHECKING:
    from evals.agents.base import Transcript
    from evals.world.outcome import Outcome

M = TypeVar("M", bound=BaseModel)
MAX_DIFF = 20_000


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


def run_view(
    run_dir: Path,
    summary: Summary | None = None,
    records: list[TrialRecord] | None = None,
    abouts: dict[str, dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """Everything the page shows, as one JSON object. `summary` and `records` are read from the run
    directory unless given (`run`, `compare` and `grade` have them in hand); `abouts` is each
    scenario's about.yaml (evals/scenario/about.py), shown above its trials."""
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
            if abouts and task["name"] in abouts:
                task["about"] = abouts[task["name"]]
    return {
        "run": run_dir.name,
        "meta": meta.dump(),
        "summary": summary_view(summary, trials) if summary else None,
        "groups": groups,
        "trials": trials,
        "labelling": labelling_view(trials, summary),
    }
