#!/usr/bin/env bash
# Before any step runs the agent's code (the PR's verdict job, the nightly's fan-in): install the
# confinement it runs in (evals/grade/confine/). bubblewrap, when missing, from apt; and on runners that
# restrict unprivileged user namespaces through AppArmor (Ubuntu 24.04) lift that restriction for
# this throwaway VM, so bubblewrap can make its namespaces. A failure here is a warning: the step
# that runs the code sets EVALS_CONFINE_MINIMUM and refuses to run it with less than that.
# Prints the mode the agent's code will run under. Inputs: none (root, or passwordless sudo).
set -uo pipefail
as_root() { if [[ "$(id -u)" == 0 ]]; then "$@"; else sudo -n "$@"; fi; }
if ! command -v bwrap >/dev/null 2>&1; then
  { as_root apt-get update -qq &&
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends bubblewrap; } ||
    echo "::warning title=Agent evals confinement::bubblewrap could not be installed; Landlock is the fallback"
fi
restrict=/proc/sys/kernel/apparmor_restrict_unprivileged_userns
if [[ -r "$restrict" && "$(cat "$restrict")" == 1 ]]; then
  as_root sysctl -q -w kernel.apparmor_restrict_unprivileged_userns=0 ||
    echo "::warning title=Agent evals confinement::unprivileged user namespaces stay restricted"
fi
python -c 'from evals.grade.confine.launch import chosen_mode; from evals.grade.confine.policy import GUARANTEES as G; m = chosen_mode(); print(f"agent code runs in confinement mode {m}: {G[m]}")'
