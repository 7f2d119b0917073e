"""The PR's verdict: recomputed by the base's definition from the trial records, never trusted.

`evals github verdict --run DIR --head DIR` runs in the verdict job, from the base checkout, with
no secrets. It checks that the run is whole and covers what the base asks for, lists what the head
would change in the definition (shown, never used), and recomputes the verdict from the records
(never the run's own summary.json/report.md). Anything missing or unreadable is `error`, never a
pass. It prints `verdict`, `state`, `description` and `exit_code` for `$GITHUB_OUTPUT`.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from evals.core.config import load_config
from evals.core.errors import BadInputError, EvalError, ExitCode
from evals.gate.summary import Summary
from evals.github.pr_head import definition_changes
from evals.github.status import DESCRIPTION_LIMIT, STATES
from evals.records.rundir import RunDir
from evals.report.job_summary import append_job_summary
from evals.report.markdown import MARKER
from evals.run.finish import conclude, reopen
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


def expected_scenarios(root: Path) -> list[str]:
    """The scenarios a PR must be evaluated on: EVALS_SCENARIOS (a repository variable), else the
    base config's suite."""
    named = os.environ.get("EVALS_SCENARIOS", "").split()
    if named:
        return named
    config, _ = load_config(root)
    return list(config.suite)


def check_evidence(rd: RunDir, root: Path) -> None:
    """The run directory is whole and covers the expected scenarios, else BadInputError."""
    if not rd.path.is_dir():
        raise BadInputError(f"no run directory at {rd.path}: the trials' artifact is missing")
    meta = rd.read_meta()
    if not rd.has_results():
        raise BadInputError(f"{rd.results_path}: missing; the run recorded no trials")
    records = rd.read_records()
    wanted = expected_scenarios(root)
    missing = sorted(set(wanted) - set(meta.scenarios))
    if missing:
        raise BadInputError(f"the run does not cover scenario(s) {', '.join(missing)} (expected {wanted})")
    if not records:
        raise BadInputError(f"{rd.results_path}: no trial finished")


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


def gate(run: Path, head: Path | None, root: Path) -> PrResult:
    """The PR's verdict, by this (base) checkout's definition, from the trials' records."""
    rd = RunDir(run)
    try:
        check_evidence(rd, root)
        changes = definition_changes(root, head) if head is not None and head.is_dir() else []
        record_changes(rd, changes)
        rd.forget_outputs()  # written where the agent ran: never read
        definition, meta = reopen(rd)
        records = recheck(definition, rd, rd.read_records())  # layer 1 again, executing checks sandboxed
        summary = conclude(definition, rd, meta, records)
    except (EvalError, OSError, ValueError) as exc:
        reason = str(exc)
        error_report(rd, reason)
        return PrResult("error", f"error: {reason}", int(ExitCode.INFRASTRUCTURE))
    return PrResult(summary.verdict, describe(summary), int(summary.verdict_of().exit_code))
