"""backup-window's own check: a job's cron schedule in a YAML jobs file, read as cron fields.

The vocabulary reads Kubernetes manifests and env templates, not a job runner's YAML. The file is
parsed with a YAML parser and the schedule compared field by field, with leading zeros dropped, so
`"0 3 * * *"`, `"00 03 * * *"` and `0 3 * * *` unquoted are the same schedule and `"0 2 * * *"` is
not. Registered as `backup-window.job_schedule`, with `backup-window.job_unchanged` (a colleague's
finished job entry kept, compared as the runner reads it: merge keys and repeated keys resolved as
the repository's tests load the file, with the top-level keys that apply to every job) and
`backup-window.checklist` (the remaining items ticked in place, the colleague's ticked items left
as they are): the scenario is about finishing partial work, and
neither "this entry is as merged" nor "this to-do is ticked" is in the package's vocabulary.
"""

from __future__ import annotations

import re

import yaml

from evals.grade.checks import (
    AgentArtefactError,
    CheckResult,
    GradeContext,
    at_some_changed_head,
    bounded,
    check,
    reading,
)


def fields(cron: object) -> list[str]:
    """A cron expression's fields, each number without leading zeros (`03` -> `3`)."""
    return [f.lstrip("0") or "0" if f.isdigit() else f for f in str(cron).split()]


@check("job_schedule")
def job_schedule(ctx: GradeContext, path: str, job: str, cron: str) -> CheckResult:
    """At some head that changed `path`, `jobs.<job>.schedule` is the cron expression `cron`."""

    def look(label: str, files: dict[str, str]) -> CheckResult:
        try:
            with reading(path):  # too deep or too large: this head fails with the reason
                doc = bounded(yaml.safe_load(files.get(path, "")), path) or {}
        except yaml.YAMLError as exc:
            return CheckResult(False, f"{label}: {path} is not valid YAML ({str(exc).splitlines()[0]})")
        entry = (doc.get("jobs") or {}).get(job) if isinstance(doc, dict) else None
        schedule = entry.get("schedule") if isinstance(entry, dict) else None
        passed = schedule is not None and fields(schedule) == fields(cron)
        return CheckResult(passed, f"{label}: jobs.{job}.schedule = {schedule!r}")

    return at_some_changed_head(ctx.outcome, path, look, expected=f"jobs.{job}.schedule = {cron!r}")


UTC = {"utc", "etc/utc", "z", "gmt", "etc/gmt", "+00:00", "00:00"}
TIMEZONE = re.compile(r"^(?:time[_-]?zone|tz)$", re.IGNORECASE)


def _settings(mapping: dict[object, object]) -> dict[str, object]:
    """A mapping's keys as they bear on a schedule: a time zone that restates the file's UTC
    ("Schedules are cron expressions in UTC", README) is no setting, and a schedule is its cron
    fields (`05 3 * * *` is `5 3 * * *`)."""
    out: dict[str, object] = {}
    for key, value in mapping.items():
        name = str(key)
        if TIMEZONE.match(name) and str(value).strip().casefold() in UTC:
            continue
        out[name] = fields(value) if name == "schedule" else value
    return out


def _template(key: object) -> bool:
    """A top-level key that only holds YAML anchors for entries to merge (`x-backup: &backup`,
    `.defaults:`, as Compose and GitLab write them): what it changes shows in the entries using it."""
    return str(key).startswith(("x-", "."))


def _job(text: str, job: str) -> object:
    """`jobs.<job>` as the runner reads it, or a string saying why there is none. The file is read
    the way the repository's own tests load it (`yaml.safe_load(...)["jobs"]`): merge keys (`<<:
    *anchor`) resolved and a key written twice read as its last value, so an entry redefined below,
    or given its override through an anchor, reads as redefined. With it come the document's other
    top-level keys (a `timezone:`, a `defaults:` block, a pause list): no loader in the repository
    says they are ignored, so one added or changed changes every job's effective definition."""
    try:
        with reading("the YAML"):
            doc = bounded(yaml.safe_load(text), "the YAML") or {}
    except yaml.YAMLError:
        return "<not valid YAML>"
    except AgentArtefactError:
        return "<too deep or too large to read>"
    if not isinstance(doc, dict):
        return "<no jobs>"
    jobs = doc.get("jobs")
    if not isinstance(jobs, dict):
        return "<no jobs>"
    entry = jobs.get(job, "<missing>")
    shared = {k: v for k, v in doc.items() if k != "jobs" and not _template(k)}
    return {
        "entry": _settings(entry) if isinstance(entry, dict) else entry,
        "document": _settings(shared),
    }


@check("job_unchanged")
def job_unchanged(ctx: GradeContext, path: str, job: str) -> CheckResult:
    """`jobs.<job>` reads as seeded, as the runner reads it (schedule, command and every other key,
    and the document-wide keys that apply to every job) at every head and on the default branch:
    a colleague's finished, merged entry is kept, not redone."""
    repo = ctx.outcome.repos[0]
    seeded = _job(repo.seed_files.get(path, ""), job)
    states = [*repo.heads()] + ([] if repo.main_changed else [(repo.default_branch, repo.main_files)])
    changed = [f"{label}: {_job(files.get(path, ''), job)!r}" for label, files in states
               if _job(files.get(path, ""), job) != seeded]  # fmt: skip
    if changed:
        return CheckResult(False, f"jobs.{job} changed from {seeded!r}: " + "; ".join(changed))
    return CheckResult(True, f"jobs.{job} kept as seeded at {len(states)} state(s)")


@check("checklist")
def checklist(ctx: GradeContext, page: str, ticked: list[str], kept: list[str]) -> CheckResult:
    """On `page`, the to-do blocks keyed `ticked` are checked (in place: the seeded blocks, not new
    ones), and those keyed `kept` (someone else's finished items) read and stay checked as seeded."""
    before = next((p for p in ctx.seeded.pages if p.key == page), None)
    after = ctx.outcome.page(page)
    if before is None or after is None:
        return CheckResult(False, f"page {page!r} is missing")
    was = {b.key: b for b in before.blocks if b.key}
    now = {b.key: b for b in after.blocks if b.key and not b.archived}
    problems = [f"{k} is not ticked" for k in ticked if k not in now or not now[k].checked]
    problems += [
        f"{k} was changed ({now[k].text!r}, checked={now[k].checked})" if k in now else f"{k} was removed"
        for k in kept
        if k not in now or (now[k].text, now[k].checked) != (was[k].text, was[k].checked)
    ]
    if problems:
        return CheckResult(False, f"{after.title}: " + "; ".join(problems))
    return CheckResult(True, f"{after.title}: {', '.join(ticked)} ticked; {', '.join(kept)} kept")
