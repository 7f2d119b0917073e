"""The judge's measured agreement with people over time (`baseline/judge.jsonl`), and its drift alarm.

Each line is one measurement (`evals judge agreement --record`): which judge (model, temperature and
the hash of every judge prompt), on how many labels, with what agreement overall and per criterion,
and the alarms it raised. The nightly re-judges the labelled set each night through the judge cache,
so an unchanged judge costs nothing and a changed one is measured the night it changes.

An alarm is raised when agreement falls below `judge.min_agreement`, when the judge is no better
than a constant one, or when the judge (model or a prompt) differs from the previous measurement's.
The report carries the newest line; `baseline bless` refuses a model-judged run until a measurement
of *that* judge exists without a floor alarm (`bless_refusal`). Read fail-closed like
operating.jsonl: a line that is not a measurement is bad input naming the line.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from pydantic import Field, ValidationError

from evals.core.errors import BadInputError
from evals.core.jsonio import append_jsonl, cut_torn_tail, read_numbered_lines
from evals.core.loading import describe_validation_error
from evals.core.model import FrozenModel
from evals.gate.agreement import Agreement
from evals.grade.labelled import LabelWindow

JUDGE_FILE = "judge.jsonl"  # next to the baseline file, like operating.jsonl


class JudgeIdentity(FrozenModel):
    """What makes a judge the same judge: the model and every judge prompt's content hash."""

    model: str
    prompts: dict[str, str] = Field(description='"scenario/judge/PART.md": sha256 of the prompt file')

    def changes_from(self, older: JudgeIdentity) -> list[str]:
        """What changed since `older`, in words; only prompts both measured are compared."""
        out = [f"judge model {older.model} → {self.model}"] if older.model != self.model else []
        out += [
            f"judge prompt {p} changed"
            for p in sorted(set(self.prompts) & set(older.prompts))
            if self.prompts[p] != older.prompts[p]
        ]
        return out

    def unmeasured_by(self, measured: JudgeIdentity) -> list[str]:
        """Why `measured` does not vouch for this judge, in words: what changed, and the prompts it
        never had (a task it did not measure). Empty: it measured exactly this judge."""
        missing = sorted(p for p in self.prompts if p not in measured.prompts)
        return self.changes_from(measured) + [f"judge prompt {p} never measured" for p in missing]


class JudgeCheck(FrozenModel):
    """One measurement of the judge against the labelled set."""

    kind: Literal["judge"] = "judge"
    recorded: str = Field(description="when it was measured (UTC)")
    source: str = Field(description="where the evidence came from: the bundled replays, or a run")
    judge: JudgeIdentity
    min_agreement: float = Field(description="the floor it was held to (evals.yaml judge.min_agreement)")
    overall: Agreement
    criteria: dict[str, Agreement] = Field(description='"scenario/part": its agreement')
    changed: list[str] = Field(
        default_factory=list, description="how the judge differs from the previous one"
    )
    alarms: list[str] = Field(default_factory=list, description="why this judge should not be trusted now")
    window: LabelWindow | None = Field(
        default=None, description="the labels counted; None on lines recorded before windows (every label)"
    )

    prompts_from: str | None = Field(
        default=None,
        description="set on a PR's measurement of the judge prompts it edits (the head it read them "
        "from): not the project's judge, never a measurement bless accepts",
    )
    base: JudgeCheck | None = Field(
        default=None, description="on a PR's measurement: the project's newest one when it was taken"
    )

    def window_words(self) -> str:
        """The labels the figures are about; a line from before windows measured every label."""
        return self.window.words() if self.window is not None else "all labels"

    @property
    def below_floor(self) -> bool:
        return any(a.startswith(FLOOR_ALARM) for a in self.alarms)


FLOOR_ALARM = "agreement below the floor"


def alarms_for(overall: Agreement, floor: float, changed: list[str]) -> list[str]:
    """The drift alarms of a measurement: unmeasured, below the floor, no better than constant, changed."""
    out: list[str] = []
    if overall.raw is None:
        out.append(f"{FLOOR_ALARM}: nothing measured (no labelled part was scored by the judge)")
    elif overall.raw < floor:
        out.append(f"{FLOOR_ALARM}: {overall.raw:.0%} < {floor:.0%} on {overall.labels} labelled parts")
    if overall.no_better_than_constant:
        out.append(f"{FLOOR_ALARM}: {overall.verdict_words()}")
    out += [f"judge changed: {c}" for c in changed]
    return out


def load_judge_checks(path: Path) -> list[JudgeCheck]:
    """Every measurement, oldest first; a missing file has none; a bad line is bad input, named."""
    out: list[JudgeCheck] = []
    for number, raw, _ in read_numbered_lines(path):
        try:
            out.append(JudgeCheck.model_validate_json(raw))
        except ValidationError as exc:
            raise BadInputError(
                describe_validation_error(Path(f"{path}:{number}"), exc)
                + f"\n(every line of {path.name} is one judge measurement: docs/judge.md, "
                '"Drift"; fix or remove it)'
            ) from exc
    return out


def append_judge_check(path: Path, check: JudgeCheck) -> None:
    """Append one measurement (the file is read, and so validated, first)."""
    cut_torn_tail(path)
    load_judge_checks(path)
    append_jsonl(path, check.model_dump(mode="json"), lead=("kind", "recorded"))


def identity_of(fingerprint: dict[str, Any]) -> JudgeIdentity:
    """The judge a run was graded under, from its definition's fingerprint."""
    prompts = {
        f"{name}/{prompt}": digest
        for name, fp in sorted(fingerprint.get("scenarios", {}).items())
        for prompt, digest in sorted((fp.get("judge_prompts") or {}).items())
    }
    return JudgeIdentity(model=str(fingerprint.get("judge_model", "")), prompts=prompts)


def project_checks(checks: list[JudgeCheck]) -> list[JudgeCheck]:
    """The project's own measurements: a PR's measurement of the prompts it edits (a PR job's
    transient file) is about a judge nobody merged, and vouches for nothing else."""
    return [c for c in checks if c.prompts_from is None]


def measured_for(checks: list[JudgeCheck], judge: JudgeIdentity) -> JudgeCheck | None:
    """The newest measurement of this very judge: the same model, and every one of its prompts
    measured with the same content. A measurement that lacked one of its prompts (a task added since,
    a run of tasks the nightly never measures) did not measure this judge: that prompt's agreement
    with people is unknown, however well the others did."""
    for check in reversed(project_checks(checks)):
        if not judge.unmeasured_by(check.judge):
            return check
    return None


def _unmeasured(checks: list[JudgeCheck], judge: JudgeIdentity) -> str:
    """How `judge` differs from everything measured, in words: changed since the newest measurement,
    or prompts/model no measurement ever had."""
    newest = checks[-1].judge
    changed = judge.changes_from(newest)
    if changed:
        return f"the judge changed since its agreement was last measured ({'; '.join(changed)})"
    missing = sorted(p for p in judge.prompts if p not in newest.prompts)
    shown = ", ".join(missing[:3]) + (f" and {len(missing) - 3} more" if len(missing) > 3 else "")
    return f"this judge was never measured as a whole (judge prompt {shown} is not in its last measurement)"


def bless_refusal(checks: list[JudgeCheck], judge: JudgeIdentity) -> str | None:
    """Why a model-judged run may not be blessed yet, or None: its judge must have been measured
    against people, and that measurement must not have fallen below the floor."""
    fix = 'measure it with `evals judge agreement --record` (docs/judge.md, "Drift")'
    checks = project_checks(checks)
    if not checks:
        return f"the judge's agreement with people was never measured; {fix}"
    found = measured_for(checks, judge)
    if found is None:
        return f"{_unmeasured(checks, judge)}; {fix}"
    if found.below_floor:
        floor = "; ".join(a for a in found.alarms if a.startswith(FLOOR_ALARM))
        return (
            f"the judge's last measured agreement with people raised the drift alarm ({floor}); fix the "
            "judge prompt or model and measure again"
        )
    return None
