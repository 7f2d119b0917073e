"""One module per command. Each exposes `register(subparsers)`, which adds its parser and sets
`handler` to a function `(args) -> ExitCode`. Adding a command is adding a module to `COMMANDS`.

    run             run the agent k times per scenario, grade, compare, report
    grade           re-grade a stored run from its saved outcomes
    compare         a stored run against a baseline: summary and report again
    merge           shard run directories into one run
    baseline        bless a run, record a nightly, the A/A check and the canary
    labels          label stubs for the judged parts a run left unscored
    calibrate       judge–label agreement per judged part
    judge           the judge against the labelled set: agreement with intervals, drift alarm
    view            write a run's viewer.html
    trend           the nightly trend as Mermaid charts
    scenarios       list the scenarios
    check_scenario  validate a scenario folder and grade its replays
    new_scenario    scaffold a scenario folder
    init            adopt the gate in another repository
    seed_inbox      deliver a scenario's emails to the live inbox
    janitor         find and remove what live trials left behind
    tools_check     the sandbox's tools against Composio's
    simulate        how the configured gate behaves on simulated scores
    bench           the speed of this checkout (bench/)
    github          the PR workflow's steps
    common          what every command's parser shares
"""

from evals.commands import (
    baseline,
    bench,
    calibrate,
    check_scenario,
    compare,
    github,
    grade,
    init,
    janitor,
    judge,
    labels,
    merge,
    new_scenario,
    run,
    scenarios,
    seed_inbox,
    simulate,
    tools_check,
    trend,
    view,
)

COMMANDS = [
    run,
    grade,
    compare,
    baseline,
    labels,
    scenarios,
    check_scenario,
    new_scenario,
    merge,
    seed_inbox,
    janitor,
    simulate,
    bench,
    github,
    calibrate,
    judge,
    tools_check,
    view,
    trend,
    init,
]

__all__ = ["COMMANDS"]
