#!/usr/bin/env bash
# Stage "bless": make a finished run a baseline (`python -m evals baseline bless`, atomic write).
# Default target is the config's baseline (baseline/baseline.json); the nightly writes a candidate
# to BASELINE_OUT instead, and a person blesses it by committing it (README: "Blessing").
# Inputs (env): RUN_DIR, BASELINE_OUT (optional target file).
set -euo pipefail
args=(baseline bless --run "${RUN_DIR:?RUN_DIR is required}")
[[ -n "${BASELINE_OUT:-}" ]] && args+=(--out "$BASELINE_OUT")
exec python -m evals "${args[@]}"
