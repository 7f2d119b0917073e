"""The back half of every command that ends in a verdict: reopen a stored run with its eval
definition, summarise it, write summary.json and report.md, print the verdict line.

`run`, `compare`, `grade`, `merge` and the PR's verdict all end here, so a verdict is computed,
written and printed one way whichever command asked for it.
"""

from __future__ import annotations

import os
import shlex
import sys
from pathlib import Path

from evals.core.config import Config
from evals.core.errors import EvalError, ExitCode
from evals.core.redact import redact, redact_text
from evals.core.untrusted import console_line
from evals.definition import EvalDefinition, load_definition
from evals.gate.summary import Summary
from evals.gate.verdict import NO_BASELINE
from evals.records.model import RunMeta, TrialRecord
from evals.records.rundir import RunDir
from evals.records.validate import Expectation, validate_run
from evals.report.job_summary import publish
from evals.report.markdown import render, with_trend
from evals.report.story import annotation_lines, console_lines


def reopen(
    rd: RunDir, config: Config, project: Path, baseline: Path | None = None, *, with_judge: bool = False
) -> tuple[EvalDefinition, RunMeta]:
    """The eval definition a stored run is compared under, from its run.json: scenarios and config,
    never the agent, so this works without any model key whatever agent made the run. Only `grade`,
    which judges again, asks for the judge. `config` and `project` are what the command loaded at
    its door (`load_project`), once: nothing below it reads evals.yaml again."""
    meta = rd.read_meta()
    definition = load_definition(
        project, config, meta.scenarios, baseline, meta.instance_seed, with_judge=with_judge
    )
    return definition.continued(len(meta.continued or [])), meta


def write_outputs(rd: RunDir, summary: Summary) -> Path:
    """summary.json and report.md in the run dir (with the nightly trend below it when the run has
    one); in GitHub Actions also the job summary and annotations, so the verdict is visible even
    where the PR comment cannot be posted."""
    rd.write_summary(summary)
    text = render(summary)
    report = rd.write_report(with_trend(text, rd.read_trend()))
    verdict = summary.verdict_of()
    # the job summary without the trend: `evals trend` put it there when it drew it
    told = [(redact_text(title), redact_text(message)) for title, message in annotation_lines(summary)]
    publish(redact_text(text), type(verdict).model_validate(redact(verdict.model_dump())), story=told)
    return report


def write_viewer(
    rd: RunDir, summary: Summary, records: list[TrialRecord], definition: EvalDefinition
) -> Path | None:
    """viewer.html beside report.md, so the report's viewer links and anchors open at once. A
    viewer that cannot be written (or an about.yaml that does not read) is a warning, never a
    different verdict."""
    from evals.report.viewer import write_viewer as write

    try:
        return write(rd.path, summary, records, definition.about_views())
    except (EvalError, OSError, ValueError) as exc:
        print(f"warning: viewer.html not written: {console_line(redact_text(str(exc)))}", file=sys.stderr)
        return None


def pasteable(notice: str, run: Path) -> str:
    """The no-baseline notice with this run's folder in its bless command, so the line printed works
    when pasted (the report keeps RUN_DIR: it is read where the folder is another)."""
    if notice != NO_BASELINE:
        return notice
    where = Path(os.path.relpath(run)) if run.resolve().is_relative_to(Path.cwd()) else run
    return notice.replace("RUN_DIR", shlex.quote(str(where)))


def verdict_line(summary: Summary) -> str:
    total = summary.total
    mean = "–" if total.mean is None else f"{total.mean:.2f}"
    line = f"Verdict: {summary.verdict} · total {mean} / {total.max}"
    if total.delta is not None and total.baseline is not None and total.compared is not None:
        shared = "" if total.compared == total.mean else f"; {total.compared:.2f} on the parts both scored"
        line += f" (baseline {total.baseline:.2f}{shared}, Δ {total.delta:+.2f})"
    return line


def checked_records(
    definition: EvalDefinition, rd: RunDir, meta: RunMeta, expect: Expectation | None = None
) -> list[TrialRecord]:
    """The run's records, validated against the definition's rubrics and the run's plan
    (evals/records/validate.py): every command that reads a run reads it through here."""
    rubrics = {name: loaded.rubric for name, loaded in definition.scenarios.items()}
    return validate_run(rd, meta, rubrics, expect)


def summarise(
    definition: EvalDefinition, rd: RunDir, meta: RunMeta, expect: Expectation | None = None
) -> Summary:
    """The verdict of the run's validated records, in memory (nothing written)."""
    return definition.summarise(checked_records(definition, rd, meta, expect), meta)


def finish(definition: EvalDefinition, rd: RunDir, meta: RunMeta) -> ExitCode:
    """Aggregate, gate, write summary.json and report.md, print the verdict; return its exit code."""
    return conclude(definition, rd, meta).verdict_of().exit_code


def conclude(
    definition: EvalDefinition,
    rd: RunDir,
    meta: RunMeta,
    expect: Expectation | None = None,
    records: list[TrialRecord] | None = None,
) -> Summary:
    """`finish`, returning the summary itself (the PR's verdict reads it typed, never re-parsed).
    `expect`: what the caller requires beyond run.json (the PR verdict's, from the base);
    `records`: the run's validated records as checked again by the caller (evals/run/recheck.py),
    else validated here."""
    if records is None:
        records = checked_records(definition, rd, meta, expect)
    summary = definition.summarise(records, meta)
    report = write_outputs(rd, summary)
    viewer = write_viewer(rd, summary, records, definition)
    print(redact_text(verdict_line(summary)))
    # the story before any statistic: what fell, with its concrete failure (evals/report/story.py)
    notices = [pasteable(n, rd.path) for n in summary.notices]
    for line in summary.alerts + console_lines(summary) + summary.reasons + notices:
        print(f"  {console_line(redact_text(line))}")
    if summary.run.spent_usd is not None:
        limit = summary.run.budget_usd
        print(
            f"  cost ${summary.run.spent_usd:.2f} (agent and judge)" + (f" of ${limit:.2f}" if limit else "")
        )
    if viewer is not None:
        print(f"Viewer: {viewer} (transcripts, every rubric part; open it in a browser)")
    print(f"Report: {report}")  # the last line: what a script reading the output takes
    sys.stdout.flush()
    return summary
