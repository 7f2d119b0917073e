"""The baseline over time: blessing a run, the nightly history and its trend.

    bless    a finished run made the baseline, refusing runs that would make a misleading one
    history  baseline/history.jsonl: one line per nightly run
    trend    the last nights as Mermaid charts, with a drift notice

The baseline's file format itself is the gate's (evals/gate/baseline_file.py): the gate reads it.
Nothing is re-exported here.
"""
