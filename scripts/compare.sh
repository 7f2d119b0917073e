#!/usr/bin/env bash
# Stage "compare": the gate. Compares RUN_DIR with the baseline (`python -m evals compare`), rewrites
# summary.json and report.md, and exits with the verdict's code: 0 pass, 1 regression,
# 3 infrastructure error, 4 not comparable. This is the step that turns the check red, and the one
# that writes the report to the job summary ($GITHUB_STEP_SUMMARY) with the verdict's annotations.
# Inputs (env): RUN_DIR, EVALS_BASELINE (optional baseline file).
# `compare` also writes RUN_DIR/viewer.html, which the workflow uploads as the `evals-viewer` artifact
# the report links to; a viewer that cannot be written is a warning, never another verdict. The
# nightly's trend (RUN_DIR/trend.md, scripts/history.sh) is in report.md too: `compare` puts it there.
set -euo pipefail
args=(compare --run "${RUN_DIR:?RUN_DIR is required}")
[[ -n "${EVALS_BASELINE:-}" ]] && args+=(--baseline "$EVALS_BASELINE")
exec python -m evals "${args[@]}"
