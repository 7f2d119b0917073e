#!/usr/bin/env bash
# PR only: the agent under test comes from the PR head; everything that measures stays the base's.
# Replaces agent/ (and, for a `module:callable` EVALS_AGENT, that module) in this base checkout by
# the files checked out from the labelled head SHA into HEAD_DIR (default pr-head). The head's
# evals/, scenario/, baseline/, evals.yaml and scripts/ are never used here (`python -m evals github take-agent`).
# Inputs (env): HEAD_DIR, EVALS_AGENT (optional; default: the config's agent).
set -euo pipefail
exec python -m evals github take-agent --head "${HEAD_DIR:-pr-head}"
