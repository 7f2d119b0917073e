#!/usr/bin/env bash
# Nightly plan: the shard matrix (scenario × trial slice) as JSON in $GITHUB_OUTPUT `matrix`, and
# the trial count every shard must share in `trials`. Inputs (env): EVALS_SCENARIOS (space-separated;
# blank: the `full` suite of evals.yaml), EVALS_TRIALS, EVALS_SLICES (slices per scenario).
set -euo pipefail
scenarios="${EVALS_SCENARIOS:-}"
[[ -z "${scenarios// /}" ]] && scenarios="$(python -m evals scenarios --suite full --names | tr '\n' ' ')"
EVALS_SCENARIOS="$scenarios" python - <<'PY' | tee -a "${GITHUB_OUTPUT:-/dev/null}"
import json, os, sys
from evals.core.errors import BadInputError
from evals.run.merge import shard_matrix
try:
    matrix = shard_matrix(os.environ["EVALS_SCENARIOS"].split(), os.environ["EVALS_TRIALS"], os.environ["EVALS_SLICES"])
except BadInputError as exc:
    print(f"error: {exc}", file=sys.stderr)
    sys.exit(2)
print("matrix=" + json.dumps(matrix, separators=(",", ":")))
print("trials=" + os.environ["EVALS_TRIALS"].strip())
PY
