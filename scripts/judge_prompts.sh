#!/usr/bin/env bash
# PR "judge prompts" step: a PR that edits a judge prompt changes the ruler (graded with the base's
# prompts, its edits wait for the merge), so the report says what agreement the *edited* prompts
# have with people: `evals judge agreement --prompts-from HEAD_DIR` re-judges, with the head's text,
# only the labelled parts those prompts judge (docs/judge.md, "Can I trust it?"). The head is read as
# data (no code of it runs); this step runs before the agent under test is taken from the head, and
# its record is uploaded at once, so nothing of the PR touches it.
# The record (PR_JUDGE_RECORD) starts as a copy of baseline/judge.jsonl, and the PR's measurement is
# appended with the project's newest one nested; the verdict job reads it in place of the base's.
# No edited prompt: nothing measured, no record. Without ANTHROPIC_API_KEY: no record, and the
# report's line says the edited prompts are "not measured". A failure here is a warning: the step
# never decides the PR's verdict (the workflow marks it continue-on-error; the line says "not measured").
# Inputs (env): ANTHROPIC_API_KEY (optional), HEAD_DIR (default pr-head), EVALS_SCENARIOS (optional,
# space-separated; blank: the suite), PR_JUDGE_RECORD (default pr-judge/judge.jsonl).
# Output (GITHUB_OUTPUT): measured=true when a record of the PR's prompts was written.
set -euo pipefail
head="${HEAD_DIR:-pr-head}"
record="${PR_JUDGE_RECORD:-pr-judge/judge.jsonl}"
if [[ -z "${ANTHROPIC_API_KEY:-}" ]]; then
  echo "::notice title=Agent evals::judge prompts a PR edits are not measured: no ANTHROPIC_API_KEY"
  exit 0
fi
work="$(mktemp -d)"
[[ -f baseline/judge.jsonl ]] && cp baseline/judge.jsonl "$work/judge.jsonl"
args=(judge agreement --prompts-from "$head" --record "$work/judge.jsonl")
for scenario in ${EVALS_SCENARIOS:-}; do args+=(--scenario "$scenario"); done
said="$(python -m evals "${args[@]}")"
echo "$said"
if grep -q "^Recorded in " <<<"$said"; then
  mkdir -p "$(dirname "$record")"
  cp "$work/judge.jsonl" "$record"
  echo "measured=true" >> "${GITHUB_OUTPUT:-/dev/null}"
fi
