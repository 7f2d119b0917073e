"""The gate's measured operating characteristics (`baseline/operating.jsonl`): its own error rates.

The simulation (`evals simulate gate`, `evals simulate suite`) says how often the rule *would* cry wolf or
miss a drop on modelled scores; this file says how often it *did*, on this agent:

- an **A/A check** per nightly run (evals/baseline/aa.py): the night's trials split into two halves
  of the same agent, half B gated against half A by the PR gate's own code. Any regression there is
  a false alarm.
- a **canary run** (evals/baseline/canary.py): a deliberately degraded agent kept in the repository
  (`canary/`), run with a few trials against the current baseline. A regression verdict is a catch;
  anything else that decided is a miss.

One JSON line per check, each validated on read: a line that is not one of the two records is bad
input (exit 2) naming the file and line, never skipped, because a report line computed from what
could be read would vouch for a gate on evidence nobody checked. The report counts the newest
`WINDOW` records of each kind (`tally`), so the line speaks of the gate as it is now; the file keeps
every night (one short line each, like history.jsonl), so nothing is lost when the window moves.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Literal

from pydantic import Field, TypeAdapter, ValidationError

from evals.core.errors import BadInputError
from evals.core.jsonio import append_jsonl, cut_torn_tail, read_numbered_lines
from evals.core.loading import describe_validation_error
from evals.core.model import FrozenModel, StrictModel
from evals.gate.verdict import VerdictName

OPERATING_FILE = "operating.jsonl"  # next to the baseline file, like history.jsonl
WINDOW = 30  # records of each kind the report line counts: about a month of nights
UNSPLIT = "too-few-trials"  # an A/A check with no scenario of at least two graded trials: no verdict

AAVerdict = Literal["pass", "regression", "inconclusive", "not-comparable", "error", "too-few-trials"]
DECIDED = ("pass", "regression", "inconclusive")  # verdicts that count: the rule was applied to scores


class _Record(FrozenModel):
    """What every record says about the run it measured."""

    kind: str
    run: str = Field(min_length=1, description="the measured run's directory name")
    started: str = Field(min_length=1, description="when that run started (with `run`, the record's key)")
    recorded: str = Field(description="when this line was written (UTC)")
    commit: str = Field(default="", description="the commit the run was made from")
    scenarios: list[str] = Field(description="the scenarios compared")
    verdict: str
    delta: float | None = Field(default=None, description="Δ total the gate decided on")
    ci: tuple[float, float] | None = Field(default=None, description="its interval at gate.confidence")
    allowed_drop: float | None = None
    reasons: list[str] = Field(default_factory=list, description="the gate's reasons, as it gave them")

    @property
    def key(self) -> tuple[str, str, str]:
        return (self.kind, self.run, self.started)

    @property
    def counted(self) -> bool:
        """The gate's rule was applied to scores (not refused as not comparable, errored or unsplit)."""
        return self.verdict in DECIDED


class AACheck(_Record):
    """One nightly A/A check: half B of the night's trials gated against half A."""

    kind: Literal["aa"] = "aa"
    verdict: AAVerdict
    halves: dict[str, tuple[int, int]] = Field(
        description="per scenario compared, its graded trials in half A and in half B"
    )
    unsplit: list[str] = Field(
        default_factory=list, description="scenarios left out: fewer than two graded trials to split"
    )
    fired: list[str] = Field(
        default_factory=list,
        description="what called the regression: `total` (with the scenarios whose Δ fell) and each "
        "`guard scenario/part` that fell; empty unless the verdict is regression",
    )

    @property
    def false_alarm(self) -> bool:
        return self.verdict == "regression"


class CanaryRun(_Record):
    """One run of the planted-regression canary against the baseline of its day."""

    kind: Literal["canary"] = "canary"
    verdict: VerdictName
    trials: dict[str, int] = Field(description="graded trials per scenario")
    agent: str = Field(description="what played the canary: its replays offline, its agent config live")

    @property
    def caught(self) -> bool:
        return self.verdict == "regression"


OperatingRecord = Annotated[AACheck | CanaryRun, Field(discriminator="kind")]
_LINE: TypeAdapter[AACheck | CanaryRun] = TypeAdapter(OperatingRecord)


def load_operating(path: Path) -> list[AACheck | CanaryRun]:
    """Every record, oldest first; a missing file has none. A line that is not a record (torn,
    edited, from another tool) is bad input naming the line: fail closed, never skip it."""
    out: list[AACheck | CanaryRun] = []
    keys: set[tuple[str, str, str]] = set()
    for number, raw, _ in read_numbered_lines(path):
        where = Path(f"{path}:{number}")
        try:
            record = _LINE.validate_json(raw)
        except ValidationError as exc:
            raise BadInputError(
                describe_validation_error(where, exc)
                + f"\n(every line of {path.name} is an A/A check or a canary run: docs/gate.md, "
                '"Measured operating characteristics"; fix or remove the line)'
            ) from exc
        if record.key in keys:
            raise BadInputError(
                f"{where}: {record.kind} of run {record.run} ({record.started}) recorded twice"
            )
        keys.add(record.key)
        out.append(record)
    return out


def append_operating(path: Path, record: AACheck | CanaryRun) -> bool:
    """Append one record; False when that check of that run is already recorded (a re-run job is
    safe). The file is read, and so validated, first: nothing is added to a file that does not read."""
    cut_torn_tail(path)  # a writer killed mid-line left a fragment: never glue a record onto it
    if any(r.key == record.key for r in load_operating(path)):
        return False
    append_jsonl(path, record.model_dump(mode="json"), lead=("kind", "run", "started"))
    return True


class OperatingTally(StrictModel):
    """What the report line says: the newest `window` records of each kind, counted."""

    window: int
    aa_checks: int = Field(description="A/A checks whose rule decided (pass, regression or inconclusive)")
    false_alarms: int = Field(description="of those, regressions")
    aa_not_counted: int = Field(
        description="A/A checks that could not decide: too few trials, not comparable, error"
    )
    canary_runs: int = Field(description="canary runs that decided")
    canary_caught: int = Field(description="of those, regressions")
    canary_not_counted: int = 0
    canary_mean_drop: float | None = Field(
        default=None, description="mean Δ total of the decided canary runs"
    )


def tally(records: list[AACheck | CanaryRun], window: int = WINDOW) -> OperatingTally:
    """Count the newest `window` A/A checks and canary runs (records are oldest first)."""
    aa = [r for r in records if isinstance(r, AACheck)][-window:]
    canary = [r for r in records if isinstance(r, CanaryRun)][-window:]
    decided = [r for r in canary if r.counted]
    drops = [r.delta for r in decided if r.delta is not None]
    return OperatingTally(
        window=window,
        aa_checks=sum(r.counted for r in aa),
        false_alarms=sum(r.counted and r.false_alarm for r in aa),
        aa_not_counted=sum(not r.counted for r in aa),
        canary_runs=len(decided),
        canary_caught=sum(r.caught for r in decided),
        canary_not_counted=len(canary) - len(decided),
        canary_mean_drop=round(sum(drops) / len(drops), 4) if drops else None,
    )
