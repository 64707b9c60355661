#!/usr/bin/env bash
# CI's proof that compare sees a planted slowdown and nothing else: runs a few single-threaded CPU
# rows six times, each a separate process, alternating a plain run and one with a 10% slowdown
# planted on one of them (--handoff-plant-slowdown), merges each side's three passes (so that the
# spread between runs is part of each side's noise, as in ci/nightly), and checks with
# detection_check.py, at a 5% threshold, that the planted row reads SLOWER and no other row moves.
# The planted row is the one-thread sum, which moves least between processes on a 2-core CI
# machine (about 5%); the others move by 10 to 20% there, so a 10% change on them is inside their
# between-run spread and is, rightly, not called: they serve as the controls.
# Usage: cpu_detection.sh HANDOFF_BENCH PYTHON REPORTS_DIR
set -euo pipefail
bench="$1" python="$2"
export PYTHONPATH="$3${PYTHONPATH:+:$PYTHONPATH}"
here="$(cd "$(dirname "$0")" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

planted='^postproc_split/cpu_serial/elements:1048576/'
controls='^pool_prep/cpu_serial/chunks:10/elements:(65536|1048576)/|^independent_tasks/cpu_serial/datasets:100/elements:10000/'
settings=(--benchmark_filter="$planted|$controls" --handoff-timeout=2 --handoff-min-time=0.2)
run() {  # NAME [FLAGS...]
  local name="$1"
  shift
  "$bench" "${settings[@]}" --benchmark_out="$work/$name.json" "$@" >"$work/$name.log" 2>&1 || {
    cat "$work/$name.log"
    exit 1
  }
}
# The first process on a quiet machine runs slow (cold caches, the sandbox waking up): it is run,
# and left out.
run warm-up
for pass in 1 2 3; do
  run "a$pass"
  run "b$pass" --handoff-plant-slowdown="10:$planted"
done
"$python" -m handoff_reports merge "$work"/a[123].json -o "$work/a.json"
"$python" -m handoff_reports merge "$work"/b[123].json -o "$work/b.json"
"$python" "$here/detection_check.py" "$work/a.json" "$work/b.json" --planted "$planted" --power 1 \
  --threshold 0.05
