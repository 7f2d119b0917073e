"""Agent-written code runs only here: one launcher, confined, measured from outside.

    launch   `Confinement`: the one launcher in front of every execution of agent-written code
    policy   the modes this machine allows, what each guarantees, and whether code may run here at all
    inside   the last trusted code inside: confine this process, then exec
    measure  what the grader reads about a confinement from /proc: facts the code cannot forge
    rpc      `Worker`: the grader's side, calls into modules inside, measured between calls
    worker   the other end, inside: one JSON line each way, on a private channel
    testrun  pytest over a tree the agent wrote, every configuration door closed

`launch.Confinement` starts a program over a scratch copy of a tree with no secret, no network, no
write access outside the copy and no view of the grader or the run directory, as far as the
machine allows (`policy` names the modes and what each guarantees); `measure` reads what the
grader trusts from /proc; `rpc.Worker` drives code inside step by step over a private channel with
per-call tokens (`worker.py` is its other end); `inside.py` is the last trusted code inside.
Every check that executes agent code (pytest runs, behaviour probes, any a scenario adds) goes
through here, so `EVALS_DEFER_EXECUTION` keeps all of them out of the job that holds the model key.
"""
