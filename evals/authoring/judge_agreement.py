"""`evals judge agreement`: the judge against the labelled set, per criterion and overall, with intervals.

Two ways to get the judge's side of each labelled part:

- the bundled replays (default): each is re-run in a fresh sandbox world, which gives back the
  evidence its labels were given on (the sandbox is deterministic), and every labelled (part,
  evidence) is put to the configured model judge *through its cache*, so an unchanged judge costs no
  call and a changed one (model, prompt) is asked afresh. This is the frozen sample the nightly
  re-judges to raise the drift alarm. Needs ANTHROPIC_API_KEY.
- `--run DIR`: the verdicts a run already stored on its part grades, matched by evidence hash with
  the labels reviewers gave in that run's viewer. No call at all. A run judged by the labels
  themselves (offline) has no model judge to measure, and says so (exit 2).

Either way only the labels of a window are counted (evals/grade/labelled.py, `windowed`): by default
the newest 90 days by label date, ending on the newest dated label or `--as-of`, undated labels
(labels.yaml) always; `--all-labels` counts every label. The window is printed and recorded, and the
report's judge line says it.

No labelled judged part at all (an adopting repository before its first label) is "not measured",
exit 0, nothing recorded: never a pass, never a failure (the nightly's judge job shows it as a notice).

Each criterion gets raw agreement beside a constant judge's, Cohen's κ and Gwet's AC1 with bootstrap
intervals, the confusion both ways and its label count (evals/gate/agreement.py); a judge no better
than the constant one is called that. `--record` appends the measurement, with its drift alarms, to
baseline/judge.jsonl (evals/gate/judge_record.py), which the report's judge line and `baseline bless`
read.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from contextlib import ExitStack
from dataclasses import dataclass
from datetime import date
from pathlib import Path

from tabulate import tabulate

from evals.authoring.calibrate import _from_replays, _samples
from evals.core.config import Config
from evals.core.errors import BadInputError, ExitCode
from evals.core.jsonio import sha256_text
from evals.core.stamps import now
from evals.definition import LoadedScenario, load_definition, load_scenarios
from evals.gate.agreement import Agreement, measure
from evals.gate.judge_record import (
    JudgeCheck,
    JudgeIdentity,
    alarms_for,
    append_judge_check,
    load_judge_checks,
    project_checks,
)
from evals.grade.judge import Judgement, make_judge
from evals.grade.labelled import WINDOW_DAYS, Labelled, LabelWindow, disputed, latest, load_labelled, windowed
from evals.grade.labels import Label
from evals.records.rundir import RunDir
from evals.run.finish import checked_records


@dataclass(frozen=True)
class Pair:
    """One labelled part and the judge's verdict on the same evidence."""

    scenario: str
    part: str
    points: int
    label: Labelled
    verdict: Judgement


def _identity(config: Config, defined: dict[str, LoadedScenario]) -> JudgeIdentity:
    """The judge measured, keyed and hashed as a run's fingerprint keys and hashes it (the template's
    prompt file, bytes as they are), so a report and `bless` can tell whether it is the same judge."""
    prompts = {
        f"{name}/{prompt}": sha256_text(
            (loaded.folder / prompt).read_bytes().decode("utf-8", errors="replace")
        )
        for name, loaded in sorted(defined.items())
        for prompt in loaded.judge_prompts
    }
    return JudgeIdentity(model=config.judge.model, prompts=prompts)


def _points(loaded: LoadedScenario) -> dict[str, int]:
    return {part.id: part.points for _, part in loaded.rubric.parts()}


def _from_replays_judged(
    config: Config,
    project: Path,
    defined: dict[str, LoadedScenario],
    sets: dict[str, dict[tuple[str, str], Labelled]],
) -> list[Pair]:
    """The labelled evidence the bundled replays produce, judged through the cache."""
    as_labels = {
        name: {
            key: Label(
                part=key[0], evidence_sha256=key[1], score=item.line.score, by=item.line.by, why=item.line.why
            )
            for key, item in known.items()
        }
        for name, known in sets.items()
    }
    labelled = {name: loaded for name, loaded in defined.items() if sets.get(name)}  # the rest: no pair
    samples, _ = _samples(defined, as_labels, _from_replays(labelled, project))
    judge = make_judge(config.judge, project, {}, api_key_present=True)
    verdicts = judge.decide_all([s.pending.request for s in samples])
    return [
        Pair(
            s.scenario,
            s.pending.request.part,
            s.pending.request.points,
            sets[s.scenario][(s.pending.request.part, s.pending.request.evidence_sha)],
            v,
        )
        for s, v in zip(samples, verdicts, strict=True)
    ]


def _from_run(
    run: Path, config: Config, project: Path, names: list[str] | None
) -> tuple[dict[str, LoadedScenario], list[tuple[str, str, int, str, Judgement]]]:
    """(scenario, part, points, evidence, stored verdict) of every judged part a run stored."""
    rd = RunDir(run)
    meta = rd.read_meta()
    definition = load_definition(project, config, meta.scenarios, None, meta.instance_seed, with_judge=False)
    found = []
    for record in checked_records(definition, rd, meta):
        if record.grade is None or (names and record.scenario not in names):
            continue
        for part in record.grade.parts:
            if part.judge is not None and part.evidence_sha256:
                found.append((record.scenario, part.id, part.max_points, part.evidence_sha256, part.judge))
    return definition.scenarios, found


def _cell(a: Agreement) -> list[str]:
    def coef(value: float | None, ci: tuple[float, float] | None) -> str:
        if value is None:
            return "–"
        return f"{value:.2f}" + (f" ({ci[0]:.2f}–{ci[1]:.2f})" if ci else "")

    raw = "–" if a.raw is None else f"{a.raw:.0%}"
    const = "–" if a.constant is None else f"{a.constant:.0%} (always {a.majority_label})"
    return [
        str(a.labels),
        raw,
        const,
        coef(a.kappa, a.kappa_ci),
        coef(a.ac1, a.ac1_ci),
        f"{a.judge_higher} / {a.judge_lower}",
        str(a.unscored),
    ]


def measure_pairs(pairs: list[Pair], order: list[str]) -> tuple[Agreement, dict[str, Agreement]]:
    """Per criterion ("scenario/part", in rubric order) and overall, only scored verdicts counted."""
    per: dict[str, list[Pair]] = {}
    for p in pairs:
        per.setdefault(f"{p.scenario}/{p.part}", []).append(p)

    def of(group: list[Pair]) -> Agreement:
        scored = [
            (p.label.line.score, int(p.verdict.score))
            for p in group
            if p.verdict.status == "scored" and p.verdict.score is not None
        ]
        top = max((p.points for p in group), default=1)
        return measure(scored, range(top + 1), unscored=len(group) - len(scored))

    ranked = sorted(per, key=lambda k: order.index(k) if k in order else len(order))
    return of(pairs), {k: of(per[k]) for k in ranked}


def render(overall: Agreement, criteria: dict[str, Agreement], pairs: list[Pair]) -> list[str]:
    headers = [
        "criterion",
        "labels",
        "agree",
        "constant judge",
        "κ (95% CI)",
        "AC1 (95% CI)",
        "judge ↑ / ↓",
        "unscored",
    ]
    table = [[k, *_cell(a)] for k, a in criteria.items()] + [["**overall**", *_cell(overall)]]
    lines = [tabulate(table, headers=headers, tablefmt="github", disable_numparse=True), ""]
    lines.append(f"Overall: {overall.verdict_words()}.")
    weak = [
        f"- {k}: {a.verdict_words()}"
        for k, a in criteria.items()
        if a.verdict_words() != "better than a constant judge"
    ]
    if weak:
        lines += [
            "",
            "Criteria the judge is not shown to read (label more parts there, or fix the prompt):",
            *weak,
        ]
    lines.append(
        "\n(judge ↑ / ↓: parts the judge scored above / below the label; unscored parts are in no figure)"
    )
    misses = [p for p in pairs if p.verdict.status == "scored" and p.verdict.score != p.label.line.score]
    if misses:
        lines += ["", "Disagreements:"]
        for p in misses:
            critique = " ".join(p.verdict.critique.split())[:160]
            lines.append(
                f"- {p.scenario}/{p.part} evidence {p.label.line.evidence_sha256[:12]} ({p.label.line.run}): "
                f"label {p.label.line.score} ({p.label.line.by}), judge {p.verdict.score}: {critique}"
            )
    return lines


HOW_TO_LABEL = "docs/judge.md#labelling-the-judged-parts"
NOT_MEASURED = "not measured: no labelled judged parts"


def not_measured(source: str) -> str:
    """What the command says, exit 0, when no labelled part is judged: the nightly's judge job turns
    this first line into a notice (scripts/judge_agreement.sh) and nothing is recorded."""
    return (
        f"{NOT_MEASURED} in {source} (how to label: {HOW_TO_LABEL}); "
        "nothing recorded, the judge's agreement with people stays unmeasured"
    )


def _labels(
    defined: dict[str, LoadedScenario],
    days: int | None,
    as_of: date | None,
    parts: dict[str, set[str]] | None = None,
) -> tuple[dict[str, dict[tuple[str, str], Labelled]], LabelWindow]:
    """Each task's current labels (the newest per part and evidence) of `parts` (default: every
    part), inside the window."""
    current = {n: latest(load_labelled(loaded.folder)) for n, loaded in defined.items()}
    if parts is not None:
        current = {n: {k: v for k, v in known.items() if k[0] in parts[n]} for n, known in current.items()}
    return windowed(current, days, as_of)


MAX_PROMPT_BYTES = 256 * 1024  # a judge prompt is a page of instructions; a PR's file is read bounded


def _edited_prompts(
    config: Config, defined: dict[str, LoadedScenario], head: Path
) -> dict[str, dict[str, bytes]]:
    """task → {judge prompt: the PR head's bytes} for each judge prompt of the base's rubrics whose
    file in the head (a checkout read as data) differs from the base's. A prompt the head removed is
    not measured (the report lists the removal). The head comes from a pull request, so a prompt
    that is a link, or leads outside the head, is refused rather than read: its target (a file of
    the runner) would be sent to the model and its critique printed where the PR's author reads."""
    top = head.resolve()
    out: dict[str, dict[str, bytes]] = {}
    for name, loaded in defined.items():
        for prompt in loaded.judge_prompts:
            theirs = head / config.scenarios_dir / name / prompt
            if not theirs.exists() and not theirs.is_symlink():
                continue
            resolved = theirs.resolve()
            if theirs.is_symlink() or not resolved.is_relative_to(top) or not resolved.is_file():
                raise BadInputError(
                    f"{theirs}: not a regular file inside {head}; a judge prompt is not read from it"
                )
            with resolved.open("rb") as handle:
                data = handle.read(MAX_PROMPT_BYTES + 1)
            if len(data) > MAX_PROMPT_BYTES:
                raise BadInputError(f"{theirs}: larger than {MAX_PROMPT_BYTES // 1024} KiB; not read")
            if data != (loaded.folder / prompt).read_bytes():
                out.setdefault(name, {})[prompt] = data
    return out


def _with_head_prompts(
    stack: ExitStack, config: Config, project: Path, edited: dict[str, dict[str, bytes]]
) -> dict[str, LoadedScenario]:
    """The edited tasks loaded from a copy of the base's scenarios with the head's prompts put in:
    everything else (rubric, checks, labels, replays) stays the base's."""
    root = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="evals-pr-prompts-")))
    shutil.copytree(project / config.scenarios_dir, root / config.scenarios_dir, symlinks=True)
    for name, prompts in edited.items():
        for prompt, data in prompts.items():
            (root / config.scenarios_dir / name / prompt).write_bytes(data)
    return load_scenarios(root, config, sorted(edited))


def agreement(
    config: Config,
    project: Path,
    scenarios: list[str] | None,
    run: Path | None,
    record: Path | None,
    *,
    days: int | None = WINDOW_DAYS,
    as_of: date | None = None,
    prompts_from: Path | None = None,
) -> ExitCode:
    """`evals judge agreement` (evals/commands/judge.py parses its arguments); `days=None` counts
    every label, `as_of` ends the window on that day instead of the newest label's; `prompts_from`
    (a PR head checked out as data) measures only the judge prompts it edits, with its text."""
    with ExitStack() as stack:
        return _agreement(config, project, scenarios, run, record, days, as_of, prompts_from, stack)


def _agreement(
    config: Config,
    project: Path,
    scenarios: list[str] | None,
    run: Path | None,
    record: Path | None,
    days: int | None,
    as_of: date | None,
    prompts_from: Path | None,
    stack: ExitStack,
) -> ExitCode:
    edited: dict[str, dict[str, bytes]] = {}
    if run is not None:
        defined, stored = _from_run(run, config, project, scenarios)
        sets, window = _labels(defined, days, as_of)
        if stored and all(v.source in ("label", "none") for *_, v in stored):
            print(
                f"error: run {run} was judged by the human labels themselves (no model key): "
                "there is no model judge in it to measure",
                file=sys.stderr,
            )
            return ExitCode.BAD_INPUT
        pairs = [
            Pair(s, part, pts, sets[s][(part, sha)], v)
            for s, part, pts, sha, v in stored
            if (part, sha) in sets.get(s, {}) and v.source in ("model", "cache")
        ]
        source = f"run {run.name}"
    else:
        if not os.environ.get("ANTHROPIC_API_KEY"):
            print(
                "error: re-judging the labelled set needs ANTHROPIC_API_KEY (or measure a run's stored "
                "verdicts with --run DIR)",
                file=sys.stderr,
            )
            return ExitCode.BAD_INPUT
        defined = load_scenarios(project, config, scenarios or config.suite)
        parts = None
        source = "the bundled replays"
        if prompts_from is not None:
            edited = _edited_prompts(config, defined, prompts_from)
            if not edited:
                print(f"no judge prompt edited in {prompts_from}: nothing to measure, nothing recorded")
                return ExitCode.PASS
            defined = _with_head_prompts(stack, config, project, edited)
            parts = {
                name: {p.id for _, p in loaded.rubric.parts() if p.judge and p.judge.prompt in edited[name]}
                for name, loaded in defined.items()
            }
            named = ", ".join(f"{n}/{p}" for n, prompts in sorted(edited.items()) for p in sorted(prompts))
            source = f"the bundled replays, judged with the prompts {prompts_from} edits ({named})"
        sets, window = _labels(defined, days, as_of, parts)
        # no label at all: nothing to replay or ask (a label file that does not read stopped above)
        pairs = _from_replays_judged(config, project, defined, sets) if any(sets.values()) else []
    if not pairs:  # not a failure (an adopter before its first label), and never a pass
        print(not_measured(source) + f" ({window.words()})")
        return ExitCode.PASS
    order = [f"{n}/{part.id}" for n, loaded in defined.items() for _, part in loaded.rubric.parts()]
    overall, criteria = measure_pairs(pairs, order)
    identity = _identity(config, defined)
    if edited:  # a PR's measurement names only the prompts it edits, with the head's hashes
        measured = {f"{n}/{p}" for n, prompts in edited.items() for p in prompts}
        identity = identity.model_copy(
            update={"prompts": {k: v for k, v in identity.prompts.items() if k in measured}}
        )
    print(
        f"Judge {identity.model} vs people, {overall.labels} labelled part(s) from {source}, "
        f"labels of {window.words()}:\n"
    )
    print("\n".join(render(overall, criteria, pairs)))
    for name, known in defined.items():
        split = disputed(load_labelled(known.folder))
        if split:
            print(f"\n{name}: people disagree on {len(split)} labelled part(s); the newest label counts")
    if record is not None:
        checks = project_checks(load_judge_checks(record))
        changed = identity.changes_from(checks[-1].judge) if checks and not edited else []
        floor = config.judge.min_agreement
        check = JudgeCheck(
            recorded=now(),
            source=source,
            judge=identity,
            min_agreement=floor,
            overall=overall,
            criteria=criteria,
            changed=changed,
            alarms=alarms_for(overall, floor, changed),
            window=window,
            prompts_from=str(prompts_from) if edited else None,
            base=checks[-1] if edited and checks else None,
        )
        append_judge_check(record, check)
        print(f"\nRecorded in {record}" + (": " + "; ".join(check.alarms) if check.alarms else ""))
    if all(p.verdict.status == "error" for p in pairs):
        print("error: every judge call failed", file=sys.stderr)
        return ExitCode.INFRASTRUCTURE
    return ExitCode.PASS


def default_record(config: Config, project: Path) -> Path:
    from evals.gate.judge_record import JUDGE_FILE

    return (project / config.baseline).parent / JUDGE_FILE
