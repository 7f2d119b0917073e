#!/usr/bin/env bash
# Nightly canary job: run the planted regression (canary/canary.yaml) against the current baseline
# into CANARY_DIR (`python -m evals baseline canary --out`), a few trials, the PR gate's rule. Offline
# (no ANTHROPIC_API_KEY) it plays the canary's wrong replays; with the key, the degraded agent in
# canary/agent/. The fan-in records the uploaded run (scripts/operating.sh); the line this job
# writes into its own checkout is thrown away with it.
# Inputs (env): CANARY_DIR, EVALS_WORLD (optional), ANTHROPIC_API_KEY (live only).
set -euo pipefail
args=(baseline canary --out "${CANARY_DIR:?CANARY_DIR is required}")
if [[ -n "${EVALS_WORLD:-}" ]]; then args+=(--world "$EVALS_WORLD"); fi
python -m evals "${args[@]}"
