"""Behaviour probes: run the agent's code at a PR head in a subprocess and measure what it does.

Layer 1 reads source with `ast`; some questions are about behaviour ("does the buffer list grow?",
"is a connection made per batch?"), and an equivalent fix can look very different in source. A
probe answers those by running the code against stand-ins (a stub `redis`), in a child process so
the agent's code never runs inside the grader.
"""

from evals.grade.probes.runner import ProbeResult, run_probe

__all__ = ["ProbeResult", "run_probe"]
