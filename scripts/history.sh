#!/usr/bin/env bash
# Nightly history: append one line for RUN_DIR (totals, spread and category means) to
# baseline/history.jsonl (`python -m evals baseline history`; a run already recorded is not added
# twice), then draw the trend of the last 30 nights with any drift notice (`python -m evals trend`):
# into the job summary and RUN_DIR/trend.md (`--run`), which `compare` puts in report.md below the
# verdict. The nightly uploads the history with the candidate baseline; it reaches the repository when
# a person blesses.
# Inputs (env): RUN_DIR, HISTORY_OUT (optional history file).
set -euo pipefail
args=(baseline history --run "${RUN_DIR:?RUN_DIR is required}")
trend=(trend --run "$RUN_DIR")
if [[ -n "${HISTORY_OUT:-}" ]]; then
  args+=(--history "$HISTORY_OUT")
  trend+=(--history "$HISTORY_OUT")
fi
python -m evals "${args[@]}"
python -m evals "${trend[@]}" || echo "::warning title=Agent evals::the nightly trend could not be drawn"
