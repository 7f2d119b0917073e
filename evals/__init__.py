"""A regression gate for Claude agents that work across Gmail, GitHub and Notion.

The package is the pipeline, one stage package each, listed in the order a run goes through them;
each imports only from the stages before it (tests/test_architecture.py holds that):

    core/        the ground floor: errors, config, strict models, JSON, stamps
    scenario/    a task folder loaded and validated: personas, mail, pages, repository, prompts
    world/       a fresh world per trial (simulated or live), its tool contract, the outcome
    agents/      the agent under test: the Claude loop, replays, `module:callable`
    grade/       checks on the outcome, then a judge; the confinement agent code runs in
    records/     a run's files as types, and the one reader and writer of them
    gate/        trial records to a verdict: statistics, the baseline's format, fingerprints
    definition   the eval definition: what measures, as opposed to the agent measured
    report/      what people read: report.md, the job summary, the run viewer
    run/         a run from start to verdict: plan, trials, adaptive extras, budget, regrade
    baseline/    the baseline over time: bless, nightly history, trend, A/A and canary
    authoring/   writing and checking tasks: scaffold, check, calibrate, `evals init`
    github/      the PR workflow's GitHub side: event, head, verdict, status, comment
    commands/    one module per command: parse the arguments and call the stage
    cli          `evals COMMAND`: the parser over every command

docs/layout.md says what each holds, and README "Where does it go?" where a new check, tool, scenario,
report section or command goes.
"""

__version__ = "0.1.0"
