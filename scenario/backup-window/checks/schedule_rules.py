"""backup-window's own check: a job's cron schedule in a YAML jobs file, read as cron fields.

The vocabulary reads Kubernetes manifests and env templates, not a job runner's YAML. The file is
parsed with a YAML parser and the schedule compared field by field, with leading zeros dropped, so
`"0 3 * * *"`, `"00 03 * * *"` and `0 3 * * *` unquoted are the same schedule and `"0 2 * * *"` is
not. Registered as `backup-window.job_schedule`.
"""

from __future__ import annotations

import yaml

from evals.grade.checks.common import at_some_changed_head
from evals.grade.registry import CheckResult, GradeContext, check


def fields(cron: object) -> list[str]:
    """A cron expression's fields, each number without leading zeros (`03` -> `3`)."""
    return [f.lstrip("0") or "0" if f.isdigit() else f for f in str(cron).split()]


@check("job_schedule")
def job_schedule(ctx: GradeContext, path: str, job: str, cron: str) -> CheckResult:
    """At some head that changed `path`, `jobs.<job>.schedule` is the cron expression `cron`."""

    def look(label: str, files: dict[str, str]) -> CheckResult:
        try:
            doc = yaml.safe_load(files.get(path, "")) or {}
        except yaml.YAMLError as exc:
            return CheckResult(False, f"{label}: {path} is not valid YAML ({str(exc).splitlines()[0]})")
        entry = (doc.get("jobs") or {}).get(job) if isinstance(doc, dict) else None
        schedule = entry.get("schedule") if isinstance(entry, dict) else None
        passed = schedule is not None and fields(schedule) == fields(cron)
        return CheckResult(passed, f"{label}: jobs.{job}.schedule = {schedule!r}")

    return at_some_changed_head(ctx.outcome, path, look, expected=f"jobs.{job}.schedule = {cron!r}")
