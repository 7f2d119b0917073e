#!/usr/bin/env bash
# PR context: read the event payload ($GITHUB_EVENT_PATH) and write number, label, fork, head_sha,
# base_sha and repository to $GITHUB_OUTPUT for later steps (so no `${{ }}` is needed inside `run:`).
# Refuses (exit 2) an event whose label is not EVALS_LABEL, a PR from a fork, or a PR into a branch
# other than the default one: the job-level `if:` should already have kept those out; this is the
# second check.
set -euo pipefail
python -m evals github context --require-label "${EVALS_LABEL:-run-evals}" --refuse-fork --require-default-base | tee -a "${GITHUB_OUTPUT:-/dev/null}"
