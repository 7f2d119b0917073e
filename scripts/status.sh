#!/usr/bin/env bash
# PR only: post the `agent-evals` commit status (the check to mark required in branch protection)
# on the labelled head SHA, through PyGithub (GITHUB_API_URL, GITHUB_TOKEN with statuses: write).
# Inputs (env): HEAD_SHA, STATUS_STATE (success | failure | error | pending), STATUS_DESCRIPTION,
# GITHUB_REPOSITORY (set by the runner).
set -euo pipefail
exec python -m evals github status --sha "${HEAD_SHA:?HEAD_SHA is required}" \
  --state "${STATUS_STATE:?STATUS_STATE is required}" --description "${STATUS_DESCRIPTION:-}"
