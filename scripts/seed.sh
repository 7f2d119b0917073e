#!/usr/bin/env bash
# Stage "seed". In the sandbox world (default) there is nothing to seed ahead of time: every trial
# seeds its own fresh world inside `python -m evals run` (scripts/agent.sh), so this stage only
# checks that each scenario in EVALS_SCENARIOS exists, failing a typo in seconds with exit 2. In the
# live world (EVALS_WORLD=live) it delivers the scenarios' emails to the agent's real inbox once
# (`python -m evals seed-inbox`; reruns skip what is already there); repos and Notion pages are
# still created per trial by `run`.
# Inputs (env): EVALS_SCENARIOS (space-separated; default: the config's suite), EVALS_WORLD.
set -euo pipefail
if [[ "${EVALS_WORLD:-sandbox}" == "live" ]]; then
  args=(seed-inbox)
  for name in ${EVALS_SCENARIOS:-}; do args+=(--scenario "$name"); done
  exec python -m evals "${args[@]}"
fi
known="$(python -m evals scenarios)"
echo "Scenarios in this repository: $(echo "$known" | tr '\n' ' ')"
for name in ${EVALS_SCENARIOS:-}; do
  if ! grep -qxF -- "$name" <<<"$known"; then
    echo "::error::unknown scenario: $name" >&2
    exit 2
  fi
done
echo "Sandbox world: each trial seeds its own in the agent stage."
