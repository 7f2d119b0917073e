#!/usr/bin/env bash
# Stage "comment": post or update the one sticky PR comment holding RUN_DIR's report
# (`python -m evals github comment`, through PyGithub: GITHUB_API_URL and GITHUB_TOKEN from the env).
# Ours is the comment with the report's marker, this repository's key and the expected author
# (EVALS_COMMENT_AUTHOR: a GitHub App's `<slug>[bot]`, default github-actions[bot]). No report.md
# (the verdict job did not finish) posts that the verdict is an error.
# Inputs (env): RUN_DIR, PR_NUMBER, GITHUB_REPOSITORY (set by the runner), EVALS_COMMENT_AUTHOR,
# EVALS_COMMENT_KEY (optional secret mixed into the key), EVALS_JOB_RESULT (needs.evals.result: anything
# but success posts `error`, whatever report exists).
set -euo pipefail
exec python -m evals github comment --run "${RUN_DIR:?RUN_DIR is required}" --missing-is-error \
  --repo "${GITHUB_REPOSITORY:?GITHUB_REPOSITORY is required}" --pr "${PR_NUMBER:?PR_NUMBER is required}"
