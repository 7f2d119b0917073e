"""The job summary and annotations of a GitHub Actions run: where the report shows even when the PR
comment cannot be posted (a read-only token, a fork).

Outside Actions ($GITHUB_STEP_SUMMARY unset) nothing is written: no stray `::error` lines in a
terminal. A step that is followed by another step writing the same report sets
EVALS_JOB_SUMMARY=0, so the page shows it once (GITHUB_* variables cannot be unset).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from typing import TextIO

from evals.gate.verdict import Verdict

OPT_OUT = "EVALS_JOB_SUMMARY"


def enabled() -> bool:
    """In Actions, and not opted out for this step."""
    return bool(os.environ.get("GITHUB_STEP_SUMMARY")) and os.environ.get(OPT_OUT, "").lower() not in (
        "0",
        "false",
        "off",
        "no",
    )


def append_job_summary(text: str) -> bool:
    """Append `text` to the job summary when enabled; return whether it was written."""
    if not enabled():
        return False
    with open(os.environ["GITHUB_STEP_SUMMARY"], "a", encoding="utf-8") as handle:
        handle.write(text + "\n")
    return True


def _escape(text: str) -> str:
    """A workflow command's message: the runner's own escapes, so it stays one command."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _property(text: str) -> str:
    """A workflow command's property (the title): its escapes also cover `:` and `,`."""
    return _escape(text).replace(":", "%3A").replace(",", "%2C")


def publish(
    report: str, gate: Verdict, stream: TextIO | None = None, story: Sequence[tuple[str, str]] = ()
) -> None:
    """In GitHub Actions ($GITHUB_STEP_SUMMARY set): append the report to the job summary and turn
    the story (`story.annotations`: one (title, message) per fallen part, with its concrete failure)
    and then the verdict's reasons (the statistics) into annotations, in that order. Outside
    Actions, nothing (no stray `::error` lines).

    A workflow whose `run` step is followed by a separate `compare` step sets EVALS_JOB_SUMMARY=0 on
    the first, so the page shows the report and its annotations once (GITHUB_* cannot be unset)."""
    if not append_job_summary(report):
        return
    out = stream or sys.stdout
    level = {"regression": "error", "not-comparable": "error", "error": "error", "inconclusive": "warning"}
    kind = level.get(gate.verdict)
    if kind:
        for title, message in story:
            out.write(f"::{kind} title={_property(f'Agent evals - {title}')}::{_escape(message)}\n")
        for reason in gate.reasons:
            out.write(f"::{kind} title=Agent evals - {gate.verdict}::{_escape(reason)}\n")
    for alert in gate.alerts:
        out.write(f"::warning title=Agent evals - the agent's behaviour::{_escape(alert)}\n")
    for notice in gate.notices:
        out.write(f"::notice title=Agent evals::{_escape(notice)}\n")
    out.flush()
