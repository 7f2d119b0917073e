"""`init`: adopt the gate in this repository: evals.yaml, the agent (or a pointer to yours), one
starter scenario of each tier, baseline/, the workflow scripts and the PR and nightly workflows
(calling the gate's reusable workflows pinned by commit SHA); then the checklist of the repository
settings the trust model needs. Refuses to overwrite a file without --force
(evals/authoring/init.py)."""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from evals.core.errors import BadInputError, ExitCode


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = sub.add_parser(
        "init", help="scaffold the gate into this repository (config, starter scenarios, workflows)"
    )
    parser.add_argument(
        "--dir", type=Path, default=Path("."), help="the repository's top folder (default: here)"
    )
    parser.add_argument(
        "--gate",
        default=os.environ.get("EVALS_GATE_REF") or None,
        metavar="OWNER/REPO@SHA",
        help="the gate commit the workflows call and install (default: EVALS_GATE_REF, else where this "
        "package comes from: the commit pip installed from git, the repository and commit the wheel was "
        "built from, or the git checkout it runs from)",
    )
    parser.add_argument(
        "--agent",
        metavar="MODULE:CALLABLE",
        help="your own agent instead of the bundled claude agent/ (docs/agents.md 'Your own agent')",
    )
    parser.add_argument("--force", action="store_true", help="replace files that exist")
    parser.set_defaults(handler=handle)


def handle(args: argparse.Namespace) -> ExitCode:
    from evals.authoring.init import Gate, apply, checklist, installed_gate, plan
    from evals.authoring.provenance import origin, unknown_message

    gate = Gate.parse(args.gate) if args.gate else installed_gate()
    if gate is None:
        raise BadInputError(unknown_message(origin()))
    target: Path = args.dir
    if not target.is_dir():
        raise BadInputError(f"--dir {target}: no such folder")
    written = apply(target, plan(gate, args.agent), args.force)
    print(f"wrote {len(written)} files into {target.resolve()}:")
    for rel in written:
        print(f"  {rel}")
    print("next: evals run   (offline: the starter scenarios' replays; a report in runs/)\n")
    print(checklist(gate), end="")
    return ExitCode.PASS
