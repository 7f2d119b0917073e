"""Writing and checking scenarios: the tools a scenario's author uses, never the gate itself.

    scaffold        `evals new-scenario`: the smallest scenario folder that loads
    check           `evals check-scenario`: reference at full marks, each wrong replay loses its parts
    sweep           `check-scenario --sweep`: references at every trial and drawn instance; its lints
    replay_sandbox  one replay played in a fresh sandbox world, for `check` and `calibrate`
    calibrate       `evals calibrate`: how often the model judge agrees with the human labels
    judge_agreement  `evals judge agreement`: per-criterion agreement with intervals, recorded for drift
    init            `evals init`: adopt the gate in an existing repository, from the shipped starter
    provenance      where the package comes from (repository and commit), which `init` pins to

Nothing is re-exported here.
"""
