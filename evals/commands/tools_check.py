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
    from evals.world.backend import tool_catalogue
    from evals.world.live.composio_api import make_sdk, raw_tools
    from evals.world.live.config import ComposioKeys, load_stage_config
    from evals.world.live.schema_diff import diff, states_null

    catalogue = tool_catalogue()
    keys = load_stage_config(ComposioKeys)
    found = raw_tools(make_sdk(keys), sorted(catalogue))
    drifts = 0
    for slug, tool in sorted(catalogue.items()):
        real = found[slug]
        served = dict(real.input_parameters or {})
        differences = diff(slug, served, tool.schema()["input_schema"], states_null(served))
        drifts += len(differences)
        status = "same" if not differences else f"{len(differences)} difference(s)"
        print(f"{slug} @ {getattr(real, 'version', '?')}: {status}")
        for drift in differences:
            print(f"  {drift.where or '(top)'}: {drift.what}")
    versions = ", ".join(f"{k} {v}" for k, v in sorted(keys.composio_toolkit_versions.items()))
    print(f"{len(catalogue)} tools checked against Composio ({versions}): {drifts} difference(s).")
    if args.outputs:
        drifts += outputs(args.config, Path(args.fixture), keys.composio_toolkit_versions)
    return ExitCode.NOT_COMPARABLE if drifts else ExitCode.PASS


def outputs(config_file: Path | None, fixture: Path, versions: dict[str, str]) -> int:
    """Print what the live tools return that differs from the sandbox; the number of differences."""
    from evals.core.project import load_project
    from evals.world.live.output_check import check_outputs

    config, root = load_project(config_file)
    check = check_outputs(root / config.scenarios_dir, root / fixture, versions)
    for slug, gaps in sorted(check.gaps.items()):
        print(f"{slug} (result): {len(gaps)} difference(s)")
        for gap in gaps:
            print(f"  {gap}")
    if check.stopped:
        print(f"The live tour stopped: {check.stopped}")
    found = sum(len(g) for g in check.gaps.values()) + (1 if check.stopped else 0)
    print(
        f"Results of {len(check.observed)} tools compared: {found} difference(s); seen live: {root / fixture}"
    )
    return found
