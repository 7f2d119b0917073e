#!/usr/bin/env bash
# Nightly fan-in: merge the shard run directories under SHARDS_DIR (one per downloaded artifact)
# into RUN_DIR, each trial exactly once (`python -m evals merge`), which also aggregates and reports
# the whole. A trial no shard delivered is counted as errored. Like the agent stage, it leaves the
# verdict (1, 4) to the compare stage. Inputs (env): RUN_DIR, SHARDS_DIR.
# The job summary and annotations are the compare stage's (EVALS_JOB_SUMMARY=0 here), so they appear once.
set -euo pipefail
shopt -s nullglob
shards=("${SHARDS_DIR:?SHARDS_DIR is required}"/*/)
if ((${#shards[@]} == 0)); then
  echo "::error::no shard results under $SHARDS_DIR" >&2
  exit 3
fi
rc=0
EVALS_JOB_SUMMARY=0 python -m evals merge --out "${RUN_DIR:?RUN_DIR is required}" "${shards[@]}" || rc=$?
case "$rc" in
  0 | 1 | 4) echo "Merged ${#shards[@]} shard(s) (verdict exit $rc; the compare stage gates)." ;;
  *) exit "$rc" ;;
esac
# `merge` wrote the merged run's viewer.html too, uploaded with the run and as the `evals-viewer` artifact.
