"""A pull request's two halves: the agent under test (taken from its head) and the ruler (never).

On a PR the eval definition (the harness in `evals/`, scenarios, rubrics, checks, judge prompts,
labels, baseline and the gate settings in `evals.yaml`) comes from the base commit the workflow runs
from; only the agent under test comes from the PR's head, at the exact head SHA that was labelled:
`agent/`, and for a `module:callable` agent the module it names. A PR that edits the definition is
still evaluated with the base's: its edits are listed at the top of the report ("not used for this
verdict; bless after merge"), so a careless PR cannot "refresh" the baseline, the threshold or a
check together with the change the gate is judging.

Three steps of `.github/workflows/evals-pr.yml` use this module:

- `take-agent --head DIR`: replace the base checkout's agent under test with the head's.
- `verdict --run DIR --head DIR`: the gate. Recomputes the verdict with the base's definition from
  the trial records (never the run's own summary.json/report.md), after checking that the run is
  whole and covers what the base asks for; anything missing or unreadable is `error`, never a pass.
  Prints `verdict`, `state`, `description` and `exit_code` for `$GITHUB_OUTPUT`.
- `status --sha SHA --state S --description D`: post the required commit status on the head SHA.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path

from evals.errors import BadInputError, EvalError, ExitCode

AGENT_DIR = "agent"
# What measures, as opposed to what is measured: a PR's edits here are listed, never used.
DEFINITION_PATHS = (
    "evals",
    "scenario",
    "baseline",
    "evals.yaml",
    "pricing.yaml",
    "scripts",
    ".github/workflows",
    "requirements.txt",
)
IGNORED_PARTS = {"__pycache__", ".mypy_cache", ".pytest_cache", ".ruff_cache"}
STATUS_CONTEXT = "agent-evals"  # the commit status to mark required in branch protection
# Commit status states (GitHub: error, failure, pending, success) for each verdict.
STATES = {
    "pass": "success",
    "inconclusive": "success",
    "regression": "failure",
    "not-comparable": "failure",
    "error": "error",
}
DESCRIPTION_LIMIT = 140  # GitHub's limit for a commit status description
LISTED_CHANGES = 40


# --- the agent under test ----------------------------------------------------------------------


def agent_paths(spec: str) -> list[str]:
    """What the agent under test is, as paths: `agent/`, plus a module agent's own module."""
    paths = [AGENT_DIR]
    if ":" in spec and not spec.startswith("replay:"):
        module = spec.split(":", 1)[0]
        if not module or not all(part.isidentifier() for part in module.split(".")):
            raise BadInputError(f"agent {spec!r}: not a module:callable spec")
        paths.append(module.replace(".", "/"))
    return paths


def _no_links(root: Path, path: Path) -> None:
    """Head files are data: a symlink could point the copy outside the head checkout."""
    for item in [path, *path.rglob("*")] if path.is_dir() else [path]:
        if item.is_symlink():
            raise BadInputError(f"{item.relative_to(root)}: symlinks are not taken from a PR head")


def take_agent(base: Path, head: Path, spec: str) -> list[str]:
    """Replace the agent under test in `base` by the head's; return the paths taken."""
    taken = []
    for rel in agent_paths(spec):
        candidates = [rel] if rel == AGENT_DIR else [f"{rel}.py", rel]
        for name in candidates:
            source, target = head / name, base / name
            if not source.exists() and not target.exists():
                continue
            if source.exists():
                _no_links(head, source)
            if target.is_dir():
                shutil.rmtree(target)
            elif target.exists():
                target.unlink()
            if source.is_dir():
                shutil.copytree(source, target, ignore=shutil.ignore_patterns(*IGNORED_PARTS))
            elif source.is_file():
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(source, target)
            taken.append(name)
    return taken


# --- what the PR would change in the definition ----------------------------------------------


def _files(root: Path) -> dict[str, str]:
    out = {}
    for top in DEFINITION_PATHS:
        start = root / top
        paths = [start] if start.is_file() else sorted(start.rglob("*")) if start.is_dir() else []
        for path in paths:
            rel = path.relative_to(root)
            if IGNORED_PARTS.intersection(rel.parts) or not path.is_file() or path.suffix == ".pyc":
                continue
            out[rel.as_posix()] = hashlib.sha256(path.read_bytes()).hexdigest()
    return out


def definition_changes(base: Path, head: Path) -> list[str]:
    """Definition files the head adds, removes or edits relative to the base (compared as data)."""
    a, b = _files(base), _files(head)
    return sorted(f for f in set(a) | set(b) if a.get(f) != b.get(f))


# --- the verdict --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Gate:
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
    from evals.config import load_config

    named = os.environ.get("EVALS_SCENARIOS", "").split()
    if named:
        return named
    config, _ = load_config(root)
    return list(config.suite)


def check_evidence(run: Path, root: Path) -> None:
    """The run directory is whole and covers the expected scenarios, else BadInputError."""
    from evals.records import read_meta, read_records

    if not run.is_dir():
        raise BadInputError(f"no run directory at {run}: the trials' artifact is missing")
    meta = read_meta(run)
    results = run / "results.jsonl"
    if not results.is_file():
        raise BadInputError(f"{results}: missing; the run recorded no trials")
    records = read_records(results)
    wanted = expected_scenarios(root)
    missing = sorted(set(wanted) - set(meta.scenarios))
    if missing:
        raise BadInputError(f"the run does not cover scenario(s) {', '.join(missing)} (expected {wanted})")
    if not records:
        raise BadInputError(f"{results}: no trial finished")


def record_changes(run: Path, changes: list[str]) -> None:
    from evals.records import RUN_FILE, read_meta

    meta = read_meta(run).model_copy(update={"definition_changes": changes or None})
    (run / RUN_FILE).write_text(json.dumps(meta.dump(), indent=2) + "\n", encoding="utf-8")


def _describe(summary: dict[str, object]) -> str:
    verdict = str(summary.get("verdict", "error"))
    total = summary.get("total")
    if not isinstance(total, dict) or total.get("mean") is None:
        reasons = summary.get("reasons") or []
        return f"{verdict}: {reasons[0]}" if isinstance(reasons, list) and reasons else verdict
    text = f"{verdict}: total {total['mean']:.2f}/{total.get('max')}"
    if total.get("baseline") is not None and total.get("delta") is not None:
        text += f" (baseline {total['baseline']:.2f}, Δ {total['delta']:+.2f})"
    return text


def _error_report(run: Path, reason: str) -> None:
    """A report for the comment and the job summary when there is no run to report on."""
    from evals.report import MARKER

    shown = " ".join(reason.replace("`", "'").split())  # one code span: shown as text, never rendered
    text = (
        f"{MARKER}\n## ❌ Agent evals: **error**\n\n"
        f"- The verdict could not be computed from the trials' evidence: `{shown}`\n"
        "\nAn unreadable or missing run is an error, never a pass: label the PR `run-evals` again.\n"
    )
    run.mkdir(parents=True, exist_ok=True)
    (run / "report.md").write_text(text, encoding="utf-8")
    summary_path = os.environ.get("GITHUB_STEP_SUMMARY")
    if summary_path:
        with open(summary_path, "a", encoding="utf-8") as handle:
            handle.write(text + "\n")


def gate(run: Path, head: Path | None, root: Path) -> Gate:
    """The PR's verdict, by this (base) checkout's definition, from the trials' records."""
    from evals.cli import main as evals_main

    try:
        check_evidence(run, root)
        changes = definition_changes(root, head) if head is not None and head.is_dir() else []
        record_changes(run, changes)
        for stale in ("summary.json", "report.md"):  # written where the agent ran: never read
            (run / stale).unlink(missing_ok=True)
        code = evals_main(["compare", "--run", str(run)])
        summary = json.loads((run / "summary.json").read_text(encoding="utf-8"))
    except (EvalError, OSError, ValueError) as exc:
        reason = str(exc)
        _error_report(run, reason)
        return Gate("error", f"error: {reason}", int(ExitCode.INFRASTRUCTURE))
    if not isinstance(summary, dict):
        _error_report(run, "summary.json is not an object")
        return Gate("error", "error: unreadable summary", int(ExitCode.INFRASTRUCTURE))
    verdict = str(summary.get("verdict", "error"))
    if code == ExitCode.BAD_INPUT:
        verdict = "error"
    return Gate(verdict, _describe(summary), int(code))


# --- the commit status ----------------------------------------------------------------------------


def post_status(repo: str, sha: str, state: str, description: str, target_url: str) -> str:
    """Create the required commit status on `sha` (PyGithub, over GITHUB_API_URL)."""
    from github import Auth, Github

    api = os.environ.get("GITHUB_API_URL", "https://api.github.com")
    gh = Github(base_url=api, auth=Auth.Token(os.environ["GITHUB_TOKEN"]), lazy=True)
    try:
        commit = gh.get_repo(repo).get_commit(sha)
        created = commit.create_status(
            state,
            target_url=target_url or "",
            description=description[:DESCRIPTION_LIMIT],
            context=STATUS_CONTEXT,
        )
        return created.state
    finally:
        gh.close()


def run_url() -> str:
    server, repo, run = (
        os.environ.get(k) for k in ("GITHUB_SERVER_URL", "GITHUB_REPOSITORY", "GITHUB_RUN_ID")
    )
    return f"{server}/{repo}/actions/runs/{run}" if server and repo and run else ""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m evals.pr_head", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    take = sub.add_parser("take-agent", help="replace the agent under test by the PR head's")
    take.add_argument("--head", type=Path, required=True, help="checkout of the PR head (data only)")
    take.add_argument("--agent", default=None, help="agent spec (default: $EVALS_AGENT, else the config's)")
    judge = sub.add_parser("verdict", help="the PR's verdict from the run, by this checkout's definition")
    judge.add_argument("--run", type=Path, required=True)
    judge.add_argument("--head", type=Path, default=None, help="checkout of the PR head, to list its edits")
    status = sub.add_parser("status", help=f"post the `{STATUS_CONTEXT}` commit status")
    status.add_argument("--sha", required=True)
    status.add_argument("--state", required=True, choices=sorted(set(STATES.values())))
    status.add_argument("--description", default="")
    args = parser.parse_args(argv)
    root = Path.cwd()
    try:
        if args.command == "take-agent":
            from evals.config import load_config

            spec = args.agent or os.environ.get("EVALS_AGENT") or load_config(root)[0].agent
            for name in take_agent(root, args.head, spec):
                print(f"agent under test: {name} from the PR head")
            return 0
        if args.command == "verdict":
            result = gate(args.run, args.head, root)
            lines = [f"{key}={value}" for key, value in result.outputs().items()]
            print("\n".join(lines))
            if os.environ.get("GITHUB_OUTPUT"):  # written here, not teed: compare prints to stdout too
                with open(os.environ["GITHUB_OUTPUT"], "a", encoding="utf-8") as handle:
                    handle.write("\n".join(lines) + "\n")
            return 0
        state = post_status(
            os.environ["GITHUB_REPOSITORY"], args.sha, args.state, args.description, run_url()
        )
        print(f"{STATUS_CONTEXT}: {state} on {args.sha[:12]}")
        return 0
    except EvalError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return int(exc.exit_code)


if __name__ == "__main__":
    sys.exit(main())
