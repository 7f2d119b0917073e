"""The ground floor every stage stands on: nothing here knows about scenarios, worlds or grades.

    errors      the errors that end a command, each with its exit code (README "Exit codes")
    project     which project a command works on (the nearest evals.yaml), kept free of heavy imports
    config      evals.yaml as a typed `Config`: suites, trials, threshold, gate, judge, budgets
    model       `StrictModel` / `FrozenModel`: the one strict base of every typed file and wire format
    loading     YAML/JSON files into models, every failure a BadInputError naming file, line and field
    jsonio      canonical JSON, JSONL and atomic writes: how stages hand files to each other
    redact      keep known secret values out of every file, the console and the job summary
    untrusted   text an agent or a service wrote, made inert before it is shown
    suggest     "did you mean …?" for names a person types
    usage       `Usage`: the four token counters of a model call
    pricing     pricing.yaml: USD per million tokens, per model
    claude_models  what a Claude model refuses in a request, so a bad config fails before a run
    stamps      where a record came from and when: the checkout's commit and the UTC time

Nothing is re-exported here: import from the module that defines a name.
"""
