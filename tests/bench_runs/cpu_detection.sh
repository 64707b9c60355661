#!/usr/bin/env bash
# CI's proof that compare sees a planted slowdown and nothing else: runs a few single-threaded CPU
# rows four times, each a separate process, alternating a plain run and one with a 10% slowdown
# planted on some of the rows (--handoff-plant-slowdown), merges each side's two passes (so that
# the spread between runs is part of each side's noise, as in ci/nightly), and checks with
# detection_check.py that every planted row reads SLOWER and no other row moves.
# Usage: cpu_detection.sh HANDOFF_BENCH PYTHON REPORTS_DIR
set -euo pipefail
bench="$1" python="$2"
export PYTHONPATH="$3${PYTHONPATH:+:$PYTHONPATH}"
here="$(cd "$(dirname "$0")" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

planted='^postproc_split/cpu_serial/elements:1048576/|^pool_prep/cpu_serial/chunks:10/elements:65536/'
controls='^independent_tasks/cpu_serial/datasets:100/elements:10000/|^elementwise/cpu_serial/workload:vector_add/elements:65536/'
settings=(--benchmark_filter="$planted|$controls" --handoff-timeout=2 --handoff-min-time=0.2)
run() {  # NAME [FLAGS...]
  local name="$1"
  shift
  "$bench" "${settings[@]}" --benchmark_out="$work/$name.json" "$@" >"$work/$name.log" 2>&1 || {
    cat "$work/$name.log"
    exit 1
  }
}
for pass in 1 2; do
  run "a$pass"
  run "b$pass" --handoff-plant-slowdown="10:$planted"
done
"$python" -m handoff_reports merge "$work/a1.json" "$work/a2.json" -o "$work/a.json"
"$python" -m handoff_reports merge "$work/b1.json" "$work/b2.json" -o "$work/b.json"
"$python" "$here/detection_check.py" "$work/a.json" "$work/b.json" --planted "$planted" --power 1
