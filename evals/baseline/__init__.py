"""The baseline over time: blessing a run, the nightly history and its trend, the gate measured.

    bless    a finished run made the baseline, refusing runs that would make a misleading one
    history  baseline/history.jsonl: one line per nightly run
    trend    the last nights as Mermaid charts, with a drift notice
    aa       the nightly A/A check: the night's trials split in two and gated against each other
    canary   a planted regression kept in the repository, so the gate's detection is measured

The baseline's file format itself is the gate's (evals/gate/baseline_file.py): the gate reads it.
Nothing is re-exported here.
"""
