"""`python -m evals COMMAND`: the command line over the pipeline stages.

Exit codes (every command): 0 pass, 1 regression, 2 usage or bad input, 3 infrastructure error,
4 not comparable.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from pathlib import Path
from typing import Any

from dotenv import load_dotenv

from evals.baseline import baseline_from_run, load_baseline, write_baseline
from evals.config import load_config
from evals.errors import BadInputError, EvalError, ExitCode
from evals.grade import grade
from evals.rundir import RunDir
from evals.runner import (
    Plan,
    new_run_dir,
    plan,
    progress_bar,
    run_meta,
    run_trials,
    summarise,
    write_outputs,
)
from evals.world.outcome import Outcome


def _root() -> Path:
    return Path.cwd()


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", type=Path, default=None, help="config file (default: ./evals.yaml)")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m evals", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    sub = parser.add_subparsers(dest="command")

    run = sub.add_parser("run", help="run the agent k times per scenario, grade, compare, report")
    _common(run)
    run.add_argument(
        "--scenario", action="append", help="scenario name (repeatable; default: the config's suite)"
    )
    run.add_argument("--agent", help="auto | claude | replay:NAME | package.module:callable")
    run.add_argument("--trials", type=int, help="trials per scenario (k)")
    run.add_argument("--out", type=Path, help="run directory (default: runs/<time>-<scenarios>)")
    run.add_argument("--baseline", type=Path, help="baseline file (default: from config)")
    run.add_argument("--concurrency", type=int, help="trials running at once (default 4)")

    grade_p = sub.add_parser("grade", help="re-grade a stored run without re-running the agent")
    _common(grade_p)
    grade_p.add_argument("--run", type=Path, required=True, help="run directory")
    grade_p.add_argument("--baseline", type=Path)

    cmp = sub.add_parser("compare", help="compare a stored run with the baseline and rewrite its report")
    _common(cmp)
    cmp.add_argument("--run", type=Path, required=True)
    cmp.add_argument("--baseline", type=Path)

    base = sub.add_parser("baseline", help="manage the blessed baseline")
    base_sub = base.add_subparsers(dest="baseline_command")
    bless = base_sub.add_parser("bless", help="make a finished run the baseline (atomic write)")
    _common(bless)
    bless.add_argument("--run", type=Path, required=True)
    bless.add_argument("--out", type=Path, help="baseline file to write (default: from config)")

    lab = sub.add_parser("labels", help="print label stubs for judged parts a run left unscored")
    _common(lab)
    lab.add_argument("--run", type=Path, required=True)

    lst = sub.add_parser("scenarios", help="list the scenarios")
    _common(lst)
    return parser


def _plan_for_run(args: argparse.Namespace, rd: RunDir) -> tuple[Plan, dict[str, Any]]:
    meta_path = rd.path / "run.json"
    if not meta_path.is_file():
        raise BadInputError(f"{meta_path}: not a run directory (no run.json)")
    try:
        meta = json.loads(meta_path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise BadInputError(f"{meta_path}: corrupt: {exc}") from exc
    config, root = load_config(_root(), args.config)
    p = plan(
        root,
        config,
        scenarios=meta["scenarios"],
        agent=meta["agent_spec"],
        trials=meta["trials"],
        baseline=getattr(args, "baseline", None),
    )
    return p, meta


def cmd_run(args: argparse.Namespace) -> ExitCode:
    config, root = load_config(_root(), args.config)
    if args.concurrency is not None and args.concurrency < 1:
        raise BadInputError("--concurrency must be at least 1")
    p = plan(
        root,
        config,
        scenarios=args.scenario,
        agent=args.agent,
        trials=args.trials,
        baseline=args.baseline,
        concurrency=args.concurrency,
    )
    out = args.out or new_run_dir(root, config, list(p.scenarios))
    if (out / "results.jsonl").exists():
        raise BadInputError(f"{out}: already holds a run; choose another --out")
    rd = RunDir(out)
    meta = run_meta(p)
    rd.write_json("run.json", meta)
    print(f"Running {', '.join(p.scenarios)} × {p.trials} with {meta['agent']} → {out}", file=sys.stderr)
    with progress_bar() as progress:
        asyncio.run(run_trials(p, rd, progress))
    return _finish(p, rd, meta)


def _finish(p: Plan, rd: RunDir, meta: dict[str, Any]) -> ExitCode:
    summary, gate = summarise(p, rd, meta)
    report = write_outputs(rd, summary, gate)
    total = summary["total"]
    print(
        f"Verdict: {gate.verdict} · total {total['mean']} / {total['max']}"
        + (f" (baseline {total['baseline']}, Δ {total['delta']:+g})" if total["delta"] is not None else "")
    )
    for line in gate.reasons + gate.notices:
        print(f"  {line}")
    print(f"Report: {report}")
    return gate.exit_code


def cmd_grade(args: argparse.Namespace) -> ExitCode:
    rd = RunDir(args.run)
    p, meta = _plan_for_run(args, rd)
    for record in rd.results():
        if record["status"] != "ok":
            continue
        ls = p.scenarios[record["scenario"]]
        tdir = rd.trial_dir(record["scenario"], record["trial"])
        snap = Outcome.model_validate_json((tdir / "outcome.json").read_text(encoding="utf-8"))
        graded = grade(snap, ls.scenario, ls.rubric, ls.judge, ls.folder)
        rd.write_json(tdir.relative_to(rd.path) / "grade.json", graded.model_dump(mode="json"))
        rd.append_result({**record, "grade": graded.model_dump(mode="json")})
    return _finish(p, rd, meta)


def cmd_compare(args: argparse.Namespace) -> ExitCode:
    rd = RunDir(args.run)
    p, meta = _plan_for_run(args, rd)
    return _finish(p, rd, meta)


def cmd_bless(args: argparse.Namespace) -> ExitCode:
    config, root = load_config(_root(), args.config)
    rd = RunDir(args.run)
    summary_path = rd.path / "summary.json"
    if not summary_path.is_file():
        raise BadInputError(f"{summary_path}: no summary; finish or grade the run first")
    summary = json.loads(summary_path.read_text(encoding="utf-8"))
    if summary["verdict"] == "error":
        raise BadInputError(f"{rd.path}: the run's verdict is error; not blessing it")
    out = args.out or root / config.baseline
    baseline = baseline_from_run(summary, rd.results(), rd.path)
    write_baseline(out, baseline)
    load_baseline(out)
    print(f"Blessed {rd.path} as {out}")
    return ExitCode.PASS


def cmd_scenarios(args: argparse.Namespace) -> ExitCode:
    from evals.scenario import list_scenarios

    config, root = load_config(_root(), args.config)
    for name in list_scenarios(root / config.scenarios_dir):
        print(name)
    return ExitCode.PASS


def cmd_labels(args: argparse.Namespace) -> ExitCode:
    """Print YAML stubs a person completes and pastes into scenario/<name>/labels.yaml."""
    rd = RunDir(args.run)
    pending = 0
    for record in rd.results():
        for part in (record.get("grade") or {}).get("parts", []):
            if part["status"] == "unscored" and part.get("evidence_sha256"):
                pending += 1
                excerpt = "\n".join(f"    # {line}" for line in part["evidence_excerpt"].splitlines()[:20])
                print(f"# {record['scenario']} trial {record['trial']}, evidence:\n{excerpt}")
                print(
                    f"  - part: {part['id']}\n    evidence_sha256: {part['evidence_sha256']}\n"
                    f"    score: 0  # 0..{part['max_points']}\n    by: YOUR NAME\n    why: ...\n"
                )
    if not pending:
        print("nothing to label: no judged part was left unscored")
    return ExitCode.PASS


COMMANDS = {
    "labels": cmd_labels,
    "run": cmd_run,
    "grade": cmd_grade,
    "compare": cmd_compare,
    "scenarios": cmd_scenarios,
}


def main(argv: list[str] | None = None) -> int:
    load_dotenv(_root() / ".env")
    parser = build_parser()
    try:
        args = parser.parse_args(["run"] if argv == [] or (argv is None and len(sys.argv) == 1) else argv)
    except SystemExit as exc:
        return int(exc.code or 0) and int(ExitCode.BAD_INPUT)
    try:
        if args.command == "baseline":
            if args.baseline_command != "bless":
                parser.parse_args(["baseline", "--help"])
            return int(cmd_bless(args))
        return int(COMMANDS[args.command](args))
    except EvalError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return int(exc.exit_code)
    except KeyboardInterrupt:
        print("interrupted: finished trials are kept in results.jsonl", file=sys.stderr)
        return int(ExitCode.INFRASTRUCTURE)
