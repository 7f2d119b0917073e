"""Behaviour probes: run the agent's code at a PR head in the confinement and measure what it does.

    runner  `ProbeRequest(...).run() -> ProbeResult`: the steps, the grader's readings, a result cache

Layer 1 reads source with `ast`; some questions are about behaviour ("does the buffer list grow?",
"is a connection made per batch?"), and an equivalent fix can look very different in source. A
scenario answers those with a probe module and stand-ins for the services its code reaches (stub
packages), both in its own folder; this package only runs them: step by step in the confinement
(evals/grade/confine/), so the agent's code never runs inside the grader, with the grader's own
/proc readings of the confinement beside what each step reports.
"""
