#!/usr/bin/env bash
# Job summary: append the run's report.md to $GITHUB_STEP_SUMMARY (the same text as the PR comment),
# so the verdict and score table show on the workflow run's page. Inputs (env): RUN_DIR.
set -euo pipefail
report="${RUN_DIR:?RUN_DIR is required}/report.md"
if [[ ! -f "$report" ]]; then
  echo "::warning::no report at $report: the run did not get far enough to write one"
  exit 0
fi
cat "$report" >>"${GITHUB_STEP_SUMMARY:-/dev/stdout}"
