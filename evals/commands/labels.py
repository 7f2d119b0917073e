"""`labels`: print YAML stubs for judged parts a run left unscored, for a person to complete.

Only a part the judge was asked about carries its evidence hash, so only those get a stub: a part
left unscored by a broken check has nothing a label could decide.
"""

from __future__ import annotations

import argparse

from evals.commands.common import add_config, add_run
from evals.core.errors import ExitCode
from evals.core.project import load_project


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = sub.add_parser("labels", help="print label stubs for judged parts a run left unscored")
    add_config(parser)
    add_run(parser)
    parser.set_defaults(handler=handle)


def handle(args: argparse.Namespace) -> ExitCode:
    from evals.records.rundir import RunDir
    from evals.run.finish import checked_records, reopen

    config, project = load_project(args.config)
    rd = RunDir(args.run)
    definition, meta = reopen(rd, config, project)
    pending = 0
    for record in checked_records(definition, rd, meta):
        if record.grade is None:
            continue
        for part in record.grade.parts:
            if part.status == "unscored" and part.evidence_sha256:
                pending += 1
                excerpt = "\n".join(f"    # {line}" for line in part.evidence_excerpt.splitlines()[:20])
                print(f"# {record.scenario} trial {record.trial}, evidence:\n{excerpt}")
                print(
                    f"  - part: {part.id}\n    evidence_sha256: {part.evidence_sha256}\n"
                    f"    score: 0  # 0..{part.max_points}\n    by: YOUR NAME\n    why: ...\n"
                )
    if not pending:
        print("nothing to label: no judged part was left unscored")
    return ExitCode.PASS
