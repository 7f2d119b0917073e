#!/usr/bin/env bash
# Stage "comment": post or update the one sticky PR comment holding RUN_DIR's report
# (`python -m evals github comment`, through PyGithub: GITHUB_API_URL and GITHUB_TOKEN from the env).
# Inputs (env): RUN_DIR, PR_NUMBER, GITHUB_REPOSITORY (set by the runner).
set -euo pipefail
exec python -m evals github comment --run "${RUN_DIR:?RUN_DIR is required}" \
  --repo "${GITHUB_REPOSITORY:?GITHUB_REPOSITORY is required}" --pr "${PR_NUMBER:?PR_NUMBER is required}"
