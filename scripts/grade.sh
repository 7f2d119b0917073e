#!/usr/bin/env bash
# Stage "grade": re-grade a stored run from its saved outcomes without re-running the agent
# (`python -m evals grade`). `run` already grades each trial as it finishes; this stage is for
# reruns, e.g. on a downloaded run artifact after a judge prompt or label changed. As in the agent
# stage, the verdict (1, 4) is left to the compare stage. Inputs (env): RUN_DIR.
# The job summary and annotations are the compare stage's (EVALS_JOB_SUMMARY=0 here), so they appear once.
set -euo pipefail
rc=0
EVALS_JOB_SUMMARY=0 python -m evals grade --run "${RUN_DIR:?RUN_DIR is required}" || rc=$?
case "$rc" in
  0 | 1 | 4) echo "Grade stage finished (verdict exit $rc; the compare stage gates)." ;;
  *) exit "$rc" ;;
esac
