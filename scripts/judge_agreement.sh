#!/usr/bin/env bash
# Nightly "judge" job: re-judge the frozen labelled sample (the labelled evidence the bundled replays
# produce) with the configured judge and append the measurement, with its drift alarms, to the
# judge record (`python -m evals judge agreement --record`; docs/judge.md, "Drift"). The judge cache
# is restored from the previous night first, so an unchanged judge (model, prompts, evidence) costs
# no call and a changed one is asked afresh. The job uploads the record; the fan-in reports with it
# and puts it beside the candidate baseline, where `baseline bless` reads it.
# Without ANTHROPIC_API_KEY nothing is measured and the step says "not measured", never a pass: the
# record keeps its last measurement, so a judge never measured or changed since stays refused.
# With a key but no labelled judged part (an adopting repository before its first label) the command
# says "not measured: ..." and exits 0: a notice, nothing recorded. Any other failure (a label file
# that does not read, every judge call failed) still fails the step.
# Inputs (env): ANTHROPIC_API_KEY (optional), EVALS_SCENARIOS (optional, space-separated; blank:
# the `full` suite, as the shards run it: `baseline bless` refuses a run whose judge prompts were not
# all in one measurement), JUDGE_RECORD (optional; default baseline/judge.jsonl).
set -euo pipefail
record="${JUDGE_RECORD:-baseline/judge.jsonl}"
summary() { if [[ -n "${GITHUB_STEP_SUMMARY:-}" ]]; then cat >> "$GITHUB_STEP_SUMMARY"; else cat > /dev/null; fi; }
if [[ -z "${ANTHROPIC_API_KEY:-}" ]]; then
  said="judge agreement not measured tonight: no ANTHROPIC_API_KEY (the record keeps its last measurement)"
  echo "::warning title=Agent evals::${said}"
  echo "⚖️ **The judge:** ${said}" | summary
  exit 0
fi
args=(judge agreement --record "$record")
scenarios="${EVALS_SCENARIOS:-}"
[[ -z "${scenarios// /}" ]] && scenarios="$(python -m evals scenarios --suite full --names | tr '\n' ' ')"
for scenario in $scenarios; do args+=(--scenario "$scenario"); done
rc=0
said="$(python -m evals "${args[@]}")" || rc=$?
echo "$said"
if ((rc != 0)); then
  echo "::error title=Agent evals::judge agreement not measured tonight (exit $rc): see the log"
  echo "⚖️ **The judge:** agreement **not measured** tonight (exit $rc); the record keeps its last measurement" | summary
  exit "$rc"
fi
if grep -q "^not measured: " <<<"$said"; then # no labelled judged part: a notice, not a failure, never a pass
  why="$(grep -m1 "^not measured: " <<<"$said")"
  why="${why#not measured: }"
  echo "::warning title=Agent evals::judge agreement not measured tonight: ${why}"
  echo "⚖️ **The judge:** agreement with people **not measured** tonight: ${why}" | summary
  exit 0
fi
{
  echo "### The judge against people (tonight's measurement)"
  echo
  echo "$said"
} | summary
if grep -q "^Recorded in .*: " <<<"$said"; then
  echo "::warning title=Agent evals::judge drift alarm: $(grep "^Recorded in" <<<"$said" | cut -d: -f2-)"
fi
