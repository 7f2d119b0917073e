#!/usr/bin/env bash
# Stage "bless": make a finished run a baseline (`python -m evals baseline bless`, atomic write).
# Default target is the config's baseline (baseline/baseline.json); the nightly writes a candidate
# to BASELINE_OUT instead, and a person blesses it by committing it (docs/github.md, "4. Blessing a
# new baseline").
# The candidate is blessed with --force on purpose (BLESS_FORCE=1): whatever the night's verdict,
# a person reviews the candidate before committing it, and the job summary says which verdict it carries.
# Inputs (env): RUN_DIR, BASELINE_OUT (optional target file), BLESS_FORCE (optional, 1 = --force).
set -euo pipefail
args=(baseline bless --run "${RUN_DIR:?RUN_DIR is required}")
if [[ -n "${BASELINE_OUT:-}" ]]; then args+=(--baseline "$BASELINE_OUT"); fi
if [[ "${BLESS_FORCE:-}" == 1 ]]; then args+=(--force); fi
said="$(python -m evals "${args[@]}")"
echo "$said"
if [[ -n "${GITHUB_STEP_SUMMARY:-}" ]]; then
  verdict="$(python -c 'import json,sys; print(json.load(open(sys.argv[1]))["verdict"])' "$RUN_DIR/summary.json")"
  {
    echo "### Candidate baseline: carries the verdict **${verdict}**"
    echo
    echo "${said}" | sed 's/^/    /'
    echo
    if [[ "$verdict" != pass ]]; then
      echo "Blessed with --force for review: do not commit it without reading the report."
    fi
  } >> "$GITHUB_STEP_SUMMARY"
fi
