"""Check a run's records before any verdict is computed from them: fail closed.

Every command that reads a finished run (`compare`, `grade`, `merge`, `baseline bless` and
`history`, `view`, `labels`, `calibrate --run`, the PR verdict, and `run` itself at its end) calls
`validate_run` first. A run passes only when:

- every line of results.jsonl is a trial record (`RunDir.read_record_lines` names a torn or bad line);
- each planned (scenario, trial) has exactly one record: a second line is an error, since a run
  writes each trial once and a trial run again replaces its line (`RunDir.append_record`);
- no record is unplanned: its scenario is one of run.json's, its trial index one run.json plans
  (`trials`, grown by the adaptive step, or a shard's `trial_slice`);
- every planned trial has a record, except those the budget kept from starting (run.json `skipped`);
- every record agrees with its scenario's rubric: exactly the rubric's parts with its points,
  criteria and categories; each score within 0..points and its status saying the same (passed at
  full points, failed below, unscored without a score); the total, criteria, categories, unscored
  list and pass flag what the parts add up to;
- and, where a caller expects more than run.json says (the PR verdict: the base's scenarios, at
  least the base's trials), that too.

Anything else raises `RunDataError`: the verdict is `error` (exit 3), never a pass. Attacks this
answers (issue #24): appended full-mark lines, a part scored 100 on a 1-point part, one trial of
three, an extra trial index, an expected scenario with no records, a run whose agent step died
after one trial.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass

from evals.core.errors import RunDataError
from evals.grade.passrule import trial_pass
from evals.grade.result import TrialGrade
from evals.grade.rubric import Rubric
from evals.records.model import RunMeta, TrialRecord
from evals.records.rundir import RunDir
from evals.records.trials import planned_trials

# Enough lines to see the pattern of a broken run, few enough to read in a job log.
MAX_SHOWN = 20
_EPS = 1e-6


@dataclass(frozen=True)
class Expectation:
    """What a caller requires beyond the run's own run.json (the PR verdict's, from the base).

    `scenarios`: exactly these, no more and no fewer (None: the run's own list). `min_trials`: each
    scenario planned at least this many trials, and not as a shard (None: whatever run.json plans).
    `allow_skipped`: planned trials the budget kept from starting may lack a record (the base must
    set a budget for a PR run to have stopped on one)."""

    scenarios: tuple[str, ...] | None = None
    min_trials: int | None = None
    allow_skipped: bool = True


def _close(a: float | None, b: float | None) -> bool:
    if a is None or b is None:
        return a is None and b is None
    return math.isclose(a, b, rel_tol=0, abs_tol=_EPS)


def _sum(values: list[float | None]) -> float | None:
    scored = [v for v in values if v is not None]
    return sum(scored) if scored else None


def _part_problems(grade: TrialGrade, rubric: Rubric) -> list[str]:
    """The grade's parts against the rubric's, one problem per disagreement."""
    expected = {part.id: (criterion, part) for criterion, part in rubric.parts()}
    counts = Counter(p.id for p in grade.parts)
    problems = []
    unknown = sorted(set(counts) - set(expected))
    lacking = [pid for pid in expected if pid not in counts]
    twice = sorted(pid for pid, n in counts.items() if n > 1)
    if unknown:
        problems.append(f"parts {', '.join(unknown)} are not in the rubric")
    if lacking:
        problems.append(f"no grade for rubric part(s) {', '.join(lacking)}")
    if twice:
        problems.append(f"part(s) {', '.join(twice)} graded more than once")
    for part in grade.parts:
        if part.id not in expected:
            continue
        criterion, spec = expected[part.id]
        wanted = (spec.points, criterion.id, criterion.category)
        if (part.max_points, part.criterion, part.category) != wanted:
            problems.append(
                f"part {part.id}: {part.max_points} point(s) of {part.criterion}/{part.category}, the "
                f"rubric says {spec.points} of {criterion.id}/{criterion.category}"
            )
            continue
        problems += _score_problems(part.id, part.score, part.status, spec.points)
        if spec.judge is None and part.layer != 1:
            problems.append(f"part {part.id}: decided by layer {part.layer}, but it has no judge")
    return problems


def _score_problems(pid: str, score: float | None, status: str, points: int) -> list[str]:
    if score is None:
        return [] if status == "unscored" else [f"part {pid}: status {status} without a score"]
    if not 0 <= score <= points:
        return [f"part {pid}: score {score:g} outside 0..{points}"]
    if status == "unscored":
        return [f"part {pid}: unscored with a score of {score:g}"]
    full = math.isclose(score, points, abs_tol=_EPS)
    if (status == "passed") != full:
        return [f"part {pid}: status {status} with {score:g} of {points} point(s)"]
    return []


def _total_problems(grade: TrialGrade, rubric: Rubric) -> list[str]:
    """The trial's sums against what its parts add up to (only once the parts themselves hold)."""
    parts = grade.parts
    total = sum(p.score for p in parts if p.score is not None)
    max_scored = sum(p.max_points for p in parts if p.score is not None)
    problems = []
    if not _close(grade.total, total):
        problems.append(f"total {grade.total:g}, but its parts add up to {total:g}")
    if grade.max_scored != max_scored:
        problems.append(f"max_scored {grade.max_scored}, but its scored parts carry {max_scored}")
    if sorted(grade.unscored) != sorted(p.id for p in parts if p.score is None):
        problems.append(f"unscored lists {grade.unscored}, not the parts without a score")
    # each part's score under its criterion and its category, in part order (as the sums were made):
    # one pass over the parts, not one per criterion (a run of 100 trials × 20 criteria × 25 parts)
    by_criterion: dict[str, list[float | None]] = {}
    by_category: dict[str, list[float | None]] = {}
    for p in parts:
        by_criterion.setdefault(p.criterion, []).append(p.score)
        by_category.setdefault(p.category, []).append(p.score)
    for criterion in rubric.criteria:
        own = _sum(by_criterion.get(criterion.id, []))
        if criterion.id not in grade.criteria or not _close(grade.criteria[criterion.id], own):
            shown = grade.criteria.get(criterion.id)
            problems.append(f"criterion {criterion.id}: {shown}, its parts give {own}")
    for category in rubric.categories:
        own = _sum(by_category.get(category, []))
        if category not in grade.categories or not _close(grade.categories[category], own):
            shown = grade.categories.get(category)
            problems.append(f"category {category}: {shown}, its parts give {own}")
    criteria = {c.id for c in rubric.criteria}
    if set(grade.criteria) - criteria or set(grade.categories) - set(rubric.categories):
        problems.append("criteria or categories the rubric does not have")
    passed, violations = trial_pass(rubric, parts, grade.collateral, grade.collateral_pending)
    if grade.violations != violations:
        problems.append(
            f"violations {grade.violations}, but its failed decisive parts and collateral give {violations}"
        )
    if grade.passed is not passed:
        failed = f" with the decisive {', '.join(violations)} failed" if violations else ""
        problems.append(
            f"passed is {grade.passed}, but {total:g} of {rubric.max_points}{failed} gives {passed}"
        )
    return problems


def record_problems(record: TrialRecord, rubric: Rubric) -> list[str]:
    """Why `record` cannot be what grading its trial against `rubric` wrote (empty: it can)."""
    grade = record.grade
    if record.status == "error":
        return ["an errored trial carries a grade"] if grade is not None else []
    if grade is None:
        return ["status ok without a grade"]
    if (grade.scenario, grade.trial) != (record.scenario, record.trial):
        return [f"its grade is for {grade.scenario}#{grade.trial}"]
    problems = _part_problems(grade, rubric)
    if not problems:
        problems = _total_problems(grade, rubric)
    metrics = record.metrics
    counters = (metrics.input_tokens, metrics.output_tokens, metrics.judge_input_tokens)
    if min(*counters, metrics.judge_cost_usd, metrics.cost_usd or 0) < 0:
        problems.append("negative tokens or cost")
    return problems


def _plan_problems(meta: RunMeta, rd: RunDir, expect: Expectation) -> list[str]:
    """What run.json plans, against what the caller expects."""
    problems = []
    where = rd.meta_path
    if expect.scenarios is not None:
        missing = [s for s in expect.scenarios if s not in meta.scenarios]
        extra = [s for s in meta.scenarios if s not in expect.scenarios]
        if missing:
            problems.append(f"{where}: expected scenario(s) {', '.join(missing)} are not in the run")
        if extra:
            problems.append(f"{where}: scenario(s) {', '.join(extra)} were not asked for")
    if expect.min_trials is not None:
        if meta.trial_slice:
            problems.append(f"{where}: a shard (trial_slice {meta.trial_slice}), not a whole run")
        elif (meta.trials_started or meta.trials) < expect.min_trials or meta.trials < expect.min_trials:
            problems.append(
                f"{where}: plans {meta.trials_started or meta.trials} trial(s) per scenario, "
                f"at least {expect.min_trials} expected"
            )
    if meta.skipped and not (meta.stopped_by_budget and expect.allow_skipped):
        problems.append(f"{where}: lists skipped trials, but no budget stopped this run")
    return problems


def validate_run(
    rd: RunDir, meta: RunMeta, rubrics: Mapping[str, Rubric], expect: Expectation | None = None
) -> list[TrialRecord]:
    """The run's records, one per planned trial, each consistent with its rubric; else RunDataError
    listing what is wrong (file and line for each record)."""
    expect = expect or Expectation()
    problems = _plan_problems(meta, rd, expect)
    planned = {scenario: set(planned_trials(meta, scenario)) for scenario in meta.scenarios}
    skipped = set(meta.skipped or [])
    seen: dict[tuple[str, int], int] = {}
    records: dict[tuple[str, int], TrialRecord] = {}
    for n, record in rd.read_record_lines():
        key = (record.scenario, record.trial)
        name = f"{record.scenario}#{record.trial}"
        where = f"{rd.results_path}:{n}: trial {name}"
        if key in seen:
            first = seen[key]
            problems.append(
                f"{where}: a second record (the first is line {first}); a run writes each trial once"
            )
            continue
        seen[key], records[key] = n, record
        if record.scenario not in meta.scenarios or record.scenario not in rubrics:
            problems.append(f"{where}: scenario {record.scenario} is not one of the run's ({rd.meta_path})")
        elif record.trial not in planned[record.scenario]:
            problems.append(
                f"{where}: not a planned trial (run.json plans {_describe(meta, record.scenario)})"
            )
        elif name in skipped:
            problems.append(f"{where}: run.json lists it as skipped by the budget")
        else:
            problems += [f"{where}: {p}" for p in record_problems(record, rubrics[record.scenario])]
    problems += _missing(rd, meta, planned, seen, skipped)
    if problems:
        raise RunDataError(_message(rd, problems))
    return [records[key] for key in sorted(records)]


def _describe(meta: RunMeta, scenario: str | None = None) -> str:
    if meta.trial_slice:
        return f"slice {meta.trial_slice} of {meta.trials} trials"
    if scenario is not None and meta.scenario_trials and scenario in meta.scenario_trials:
        return f"trials 0..{meta.scenario_trials[scenario] - 1} of {scenario}, allocated by measured noise"
    return f"trials 0..{meta.trials - 1}"


def _missing(
    rd: RunDir,
    meta: RunMeta,
    planned: dict[str, set[int]],
    seen: dict[tuple[str, int], int],
    skipped: set[str],
) -> list[str]:
    """Planned trials without a record, per scenario (a run that died, a scenario never run)."""
    if not seen:
        return [
            f"{rd.results_path}: no trial finished (run.json plans {_describe(meta)} of "
            f"{', '.join(meta.scenarios)}); finish it with `evals run --resume {rd.path}`"
        ]
    problems = []
    for scenario in meta.scenarios:
        lacking = [
            t
            for t in sorted(planned[scenario])
            if (scenario, t) not in seen and f"{scenario}#{t}" not in skipped
        ]
        if lacking:
            shown = ", ".join(str(t) for t in lacking)
            problems.append(
                f"{rd.results_path}: no record for {scenario} trial(s) {shown} of the planned "
                f"{_describe(meta, scenario)}; finish the run with `evals run --resume {rd.path}`"
            )
    return problems


def _message(rd: RunDir, problems: list[str]) -> str:
    shown = problems[:MAX_SHOWN]
    more = len(problems) - len(shown)
    lines = [f"{rd.path}: the run's records cannot carry a verdict ({len(problems)} problem(s)):"]
    lines += [f"  {p}" for p in shown]
    if more:
        lines.append(f"  … and {more} more")
    return "\n".join(lines)
