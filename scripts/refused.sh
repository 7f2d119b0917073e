#!/usr/bin/env bash
# Stage "refusal": answer a refused `/evals continue` on its PR with the reason the context step
# gave (`python -m evals github reply-refused`, through PyGithub: GITHUB_API_URL and GITHUB_TOKEN
# from the env). The PR number and the commenter come from the issue_comment payload
# ($GITHUB_EVENT_PATH); the reason from the environment, never from `${{ }}` inside `run:`.
# Inputs (env): EVALS_REFUSED, GITHUB_TOKEN.
set -euo pipefail
exec python -m evals github reply-refused --reason "${EVALS_REFUSED:?EVALS_REFUSED is required}"
