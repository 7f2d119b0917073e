"""`tools check`: compare the sandbox's tools with the schemas Composio serves at the pinned toolkit
versions, field by field, and print every difference.

The first step of setting up live mode: an agent (or a prompt) tuned offline sees the sandbox's
parameters, so a drift between them and Composio's means a call that works offline may fail live.
Needs only COMPOSIO_API_KEY (COMPOSIO_BASE_URL and COMPOSIO_TOOLKIT_VERSIONS are honoured). Exit
0: no difference; 1: drift (every difference printed); 2: no key.
"""

from __future__ import annotations

import argparse
import os

from evals.core.errors import BadInputError, ExitCode


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = sub.add_parser("tools", help="the agent's tools: compare the sandbox with Composio")
    tools = parser.add_subparsers(dest="tools_command", required=True, metavar="check")
    check = tools.add_parser(
        "check", help="compare the sandbox's tool schemas with Composio's at the pinned versions"
    )
    check.set_defaults(handler=handle)


def handle(args: argparse.Namespace) -> ExitCode:
    if not os.environ.get("COMPOSIO_API_KEY", "").strip():
        raise BadInputError(
            "tools check needs COMPOSIO_API_KEY: it compares the sandbox's tools with the schemas "
            "Composio serves at the pinned toolkit versions (README, Live mode)"
        )
    # Imported here: the live clients pull in composio, which costs seconds on every CLI start.
    from evals.world.live.composio_api import make_sdk, raw_tools
    from evals.world.live.config import ComposioKeys, load_stage_config
    from evals.world.live.schema_diff import diff
    from evals.world.sandbox.tools.catalogue import build

    catalogue = build()
    keys = load_stage_config(ComposioKeys)
    found = raw_tools(make_sdk(keys), sorted(catalogue))
    drifts = 0
    for slug, tool in sorted(catalogue.items()):
        real = found[slug]
        differences = diff(slug, dict(real.input_parameters or {}), tool.schema()["input_schema"])
        drifts += len(differences)
        status = "same" if not differences else f"{len(differences)} difference(s)"
        print(f"{slug} @ {getattr(real, 'version', '?')}: {status}")
        for drift in differences:
            print(f"  {drift.where or '(top)'}: {drift.what}")
    versions = ", ".join(f"{k} {v}" for k, v in sorted(keys.composio_toolkit_versions.items()))
    print(f"{len(catalogue)} tools checked against Composio ({versions}): {drifts} difference(s).")
    return ExitCode.REGRESSION if drifts else ExitCode.PASS
