"""The GitHub side of the PR workflow: events, the PR's two halves, the verdict, status and comment.

    event    the pull_request payload: PR number, label, fork or not, SHAs; refuses the wrong one
    pr_head  the agent under test taken from the PR head; what the head would change in the definition
    pr_gate  the PR's verdict, recomputed by the base's definition from the trial records
    status   the required `agent-evals` commit status
    comment  the one sticky PR comment, found by its marker and edited in place
    label    removing `run-evals` once the evals ran
    continuation  `/evals continue`: the state an inconclusive run leaves, and who may continue it
    steps    the workflow's steps as functions (`evals github STEP` parses and calls one)

`evals github …` (evals/commands/github.py) runs each step. Nothing is re-exported here.
"""
