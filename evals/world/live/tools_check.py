"""`evals tools check`: the sandbox's tools against what Composio serves, as lines to print.

Two comparisons, each a report of lines and a count of differences: the input schemas at the
pinned toolkit versions (needs only COMPOSIO_API_KEY), and, with `--outputs`, what every tool
returns on a freshly seeded live world against the sandbox (needs every live key; output_check.py).
Kept beside the live clients they drive, so the command only parses its flags and prints.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from evals.world import fidelity
from evals.world.live.config import ComposioKeys


@dataclass
class ToolsReport:
    """What one comparison found: the lines to print and how many differences they name."""

    lines: list[str] = field(default_factory=list)
    differences: int = 0


def _against_table(report: ToolsReport, slug: str, drifted: bool) -> int:
    """Report a tool against the fidelity table (docs/tools.md): its known differences beside a
    drift, so a reader tells the known from the new; a tool the table lacks is one more difference."""
    known = fidelity.known(slug)
    if known is None:
        report.lines.append("  not in the fidelity table (evals/world/fidelity.py, docs/tools.md)")
        return 1
    if drifted:
        report.lines.append(f"  known differences: {known}")
    return 0


def composio_keys() -> ComposioKeys:
    """The Composio key, base URL and pinned toolkit versions from the environment."""
    from evals.world.live.config import load_stage_config

    return load_stage_config(ComposioKeys)


def check_schemas(keys: ComposioKeys) -> ToolsReport:
    """Every sandbox tool's input schema against Composio's at the pinned version, field by field."""
    from evals.world.backend import tool_catalogue
    from evals.world.live.composio_api import make_sdk, raw_tools
    from evals.world.live.schema_diff import diff, states_null

    catalogue = tool_catalogue()
    found = raw_tools(make_sdk(keys), sorted(catalogue))
    report = ToolsReport()
    for slug, tool in sorted(catalogue.items()):
        real = found[slug]
        served = dict(real.input_parameters or {})
        differences = diff(slug, served, tool.schema()["input_schema"], states_null(served))
        report.differences += len(differences)
        status = "same" if not differences else f"{len(differences)} difference(s)"
        report.lines.append(f"{slug} @ {getattr(real, 'version', '?')}: {status}")
        report.lines += [f"  {drift.where or '(top)'}: {drift.what}" for drift in differences]
        report.differences += _against_table(report, slug, bool(differences))
    versions = ", ".join(f"{k} {v}" for k, v in sorted(keys.composio_toolkit_versions.items()))
    report.lines.append(
        f"{len(catalogue)} tools checked against Composio ({versions}): {report.differences} difference(s)."
    )
    return report


def check_results(scenarios: Path, fixture: Path, versions: dict[str, str]) -> ToolsReport:
    """What the live tools return that differs from the sandbox; the live shapes seen go to `fixture`."""
    from evals.world.live.output_check import check_outputs

    check = check_outputs(scenarios, fixture, versions)
    report = ToolsReport()
    for slug, gaps in sorted(check.gaps.items()):
        report.lines.append(f"{slug} (result): {len(gaps)} difference(s)")
        report.lines += [f"  {gap}" for gap in gaps]
        report.differences += _against_table(report, slug, True)
    if check.stopped:
        report.lines.append(f"The live tour stopped: {check.stopped}")
    report.differences += sum(len(g) for g in check.gaps.values()) + (1 if check.stopped else 0)
    report.lines.append(
        f"Results of {len(check.observed)} tools compared: {report.differences} difference(s); "
        f"seen live: {fixture}"
    )
    return report
