#!/usr/bin/env bash
# PR only, the gate: the verdict by the base's eval definition (this checkout: baseline, threshold,
# gate settings, rubric, checks) from the trials' records in RUN_DIR, never from the run's own
# summary.json/report.md. Layer 1 is computed again from every trial's stored outcome first
# (evals/run/recheck.py): the checks the evals job deferred run here, the agent's code only in the
# confinement (EVALS_CONFINE_MINIMUM refuses a weaker one), and a record that disagrees is `error`.
# Lists the definition files the head (HEAD_DIR, read as data) edits at the top of the report. A
# missing or unreadable run is `error`. Writes verdict, state, description and exit_code to
# $GITHUB_OUTPUT for the status, comment and final steps; this step itself exits 0 so the status is
# always posted (the publish job's last step fails with the verdict's exit code). The verdict also
# writes RUN_DIR/viewer.html, uploaded as the `evals-viewer` artifact the report links to; a viewer
# that cannot be written is a warning, never another verdict.
# Inputs (env): RUN_DIR, HEAD_DIR (default pr-head), EVALS_SCENARIOS (the scenarios the run must
# cover), EVALS_CONFINE_MINIMUM (the weakest confinement mode accepted).
set -euo pipefail
python -m evals github verdict --run "${RUN_DIR:?RUN_DIR is required}" --head "${HEAD_DIR:-pr-head}"
