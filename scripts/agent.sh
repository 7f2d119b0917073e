#!/usr/bin/env bash
# Stage "agent" (and seed): `python -m evals run` seeds a fresh world per trial, runs the agent k
# times, grades each trial as it finishes, and writes RUN_DIR (results.jsonl, trials/, summary.json,
# report.md). The verdict is the compare stage's to give, so a regression (1) or a not-comparable run
# (4) ends this step green; bad input (2) and infrastructure errors (3) end it red.
# Inputs (env): RUN_DIR (required), EVALS_SCENARIOS (space-separated), EVALS_TRIALS, EVALS_AGENT,
# EVALS_WORLD, EVALS_TRIAL_SLICE (I/N: only that slice of the trials, for nightly shards),
# EVALS_INSTANCE_SEED (draw parameterised tasks' instances from it; default: the fixed instance 0).
# The job summary and annotations are the compare stage's (EVALS_JOB_SUMMARY=0 here), so they appear once.
# In the workflows this step holds the model key, so the job sets EVALS_DEFER_EXECUTION=1: no check
# that executes the agent's code runs here (the verdict job and the nightly's merge run them).
# EVALS_CONTINUE_FROM (a /evals continue on a PR: the earlier workflow run whose run directory the
# job downloaded into RUN_DIR) continues that inconclusive run instead (`run --continue`: its own
# settings, its trials and sequential looks kept).
set -euo pipefail
if [[ -n "${EVALS_CONTINUE_FROM:-}" ]]; then
  args=(run --continue "${RUN_DIR:?RUN_DIR is required}")
else
  args=(run --out "${RUN_DIR:?RUN_DIR is required}")
  for name in ${EVALS_SCENARIOS:-}; do args+=(--scenario "$name"); done
  [[ -n "${EVALS_TRIALS:-}" ]] && args+=(--trials "$EVALS_TRIALS")
  [[ -n "${EVALS_AGENT:-}" ]] && args+=(--agent "$EVALS_AGENT")
  [[ -n "${EVALS_WORLD:-}" ]] && args+=(--world "$EVALS_WORLD")
  [[ -n "${EVALS_TRIAL_SLICE:-}" ]] && args+=(--trial-slice "$EVALS_TRIAL_SLICE")
  [[ -n "${EVALS_INSTANCE_SEED:-}" ]] && args+=(--instance-seed "$EVALS_INSTANCE_SEED")
fi
rc=0
EVALS_JOB_SUMMARY=0 python -m evals "${args[@]}" || rc=$?
case "$rc" in
  0 | 1 | 4) echo "Agent stage finished (run verdict exit $rc; the compare stage gates)." ;;
  *) exit "$rc" ;;
esac
