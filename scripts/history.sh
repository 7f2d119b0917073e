#!/usr/bin/env bash
# Nightly history: append one line for RUN_DIR (totals and spread) to baseline/history.jsonl
# (`python -m evals baseline history`; a run already recorded is not added twice). The nightly
# uploads the file with the candidate baseline; it reaches the repository when a person blesses.
# Inputs (env): RUN_DIR, HISTORY_OUT (optional history file).
set -euo pipefail
args=(baseline history --run "${RUN_DIR:?RUN_DIR is required}")
[[ -n "${HISTORY_OUT:-}" ]] && args+=(--out "$HISTORY_OUT")
exec python -m evals "${args[@]}"
