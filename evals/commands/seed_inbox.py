"""`seed-inbox`: deliver a scenario's emails to the live agent's Gmail, once, from the persona
mailboxes (through Composio). Safe to rerun: emails already in the inbox are skipped. Seeding
another instance of a parameterised task first trashes the mail seeded for the earlier one (the
harness labels what it delivers, see evals/world/live/seed_labels.py); other mail is never touched."""

from __future__ import annotations

import argparse

from evals.commands.common import add_config, add_scenarios
from evals.core.errors import ExitCode
from evals.core.project import load_project


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = sub.add_parser(
        "seed-inbox", help="live mode: deliver the scenarios' emails to the agent's Gmail"
    )
    add_config(parser)
    add_scenarios(parser)
    parser.add_argument(
        "--instance-seed",
        type=int,
        metavar="N",
        help="deliver instance N of parameterised tasks (the one `run --instance-seed N` runs)",
    )
    parser.set_defaults(handler=handle)


def handle(args: argparse.Namespace) -> ExitCode:
    from tabulate import tabulate

    from evals.scenario.load import load_scenario

    # Imported here: the live clients pull in composio, which costs seconds on every CLI start.
    from evals.world.live.composio_api import ComposioApi
    from evals.world.live.config import ComposioConfig, check_personas, load_stage_config
    from evals.world.live.gmail import seed_inbox

    config, project = load_project(args.config)
    live = load_stage_config(ComposioConfig)  # Composio and the mailboxes only: no GitHub or Notion key
    folder = project / config.scenarios_dir
    scenarios = [load_scenario(folder, n, args.instance_seed) for n in args.scenario or config.suite]
    for scenario in scenarios:
        check_personas(live, sorted({e.sender for e in scenario.emails}), scenario.name)
    api = ComposioApi(live)
    api.check()
    rows = []
    removed = 0
    for scenario in scenarios:
        seeding = seed_inbox(api, live, scenario)
        for email_id, status in seeding.statuses:
            email = next(e for e in scenario.emails if e.id == email_id)
            rows.append([scenario.name, email_id, email.sender, email.subject, status])
        if seeding.removed:
            print(f"{scenario.name}: moved {seeding.removed} message(s) of an earlier instance to the trash")
        removed += seeding.removed
    print(tabulate(rows, headers=["scenario", "email", "from", "subject", "status"]))
    print(
        f"Inbox of {live.agent_address}: {sum(r[-1] == 'sent' for r in rows)} sent, "
        f"{sum(r[-1] in ('present', 'adopted') for r in rows)} already there, "
        f"{removed} of earlier instances moved to the trash."
    )
    return ExitCode.PASS
