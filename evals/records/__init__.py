"""What a run leaves behind: its files as types, and the only code that reads or writes them.

    model     `RunMeta` (run.json: what was asked) and `TrialRecord` (one results.jsonl line: what one
              trial did and how it was graded)
    rundir    `RunDir`: every file of a run directory by name, read validated and written redacted
    trials    which trial indices a run plans: all of them, or one shard's slice
    validate  a run's records checked before any verdict is computed from them: fail closed

Nothing is re-exported here: import from the module that defines a name.
"""
