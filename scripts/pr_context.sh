#!/usr/bin/env bash
# PR context: read the event payload ($GITHUB_EVENT_PATH) and write number, label, fork, head_sha,
# base_sha and repository (for a `/evals continue`: the run to continue, or why it was refused) to
# $GITHUB_OUTPUT for later steps (so no `${{ }}` is needed inside `run:`); the command writes the file
# itself and prints the same lines. Not through `| tee -a $GITHUB_OUTPUT`: the `::error` line of a
# refusal would be appended by a second writer racing the command's own, and could glue itself to
# the `refused=` line so the output goes missing.
# Refuses (exit 2) an event whose label is not EVALS_LABEL, a PR from a fork, or a PR into a branch
# other than the default one: the job-level `if:` should already have kept those out; this is the
# second check. For a `/evals continue` it also reads EVALS_COMMENT_AUTHOR and EVALS_COMMENT_KEY (which
# comment is ours) and GITHUB_WORKFLOW_REF (the run to continue must be a run of this workflow file).
set -euo pipefail
exec python -m evals github context --require-label "${EVALS_LABEL:-run-evals}" --refuse-fork --require-default-base
