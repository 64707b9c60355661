#!/usr/bin/env bash
# CI's proof that compare sees a planted slowdown and nothing else: runs a few single-threaded CPU
# rows in one process of 40 passes, with a 10% slowdown planted on one of them in every even pass
# only (--handoff-plant-slowdown with --handoff-plant-alternate), then compares the odd passes with
# the even ones pair by pair (compare --paired, through detection_check.py --alternating) at a 5%
# threshold: the planted row must read SLOWER and no other row may move. On a shared 2-core
# machine every row's speed wanders by tens of percent for seconds at a time, all rows alike;
# passes a second apart share that speed, so it cancels in each pair's ratio, where comparing
# separate runs would see it as a difference. The planted row is the one-thread sum; the others
# serve as the controls. Labelled timing, so the sanitizer builds leave it out: their
# instrumentation is noise of its own (under ASan the planted +9.3% read SAME).
# Usage: cpu_detection.sh HANDOFF_BENCH PYTHON REPORTS_DIR
set -euo pipefail
bench="$1" python="$2"
export PYTHONPATH="$3${PYTHONPATH:+:$PYTHONPATH}"
here="$(cd "$(dirname "$0")" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

planted='^postproc_split/cpu_serial/elements:1048576/'
controls='^pool_prep/cpu_serial/chunks:10/elements:65536/|^independent_tasks/cpu_serial/datasets:100/elements:10000/'
"$bench" --benchmark_filter="$planted|$controls" --handoff-timeout=0.15 --handoff-min-time=0.03 \
  --handoff-passes=40 --handoff-plant-slowdown="10:$planted" --handoff-plant-alternate \
  --benchmark_out="$work/run.json" >"$work/run.log" 2>&1 || {
  cat "$work/run.log"
  exit 1
}
"$python" "$here/detection_check.py" "$work/run.json" --alternating --planted "$planted" \
  --power 1 --threshold 0.05
