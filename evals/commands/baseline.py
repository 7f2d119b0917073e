"""`baseline bless` makes a finished run the baseline; `baseline history` records a nightly run;
`baseline aa` and `baseline canary` record the gate's own false alarms and catches (operating.jsonl).

Both read the run directory's records through the same validation as `compare` (a run that is
incomplete, duplicated or inconsistent with its rubric is refused, exit 3) and recompute its verdict
from them, never trusting its summary.json; no trial is run again, so the nightly workflow can call
them after `run` (or after merging shards).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from evals.commands.common import add_config, add_renamed, add_run, add_scenarios
from evals.core.errors import BadInputError, ExitCode
from evals.core.project import load_project


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = sub.add_parser("baseline", help="manage the blessed baseline and its nightly history")
    inner = parser.add_subparsers(dest="baseline_command", required=True)
    bless = inner.add_parser("bless", help="make a finished run the baseline (atomic write)")
    add_config(bless)
    add_run(bless)
    bless.add_argument(
        "--baseline",
        type=Path,
        metavar="PATH",
        help="baseline file to write, whose guard history it continues (default: {evals.yaml:baseline})",
    )
    add_renamed(bless, "--out", "--baseline", dest="baseline", type=Path)
    bless.add_argument(
        "--force",
        action="store_true",
        help="bless even a run whose verdict is regression, inconclusive, not-comparable or error "
        "(the nightly's candidate, which a person reviews before committing it)",
    )
    bless.add_argument(
        "--scenario",
        action="append",
        help="bless only this scenario of the run (repeatable); the baseline's other scenarios are kept",
    )
    bless.set_defaults(handler=handle_bless)
    history = inner.add_parser("history", help="append one line for a finished run to baseline/history.jsonl")
    add_config(history)
    add_run(history)
    history.add_argument(
        "--history",
        type=Path,
        metavar="PATH",
        help="history file to append to (default: history.jsonl next to {evals.yaml:baseline})",
    )
    add_renamed(history, "--out", "--history", dest="history", type=Path)
    history.set_defaults(handler=handle_history)
    _register_aa(inner)
    _register_canary(inner)


def _register_aa(inner: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    aa = inner.add_parser(
        "aa",
        help="A/A check: gate one half of a run's trials against the other half, append the line to "
        "baseline/operating.jsonl",
    )
    add_config(aa)
    add_run(aa, "finished run (the nightly's merged run)")
    _add_operating(aa)
    aa.set_defaults(handler=handle_aa)


def _register_canary(inner: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    canary = inner.add_parser(
        "canary",
        help="run the planted-regression canary (canary/) against the baseline, or record a canary run, "
        "in baseline/operating.jsonl",
    )
    add_config(canary)
    where = canary.add_mutually_exclusive_group()
    where.add_argument("--out", type=Path, metavar="DIR", help="run the canary into this new run directory")
    where.add_argument(
        "--run", type=Path, metavar="DIR", help="record a canary run made before (no agent is run)"
    )
    add_scenarios(canary)
    canary.add_argument(
        "--suite", help="run this suite (default: canary.yaml's suite, else {evals.yaml:suite})"
    )
    canary.add_argument(
        "--trials", type=int, metavar="K", help="trials per scenario (default: canary.yaml's)"
    )
    canary.add_argument("--world", default="sandbox", help="where trials run: sandbox (default) or live")
    canary.add_argument("--budget-usd", type=float, metavar="USD", help="cost budget of the canary run")
    canary.add_argument(
        "--offline",
        action="store_true",
        help="play canary.yaml's wrong replays even with ANTHROPIC_API_KEY set",
    )
    _add_operating(canary)
    canary.set_defaults(handler=handle_canary)


def _add_operating(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--operating",
        type=Path,
        metavar="PATH",
        help="file to append to (default: operating.jsonl next to {evals.yaml:baseline})",
    )


def handle_bless(args: argparse.Namespace) -> ExitCode:
    from evals.baseline.bless import (
        baseline_from_run,
        check_judge_measured,
        describe,
        guard_parts,
        previous_baseline,
        with_guard_history,
    )
    from evals.gate.baseline_file import load_baseline, merge_scenarios, write_baseline
    from evals.records.rundir import RunDir
    from evals.run.finish import checked_records, reopen

    config, project = load_project(args.config)
    rd = RunDir(args.run)
    definition, meta = reopen(rd, config, project)
    records = checked_records(definition, rd, meta)
    summary = definition.summarise(records, meta)
    out = args.baseline or project / config.baseline
    baseline = baseline_from_run(summary, records, rd.path, args.force)
    warning = check_judge_measured(summary, records, definition.judge_checks, rd.path)
    previous = previous_baseline(out, project / config.baseline)
    guards = guard_parts(project / config.scenarios_dir, baseline.scenarios)
    baseline = with_guard_history(baseline, previous, summary, guards, config.gate.guard_history_trials)
    if args.scenario:
        baseline = merge_scenarios(load_baseline(out), baseline, args.scenario)
    write_baseline(out, baseline)
    ks = ", ".join(f"{n} k={s.k}" for n, s in baseline.scenarios.items())
    print(f"Blessed {rd.path} as {out} ({ks}); the run's {describe(summary)}")
    if summary.verdict != "pass":
        print(f"  --force: this baseline carries a {summary.verdict} verdict; review it before committing it")
    if warning:
        print(f"  {warning}")
    return ExitCode.PASS


def handle_history(args: argparse.Namespace) -> ExitCode:
    from evals.baseline.history import HISTORY_FILE, append_history, history_entry
    from evals.records.rundir import RunDir
    from evals.run.finish import reopen, summarise

    config, project = load_project(args.config)
    rd = RunDir(args.run)
    definition, meta = reopen(rd, config, project)
    summary = summarise(definition, rd, meta)
    out = args.history or (project / config.baseline).parent / HISTORY_FILE
    added = append_history(out, history_entry(summary, rd.path))
    print(f"{'Recorded' if added else 'Already recorded'} {rd.path.name} in {out}")
    return ExitCode.PASS


def _operating_path(args: argparse.Namespace, config_baseline: Path) -> Path:
    from evals.gate.operating import OPERATING_FILE

    return args.operating or config_baseline.parent / OPERATING_FILE


def handle_aa(args: argparse.Namespace) -> ExitCode:
    from evals.baseline.aa import aa_check, describe
    from evals.gate.operating import append_operating
    from evals.records.rundir import RunDir
    from evals.run.finish import reopen

    config, project = load_project(args.config)
    rd = RunDir(args.run)
    definition, meta = reopen(rd, config, project)
    check = aa_check(definition, rd, meta)
    out = _operating_path(args, project / config.baseline)
    added = append_operating(out, check)
    print(describe(check))
    print(f"{'Recorded' if added else 'Already recorded'} the A/A check of {rd.path.name} in {out}")
    return ExitCode.PASS


def handle_canary(args: argparse.Namespace) -> ExitCode:
    from evals.baseline.canary import canary_record, describe, is_offline, plan_canary, run_canary
    from evals.gate.operating import append_operating
    from evals.records.rundir import RunDir
    from evals.run.finish import reopen
    from evals.run.runner import new_run_dir

    config, project = load_project(args.config)
    if args.suite is not None and args.scenario:
        raise BadInputError("--suite and --scenario: name one or the other")
    run = args.run
    if run is None:
        p, agent_dir = plan_canary(
            project,
            config,
            scenarios=config.suite_named(args.suite) if args.suite is not None else args.scenario,
            trials=args.trials,
            offline=is_offline(args.offline),
            world=args.world,
            budget_usd=args.budget_usd,
        )
        run = args.out or new_run_dir(project, config, ["canary"])
        run_canary(p, run, agent_dir)
    rd = RunDir(run)
    definition, meta = reopen(rd, config, project)
    record = canary_record(definition, rd, meta, check_layer_one=args.run is not None)
    out = _operating_path(args, project / config.baseline)
    added = append_operating(out, record)
    print(describe(record))
    print(f"{'Recorded' if added else 'Already recorded'} the canary run {rd.path.name} in {out}")
    return ExitCode.PASS
