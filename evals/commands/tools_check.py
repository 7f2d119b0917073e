"""`tools check`: compare the sandbox's tools with the schemas Composio serves at the pinned toolkit
versions, field by field, and print every difference; with `--outputs`, also what the tools return.

The first step of setting up live mode: an agent (or a prompt) tuned offline sees the sandbox's
parameters, so a drift between them and Composio's means a call that works offline may fail live.
Needs only COMPOSIO_API_KEY (COMPOSIO_BASE_URL and COMPOSIO_TOOLKIT_VERSIONS are honoured).
`--outputs` needs every live key: it tours every tool on a freshly seeded live world and on the
sandbox, names each field of a sandbox result the live one lacks, and writes the live result shapes
to `--fixture` (evals.world.live.output_check). Exit 0: no difference; 4: drift (every difference
printed): offline results are not comparable with live ones, the contract's "not comparable" (1 is
a regression's only); 2: no key.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from evals.commands.common import add_config
from evals.core.errors import BadInputError, ExitCode
from evals.core.project import load_project


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = sub.add_parser("tools", help="the agent's tools: compare the sandbox with Composio")
    tools = parser.add_subparsers(dest="tools_command", required=True, metavar="check")
    check = tools.add_parser(
        "check", help="compare the sandbox's tool schemas with Composio's at the pinned versions"
    )
    check.add_argument(
        "--outputs",
        action="store_true",
        help="also tour every tool live and in the sandbox and compare their results (needs the live keys)",
    )
    check.add_argument(
        "--fixture",
        default="tests/fixtures/composio/observed_outputs.json",
        help="where --outputs writes the live result shapes it saw (default: %(default)s)",
    )
    add_config(check)
    check.set_defaults(handler=handle)


def handle(args: argparse.Namespace) -> ExitCode:
    if not os.environ.get("COMPOSIO_API_KEY", "").strip():
        raise BadInputError(
            "tools check needs COMPOSIO_API_KEY: it compares the sandbox's tools with the schemas "
            "Composio serves at the pinned toolkit versions (docs/live.md)"
        )
    # Imported here: the live clients pull in composio, which costs seconds on every CLI start.
    from evals.world.live.tools_check import check_results, check_schemas, composio_keys

    keys = composio_keys()
    schemas = check_schemas(keys)
    print("\n".join(schemas.lines))
    drifts = schemas.differences
    if args.outputs:
        config, root = load_project(args.config)
        fixture = root / Path(args.fixture)
        results = check_results(root / config.scenarios_dir, fixture, keys.composio_toolkit_versions)
        print("\n".join(results.lines))
        drifts += results.differences
    return ExitCode.NOT_COMPARABLE if drifts else ExitCode.PASS
