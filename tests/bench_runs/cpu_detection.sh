#!/usr/bin/env bash
# CI's proof that compare sees a planted slowdown and nothing else: runs a few single-threaded CPU
# rows twice, as separate processes, the second time with a 10% slowdown planted on some of them
# (--handoff-plant-slowdown), and checks with detection_check.py that every planted row reads
# SLOWER and no other row moves. Usage: cpu_detection.sh HANDOFF_BENCH PYTHON REPORTS_DIR
set -euo pipefail
bench="$1" python="$2"
export PYTHONPATH="$3${PYTHONPATH:+:$PYTHONPATH}"
here="$(cd "$(dirname "$0")" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

planted='^elementwise/cpu_serial/workload:vector_add/elements:65536/|^independent_tasks/cpu_serial/datasets:100/elements:10000/'
controls='^postproc_split/cpu_serial/elements:1048576/|^pool_prep/cpu_serial/chunks:10/elements:(65536|1048576)/'
settings=(--benchmark_filter="$planted|$controls" --handoff-timeout=2 --handoff-min-time=0.2)
"$bench" "${settings[@]}" --benchmark_out="$work/a.json" >"$work/a.log" 2>&1 || {
  cat "$work/a.log"
  exit 1
}
"$bench" "${settings[@]}" --handoff-plant-slowdown="10:$planted" --benchmark_out="$work/b.json" \
  >"$work/b.log" 2>&1 || {
  cat "$work/b.log"
  exit 1
}
"$python" "$here/detection_check.py" "$work/a.json" "$work/b.json" --planted "$planted" --power 1
