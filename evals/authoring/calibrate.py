"""`evals calibrate`: how often the model judge agrees with the human labels, per judged part and overall.

A label is keyed by (part, evidence hash), so calibrating needs the evidence text itself. It is
regenerated rather than stored next to the label: each of the scenario's bundled replays is re-run
in a fresh sandbox world (deterministic, so a replay yields byte-identical evidence and therefore the
hash its label was given under), or, with `--run DIR`, a stored run's outcome snapshots are read.
Every judged part whose code checks passed and whose evidence carries a label is put to the model
judge (through the judge cache, so re-calibrating an unchanged prompt is free) and compared with the
label. Needs ANTHROPIC_API_KEY: without it there is no model judge to measure.
"""

from __future__ import annotations

import asyncio
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path

from tabulate import tabulate

from evals.authoring.replay_sandbox import replay_outcome
from evals.core.config import Config
from evals.core.errors import BadInputError, ExitCode
from evals.definition import LoadedScenario, load_definition, load_scenarios
from evals.grade.grader import Pending, layer_one
from evals.grade.judge import Judge, Judgement, make_judge
from evals.grade.labels import Label, load_labels
from evals.records.rundir import RunDir
from evals.run.finish import checked_records
from evals.scenario.folder import ScenarioFolder
from evals.world.outcome import Outcome

CRITIQUE = 160


@dataclass
class Sample:
    """One labelled (part, evidence) pair and where it was seen."""

    scenario: str
    pending: Pending
    label: Label
    sources: list[str] = field(default_factory=list)


def _from_replays(defined: dict[str, LoadedScenario], project: Path) -> list[tuple[str, str, Outcome]]:
    out = []
    for name, loaded in defined.items():
        for replay in ScenarioFolder(loaded.folder).replays():
            outcome = asyncio.run(replay_outcome(loaded, replay, project / "agent", f"calibrate-{replay}"))
            out.append((name, f"replay:{replay}", outcome))
    return out


def _from_run(
    run: Path, names: list[str] | None, config: Config, project: Path
) -> tuple[list[str], list[tuple[str, str, Outcome]]]:
    rd = RunDir(run)
    meta = rd.read_meta()  # a folder without run.json is not a run: say so
    definition = load_definition(project, config, meta.scenarios, None, meta.instance_seed, with_judge=False)
    out = []
    for record in checked_records(definition, rd, meta):  # fail closed, as every reader of a run
        if record.status != "ok" or (names and record.scenario not in names):
            continue
        outcome = rd.read_trial(record.scenario, record.trial, "outcome", Outcome)
        if outcome is None:
            where = rd.trial_file(record.scenario, record.trial, "outcome")
            raise BadInputError(f"{where}: missing; cannot take trial {record.trial}'s evidence")
        out.append((record.scenario, f"trial {record.trial}", outcome))
    return sorted({s for s, _, _ in out}), out


def _samples(
    defined: dict[str, LoadedScenario],
    labels: dict[str, dict[tuple[str, str], Label]],
    outcomes: list[tuple[str, str, Outcome]],
) -> tuple[list[Sample], set[tuple[str, str, str]]]:
    """The labelled (part, evidence) pairs the outcomes produce, each once; and every pair produced."""
    found: dict[tuple[str, str, str], Sample] = {}
    seen: set[tuple[str, str, str]] = set()
    for name, source, outcome in outcomes:
        loaded = defined[name]
        for staged in layer_one(outcome, loaded).values():
            if not isinstance(staged, Pending):
                continue
            key = (name, staged.request.part, staged.request.evidence_sha)
            seen.add(key)
            label = labels[name].get(key[1:])
            if label is not None:
                found.setdefault(key, Sample(name, staged, label)).sources.append(source)
    return list(found.values()), seen


def _pct(agree: int, decided: int) -> str:
    return f"{agree / decided:.0%}" if decided else "–"


def _report(samples: list[Sample], verdicts: list[Judgement], order: dict[tuple[str, str], int]) -> list[str]:
    """Rows in rubric order: labelled, judged (scored), agreeing, unscored, agreement among judged."""
    rows: dict[tuple[str, str], list[int]] = {}
    for sample, verdict in sorted(
        zip(samples, verdicts, strict=True),
        key=lambda sv: order.get((sv[0].scenario, sv[0].pending.request.part), 0),
    ):
        row = rows.setdefault((sample.scenario, sample.pending.request.part), [0, 0, 0, 0])
        row[0] += 1
        if verdict.status == "scored":
            row[1] += 1
            row[2] += int(verdict.score == sample.label.score)
        else:
            row[3] += 1
    table = [[s, p, n, d, a, u, _pct(a, d)] for (s, p), (n, d, a, u) in rows.items()]
    totals = [sum(r[i] for r in rows.values()) for i in range(4)]
    table.append(["**overall**", "", *totals, _pct(totals[2], totals[1])])
    headers = ["scenario", "part", "labelled", "judged", "agree", "unscored", "agreement"]
    lines = [tabulate(table, headers=headers, tablefmt="github", disable_numparse=True)]
    misses = [
        (s, v)
        for s, v in zip(samples, verdicts, strict=True)
        if v.status != "scored" or v.score != s.label.score
    ]
    if misses:
        lines += ["", "Disagreements and unscored:"]
        for s, v in misses:
            judged = v.score if v.status == "scored" else v.status
            critique = " ".join(v.critique.split())[:CRITIQUE]
            lines.append(
                f"- {s.scenario} {s.pending.request.part} evidence {s.pending.request.evidence_sha[:12]} "
                f"({', '.join(s.sources)}): label {s.label.score} ({s.label.by}), judge {judged}: {critique}"
            )
    return lines


def _judge(config: Config, project: Path) -> Judge:
    """The model judge through its cache: `handle` checked the key; the labels are what it is measured by."""
    return make_judge(config.judge, project, {}, api_key_present=True)


def calibrate(config: Config, project: Path, scenarios: list[str] | None, run: Path | None) -> ExitCode:
    """`evals calibrate` (evals/commands/calibrate.py parses its arguments and finds the project):
    the judge against the labels on `scenarios` (None: the config's suite), with evidence from the
    bundled replays or, given `run`, from that run's outcomes."""
    if not os.environ.get("ANTHROPIC_API_KEY"):
        print(
            "error: calibrate measures the model judge against the human labels and needs ANTHROPIC_API_KEY; "
            "without a key the offline judge *is* the labels, so there is nothing to compare",
            file=sys.stderr,
        )
        return ExitCode.BAD_INPUT
    if run is not None:
        names, outcomes = _from_run(run, scenarios, config, project)
        defined = load_scenarios(project, config, names)
    else:
        defined = load_scenarios(project, config, scenarios or config.suite)
        outcomes = _from_replays(defined, project)
    labels = {name: load_labels(loaded.folder) for name, loaded in defined.items()}
    samples, seen = _samples(defined, labels, outcomes)
    unlabelled = len(seen) - len(samples)
    stale = [
        f"{name} {part} {sha[:12]}"
        for name, known in labels.items()
        for part, sha in known
        if (name, part, sha) not in seen
    ]
    source = f"run {run}" if run is not None else "the bundled replays"
    if not samples:
        print(f"error: nothing to calibrate: no labelled judge evidence in {source}", file=sys.stderr)
        return ExitCode.BAD_INPUT
    judge = _judge(config, project)
    verdicts = judge.decide_all([s.pending.request for s in samples])
    print(f"Judge {judge.model} vs human labels, on evidence from {source}:\n")
    order = {
        (n, part.id): i for n, loaded in defined.items() for i, (_, part) in enumerate(loaded.rubric.parts())
    }
    print("\n".join(_report(samples, verdicts, order)))
    if unlabelled:
        print(
            f"\n{unlabelled} judged (part, evidence) pair(s) had no label "
            "(`python -m evals labels --run DIR` prints stubs for them)."
        )
    if stale and run is None:
        print(f"\nLabels no replay produces any more (evidence changed? re-label): {', '.join(stale)}")
    if all(v.status == "error" for v in verdicts):
        print("error: every judge call failed; see the reasons above", file=sys.stderr)
        return ExitCode.INFRASTRUCTURE
    return ExitCode.PASS
