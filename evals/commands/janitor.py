"""`janitor`: list (default) or remove (`--yes`) live resources left by trials that did not clean
up, found by naming convention: GitHub repos and Notion pages named `agent-evals-<run>-t<N>`.

Dry run by default, because removal is irreversible for repos. Do not run it with `--yes` while a
live run is in progress unless you restrict it to a finished run with `--run-id`.
"""

from __future__ import annotations

import argparse

from evals.commands.common import add_renamed
from evals.core.errors import ExitCode


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = sub.add_parser(
        "janitor", help="live mode: find (and with --yes remove) leftover trial resources"
    )
    parser.add_argument("--yes", action="store_true", help="remove what is found (default: only list it)")
    parser.add_argument(
        "--run-id", metavar="ID", help="only resources of this run (its run directory's name)"
    )
    add_renamed(parser, "--run", "--run-id", dest="run_id")
    parser.set_defaults(handler=handle)


def handle(args: argparse.Namespace) -> ExitCode:
    from tabulate import tabulate

    # Imported here: the live clients pull in composio, which costs seconds on every CLI start.
    from evals.world.live.clients import check_github, check_notion, github_client, notion_client
    from evals.world.live.config import CleanupConfig, load_stage_config
    from evals.world.live.janitor import find_leftovers, remove

    config = load_stage_config(CleanupConfig)  # the repos and pages only: no Composio key
    gh, notion = github_client(config), notion_client(config)
    check_github(gh, config.github_owner)
    check_notion(notion, config.notion_parent_page)
    found = find_leftovers(gh, notion, config, args.run_id)
    if not found:
        print("No leftover live resources.")
        return ExitCode.PASS
    rows = []
    for item in found:
        if args.yes:
            remove(gh, notion, item)
        rows.append([item.kind, item.name, "removed" if args.yes else "would remove"])
    print(tabulate(rows, headers=["kind", "name", "action"]))
    if not args.yes:
        print(f"{len(found)} leftover(s). Dry run: rerun with --yes to remove them.")
    return ExitCode.PASS
