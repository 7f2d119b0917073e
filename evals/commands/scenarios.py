"""`scenarios`: list the scenarios with their tier, services, points, suites and the behaviour each adds;
`scenarios NAME` shows one scenario's about.yaml (purpose, behaviour, tier, traps, limitations).

Each scenario's rubric is loaded for its points, so a listing also proves every scenario still loads;
a bad file exits 2 naming it, like any other command. `--names` prints bare names, one a line, for
scripts (the nightly's shard plan); `--suite S` narrows either form to one suite of `evals.yaml`.
`--markdown` prints the table as docs/scenarios.md holds it (a test keeps the two equal), with the
column saying whether one of the scenario's traps is where the obvious rule loses points.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from evals.commands.common import add_config
from evals.core.errors import ExitCode
from evals.core.project import load_project

HEADERS = ["scenario", "tier", "services", "points", "suites", "behaviour"]
MARKDOWN = ["scenario", "tier", "services", "points", "the behaviour it adds", "the obvious rule loses"]


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = sub.add_parser("scenarios", help="list the scenarios (tier, services, points, suites)")
    add_config(parser)
    parser.add_argument("--suite", help="only the scenarios of this suite (evals.yaml `suites:`)")
    parser.add_argument("--names", action="store_true", help="bare names, one a line (for scripts)")
    parser.add_argument("--markdown", action="store_true", help="the table as docs/scenarios.md holds it")
    parser.add_argument("name", nargs="?", help="show this scenario's purpose, behaviour, tier and traps")
    parser.set_defaults(handler=handle)


def handle(args: argparse.Namespace) -> ExitCode:
    from tabulate import tabulate

    from evals.core.errors import BadInputError
    from evals.grade.rubric import load_rubric
    from evals.scenario.about import load_about
    from evals.scenario.load import list_scenarios, load_scenario

    config, project = load_project(args.config)
    folder = project / config.scenarios_dir
    names = list_scenarios(folder)
    if args.suite is not None:
        if args.suite not in config.suites:
            known = ", ".join(sorted(config.suites)) or "none"
            raise BadInputError(f"--suite: no suite {args.suite!r} in evals.yaml (known: {known})")
        names = [n for n in names if n in config.suites[args.suite]]
    if args.name is not None:
        return show(folder, args.name)
    if args.names:
        print("\n".join(names))
        return ExitCode.PASS
    rows = []
    for name in names:
        scenario = load_scenario(folder, name)
        points = load_rubric(folder / name).max_points
        suites = ",".join(s for s, members in config.suites.items() if name in members) or "-"
        services = ",".join(scenario.used_services()) or "-"
        about = load_about(folder / name)
        behaviour = about.behaviour if about else scenario.title
        loses = "yes" if about and any(t.obvious_rule_loses for t in about.traps) else "no"
        rows.append([name, scenario.task_tier(), services, points, suites, behaviour, loses])
    rows.sort(key=lambda r: (str(r[1]), str(r[0])))
    if args.markdown:
        print(markdown(rows))
        return ExitCode.PASS
    print(tabulate([r[:6] for r in rows], headers=HEADERS))
    return ExitCode.PASS


def markdown(rows: list[list[object]]) -> str:
    """The rows as docs/scenarios.md's table: compact cells (a diff shows the change, not padding)."""
    lines = ["| " + " | ".join(MARKDOWN) + " |", "|" + "---|" * len(MARKDOWN)]
    for name, tier, services, points, _, behaviour, loses in rows:
        cells = [f"`{name}`", tier, str(services).replace(",", ", "), points, behaviour, loses]
        lines.append("| " + " | ".join(str(c).replace("|", "\\|") for c in cells) + " |")
    return "\n".join(lines)


def show(folder: Path, name: str) -> ExitCode:
    """One scenario's about.yaml, as a person reads it."""
    from evals.scenario.about import load_about
    from evals.scenario.load import load_scenario

    scenario = load_scenario(folder, name)
    about = load_about(folder / name)
    print(f"{name}: {scenario.title} ({scenario.task_tier()}, {', '.join(scenario.used_services()) or '-'})")
    if about is None:
        print(f"  no {folder / name / 'about.yaml'}: nothing recorded about its purpose and traps")
        return ExitCode.PASS
    print(f"  purpose: {about.purpose}\n  behaviour: {about.behaviour}\n  tier: {about.tier_why}")
    for trap in about.traps:
        loses = " (the obvious rule loses here)" if trap.obvious_rule_loses else ""
        print(f"  trap{loses}: {trap.trap}\n    source of truth: {trap.source_of_truth}")
    for limit in about.limitations:
        print(f"  limitation: {limit}")
    return ExitCode.PASS
