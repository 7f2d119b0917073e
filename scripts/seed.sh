#!/usr/bin/env bash
# Stage "seed". There is no separate seeding command: every trial seeds its own fresh world inside
# `python -m evals run` (scripts/agent.sh), because a sandbox world lives in that process and a live
# world must be fresh per trial. What can happen before anything is spent is checked here: each
# scenario named in EVALS_SCENARIOS (default: the config's suite) exists, so a typo fails in seconds
# with exit 2 instead of after the agent ran.
set -euo pipefail
known="$(python -m evals scenarios)"
echo "Scenarios in this repository: $(echo "$known" | tr '\n' ' ')"
for name in ${EVALS_SCENARIOS:-}; do
  if ! grep -qxF -- "$name" <<<"$known"; then
    echo "::error::unknown scenario: $name" >&2
    exit 2
  fi
done
echo "Seeding: a fresh ${EVALS_WORLD:-sandbox} world per trial, inside the agent stage."
