#!/usr/bin/env bash
# Re-bless the committed baseline from the offline replays after an intended change to the eval
# definition: trial-run with 4 reference trials, Nightshift with 6 trials (the three published runs),
# and every other scenario of the full suite (what the nightly gates) from one full run. Scores must not move; review the
# diff of baseline/baseline.json before committing it. The new baseline starts from nothing: the
# offline replays are the same every time, so continuing the old baseline's guard history would
# only count the same trials again (the old file is put back if a bless fails).
set -euo pipefail
cd "$(dirname "$0")/.."
EVALS=${EVALS:-.venv/bin/python -m evals}
out=$(mktemp -d)
$EVALS run --scenario trial-run --trials 4 --out "$out/t" >/dev/null 2>&1 || true
$EVALS run --scenario nightshift --trials 6 --out "$out/n" >/dev/null 2>&1 || true
$EVALS run --suite full --out "$out/s" >/dev/null 2>&1 || true
mv baseline/baseline.json "$out/previous.json"
trap '[ -f baseline/baseline.json ] || mv "$out/previous.json" baseline/baseline.json' ERR
$EVALS baseline bless --run "$out/t" --scenario trial-run --force
$EVALS baseline bless --run "$out/n" --scenario nightshift --force
for task in $($EVALS scenarios --suite full --names); do
  case "$task" in trial-run|nightshift) ;; *) $EVALS baseline bless --run "$out/s" --scenario "$task" --force ;; esac
done
rm -rf "$out"
