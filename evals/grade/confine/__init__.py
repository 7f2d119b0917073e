"""Agent-written code runs only here: one launcher, confined, measured from outside.

`launch.Confinement` starts a program over a scratch copy of a tree with no secret, no network, no
write access outside the copy and no view of the grader or the run directory, as far as the
machine allows (`policy` names the modes and what each guarantees); `measure` reads what the
grader trusts from /proc; `rpc.Worker` drives code inside step by step over a private channel with
per-call tokens (`worker.py` is its other end); `inside.py` is the last trusted code inside.
Every check that executes agent code (pytest runs, behaviour probes, any a scenario adds) goes
through here, so `EVALS_DEFER_EXECUTION` keeps all of them out of the job that holds the model key.
"""
