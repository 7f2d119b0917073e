"""Behaviour probes: run the agent's code at a PR head in a subprocess and measure what it does.

Layer 1 reads source with `ast`; some questions are about behaviour ("does the buffer list grow?",
"is a connection made per batch?"), and an equivalent fix can look very different in source. A
scenario answers those with a probe script and stand-ins for the services its code reaches (stub
packages), both in its own folder; this package only runs them, in a child process so the agent's
code never runs inside the grader.
"""
