"""The PR's verdict: recomputed by the base's definition from the trial records, never trusted.

`evals github verdict --run DIR --head DIR` runs in the verdict job, from the base checkout, with
no secrets. It lists what the head would change in the definition (shown, never used), validates
the records as every command that reads a run does (evals/records/validate.py: each against the
base's rubric, one per planned trial, nothing unplanned) and, beyond that, against what the base
asks for (its scenarios, at least its trials), then recomputes the verdict from the records (never
the run's own summary.json/report.md). Anything missing, unreadable or inconsistent is `error`,
never a pass. It prints `verdict`, `state`, `description` and `exit_code` for `$GITHUB_OUTPUT`.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from evals.core.config import Config, load_config
from evals.core.errors import BadInputError, EvalError, ExitCode
from evals.gate.summary import Summary
from evals.github.pr_head import definition_changes
from evals.github.status import DESCRIPTION_LIMIT, STATES
from evals.records.rundir import RunDir
from evals.records.validate import Expectation
from evals.report.job_summary import append_job_summary
from evals.report.markdown import MARKER
from evals.run.finish import checked_records, conclude, reopen
from evals.run.recheck import recheck


@dataclass(frozen=True)
class PrResult:
    verdict: str
    description: str
    exit_code: int

    @property
    def state(self) -> str:
        return STATES.get(self.verdict, "error")

    def outputs(self) -> dict[str, str]:
        one_line = " ".join(self.description.split())
        if len(one_line) > DESCRIPTION_LIMIT:
            one_line = one_line[: DESCRIPTION_LIMIT - 1] + "…"
        return {
            "verdict": self.verdict,
            "state": self.state,
            "description": one_line,
            "exit_code": str(self.exit_code),
        }


def expected_scenarios(config: Config) -> list[str]:
    """The scenarios a PR must be evaluated on: EVALS_SCENARIOS (a repository variable), else the
    base config's suite."""
    named = os.environ.get("EVALS_SCENARIOS", "").split()
    if named:
        return named
    return list(config.suite)


def expectation(config: Config) -> Expectation:
    """What the base asks of the PR's run, beyond its own (forgeable) run.json: exactly the expected
    scenarios, at least the base's trials each as one whole run, and budget-skipped trials only
    when the base sets a budget. Checked with the rest of the records (evals/records/validate.py)."""
    return Expectation(
        scenarios=tuple(expected_scenarios(config)),
        min_trials=config.trials,
        allow_skipped=config.budget.usd is not None,
    )


def record_changes(rd: RunDir, changes: list[str]) -> None:
    rd.write_meta(rd.read_meta().model_copy(update={"definition_changes": changes or None}))


def describe(summary: Summary) -> str:
    """The commit status's one line: the verdict and the total against the baseline."""
    total = summary.total
    if total.mean is None:
        return f"{summary.verdict}: {summary.reasons[0]}" if summary.reasons else summary.verdict
    text = f"{summary.verdict}: total {total.mean:.2f}/{total.max}"
    if total.baseline is not None and total.delta is not None:
        text += f" (baseline {total.baseline:.2f}, Δ {total.delta:+.2f})"
    return text


def error_report(rd: RunDir, reason: str) -> None:
    """A report for the comment and the job summary when there is no run to report on."""
    shown = " ".join(reason.replace("`", "'").split())  # one code span: shown as text, never rendered
    text = (
        f"{MARKER}\n## ❌ Agent evals: **error**\n\n"
        f"- The verdict could not be computed from the trials' evidence: `{shown}`\n"
        "\nAn unreadable or missing run is an error, never a pass: label the PR `run-evals` again.\n"
    )
    rd.path.mkdir(parents=True, exist_ok=True)
    rd.write_report(text)
    append_job_summary(text)


CONTINUATIONS_ENV = "EVALS_CONTINUATIONS"  # set by the workflow from `evals github context`
HEAD_ENV = "EVALS_HEAD_SHA"  # the labelled (or continued) head SHA, for the continuation's state line


def trusted_continuations(meta_continued: list[str] | None) -> int:
    """How often the run was continued, as the workflow's context step computed it from our own
    comment (EVALS_CONTINUATIONS), never as the run's forgeable run.json says: a continued run is
    held to the interim line, so a forged continuation would weaken the gate. They must agree."""
    raw = os.environ.get(CONTINUATIONS_ENV, "").strip() or "0"
    if not raw.isdigit():
        raise BadInputError(f"{CONTINUATIONS_ENV}={raw!r}: expected a count")
    claimed = len(meta_continued or [])
    if claimed != int(raw):
        raise BadInputError(
            f"run.json records {claimed} continuation(s), the workflow {int(raw)}: the run is not the one "
            "this workflow continued"
        )
    return int(raw)


def leave_state(rd: RunDir, summary: Summary, root: Path, config: Config, continuations: int) -> None:
    """An inconclusive verdict in Actions leaves the state `/evals continue` needs in the report (a
    hidden line, posted inside the sticky comment; evals/github/continuation.py)."""
    from evals.github.continuation import RunState, ruler_digest

    run_id, head = os.environ.get("GITHUB_RUN_ID", ""), os.environ.get(HEAD_ENV, "")
    if summary.verdict != "inconclusive" or not run_id.isdigit() or not head:
        return
    ruler = ruler_digest(root, config, expected_scenarios(config))
    state = RunState(run_id, rd.path.name, head, continuations, ruler)
    report = rd.read_report() or ""
    rd.write_report(f"{report.rstrip()}\n\n{state.line()}\n")


def gate(run: Path, head: Path | None, root: Path) -> PrResult:
    """The PR's verdict, by this (base) checkout's definition, from the trials' records. The base's
    evals.yaml is read once, here, and everything below is handed the same `Config`."""
    rd = RunDir(run)
    try:
        config, project = load_config(root)
        if not rd.path.is_dir():
            raise BadInputError(f"no run directory at {rd.path}: the trials' artifact is missing")
        changes = definition_changes(root, head) if head is not None and head.is_dir() else []
        record_changes(rd, changes)
        rd.forget_outputs()  # written where the agent ran: never read
        definition, meta = reopen(rd, config, project)
        continuations = trusted_continuations(meta.continued)
        expect = expectation(config)  # the base's scenarios and trials, never the run's own word
        checked = checked_records(definition, rd, meta, expect)
        records = recheck(definition, rd, checked)  # layer 1 again, executing checks confined
        summary = conclude(definition, rd, meta, expect, records)
        leave_state(rd, summary, project, config, continuations)
    except (EvalError, OSError, ValueError) as exc:
        reason = str(exc)
        error_report(rd, reason)
        return PrResult("error", f"error: {reason}", int(ExitCode.INFRASTRUCTURE))
    return PrResult(summary.verdict, describe(summary), int(summary.verdict_of().exit_code))
