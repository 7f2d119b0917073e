#!/usr/bin/env bash
# Every eval job's first step after Python: install the harness. HARNESS, when set, is the pip
# requirement of a pinned release (a repository that adopted the gate with `evals init` passes
# "agent-evals-gate @ git+https://github.com/OWNER/agent-evals-gate@SHA" to the reusable workflow);
# unset, this checkout is the harness: its pinned runtime (requirements.txt), the `evals` package
# imported from the checkout itself.
# Inputs (env): HARNESS (optional).
set -euo pipefail
if [[ -n "${HARNESS:-}" ]]; then
  python -m pip install --disable-pip-version-check "$HARNESS"
else
  python -m pip install --disable-pip-version-check -r requirements.txt
fi
