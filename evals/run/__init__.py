"""A run from start to verdict.

    runner   `plan(...) -> Plan`, and `run_trial`: a fresh world, the agent, the grade, the record
    session  `start` and `resume`: the trials, the adaptive extras the gate asks for, the cost budget
    interrupt  Ctrl-C in a run: the trials in progress kept as interrupted, the resume command, no hang
    budget   what a run spent and will likely spend
    merge    nightly shards: which trials a shard runs, and shard directories into one run
    regrade  a stored run graded again from its outcomes, without the agent
    recheck  layer 1 again where no secret is: the verdict believes only what it can check
    finish   `reopen` a stored run with its eval definition; `finish`: summary.json, report.md, verdict

Nothing is re-exported here: import from the module that defines a name.
"""
