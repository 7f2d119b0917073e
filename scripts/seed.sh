#!/usr/bin/env bash
# Stage "seed". In the live world (EVALS_WORLD=live) this delivers the scenarios' emails to the
# agent's real inbox once (`python -m evals seed-inbox`; a rerun skips what is already there);
# repos and Notion pages are created fresh per trial by `run`. In the sandbox world (default) there
# is nothing to seed ahead of time: every trial seeds its own in-process world inside
# `python -m evals run` (scripts/agent.sh), which also validates every scenario before any trial.
# Inputs (env): EVALS_SCENARIOS (space-separated; default: the config's suite), EVALS_WORLD,
# EVALS_INSTANCE_SEED (the same instances the agent stage runs); live
# only: COMPOSIO_API_KEY and the mailbox keys (COMPOSIO_USER_ID, COMPOSIO_GMAIL_ACCOUNT,
# LIVE_AGENT_ADDRESS, LIVE_PERSONAS; COMPOSIO_BASE_URL, COMPOSIO_TOOLKIT_VERSIONS optional). It
# needs no GitHub or Notion token, and is given none.
set -euo pipefail
if [[ "${EVALS_WORLD:-sandbox}" != "live" ]]; then
  echo "Sandbox world: each trial seeds its own fresh world in the agent stage; nothing to seed here."
  exit 0
fi
args=(seed-inbox)
for name in ${EVALS_SCENARIOS:-}; do args+=(--scenario "$name"); done
[[ -n "${EVALS_INSTANCE_SEED:-}" ]] && args+=(--instance-seed "$EVALS_INSTANCE_SEED")
exec python -m evals "${args[@]}"
