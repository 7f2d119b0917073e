#!/usr/bin/env bash
# Live world only: remove the repos and Notion pages this run's trials created and did not clean
# up themselves (a job killed by its timeout or a cancel skips each trial's own `finally`). Runs
# `python -m evals janitor --run-id <run id> --yes`; the run id is RUN_DIR's name, which the workflows
# make unique per workflow run, so a concurrent run's resources are never touched. Sandbox: nothing.
# Inputs (env): RUN_DIR, EVALS_WORLD, and the live keys (docs/live.md).
set -euo pipefail
if [[ "${EVALS_WORLD:-sandbox}" != "live" ]]; then
  echo "Sandbox world: nothing to clean up."
  exit 0
fi
exec python -m evals janitor --run-id "$(basename "${RUN_DIR:?RUN_DIR is required}")" --yes
