#!/usr/bin/env bash
# PR only: remove the `run-evals` label once the evals ran (`python -m evals github unlabel`), so a
# later push is not evaluated until someone has looked at it and labels it again. A label already
# gone is not an error. Inputs (env): PR_NUMBER, EVALS_LABEL (default run-evals), GITHUB_TOKEN,
# GITHUB_REPOSITORY and GITHUB_API_URL (set by the runner).
set -euo pipefail
exec python -m evals github unlabel --pr "${PR_NUMBER:?PR_NUMBER is required}" --label "${EVALS_LABEL:-run-evals}"
