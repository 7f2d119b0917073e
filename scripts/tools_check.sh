#!/usr/bin/env bash
# Nightly canary job, live world only: the sandbox's tools against Composio's schemas at the pinned
# versions, and the live answers of a scripted tour of every tool against the sandbox's
# (`python -m evals tools check --outputs`), each difference printed beside the tool's known ones
# from the fidelity table (docs/tools.md). The live result shapes seen are written into the run's
# folder, never into the repository. Exit 4 when anything differs (the step does not fail the job).
# Inputs (env): CANARY_DIR, COMPOSIO_API_KEY, GITHUB_TOKEN, NOTION_TOKEN and the live variables.
set -euo pipefail
python -m evals tools check --outputs --fixture "${CANARY_DIR:?CANARY_DIR is required}/tools-check-observed.json"
