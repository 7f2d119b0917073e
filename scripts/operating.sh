#!/usr/bin/env bash
# Nightly fan-in, after the merge: the gate's own record (docs/gate.md, "Measured operating
# characteristics"). Appends RUN_DIR's A/A check (`python -m evals baseline aa`: half of the night's
# trials gated against the other half, no model call) and, when CANARY_DIR holds the canary job's
# run, that run's line (`python -m evals baseline canary --run`, its verdict recomputed from its
# records) to baseline/operating.jsonl, or OPERATING_OUT. Needs no secret. A line already recorded
# (a re-run job) is not added twice. The nightly uploads the file with the candidate baseline.
# Inputs (env): RUN_DIR, CANARY_DIR (optional), OPERATING_OUT (optional).
set -euo pipefail
out=()
if [[ -n "${OPERATING_OUT:-}" ]]; then out=(--operating "$OPERATING_OUT"); fi
python -m evals baseline aa --run "${RUN_DIR:?RUN_DIR is required}" "${out[@]}"
if [[ -n "${CANARY_DIR:-}" && -f "$CANARY_DIR/run.json" ]]; then
  python -m evals baseline canary --run "$CANARY_DIR" "${out[@]}"
elif [[ -n "${CANARY_DIR:-}" ]]; then
  echo "::warning title=Agent evals::no canary run in $CANARY_DIR: tonight's canary is not recorded"
fi
