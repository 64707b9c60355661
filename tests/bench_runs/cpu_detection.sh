#!/usr/bin/env bash
# CI's proof that compare sees a planted slowdown and nothing else: runs a few single-threaded CPU
# rows in one process with a slowdown planted on one of them, alternating with plain runs of the
# same row, then compares the plain runs with the planted ones pair by pair (compare --paired,
# through detection_check.py --alternating): the planted row must read SLOWER and no other row may
# move (at a 5% threshold for passes, at compare's own 3% for samples). On a shared 2-core machine
# every row's speed wanders by tens of percent for seconds at a time, all rows alike; runs close
# together share that speed, so it cancels in each pair's ratio, where comparing separate runs
# would see it as a difference. Two designs:
#   passes   10% planted in every even pass of 40 (--handoff-plant-alternate=passes): a plain and
#            a planted pass are a second apart;
#   samples  5% planted in every second sample of 9 passes (--handoff-plant-alternate=samples):
#            milliseconds apart, and every other row compares its two halves, an A/A check.
# The planted row is the one-thread sum; the others serve as the controls. Labelled timing, so
# the sanitizer builds leave it out: their instrumentation is noise of its own, enough under ASan
# to hide the planted slowdown of the passes design.
# Usage: cpu_detection.sh HANDOFF_BENCH PYTHON REPORTS_DIR passes|samples
set -euo pipefail
bench="$1" python="$2" design="${4:-}"
export PYTHONPATH="$3${PYTHONPATH:+:$PYTHONPATH}"
here="$(cd "$(dirname "$0")" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

planted='^postproc_split/cpu_serial/elements:1048576/'
controls='^pool_prep/cpu_serial/chunks:10/elements:65536/|^independent_tasks/cpu_serial/datasets:100/elements:10000/'
case "$design" in
  passes)
    plant=(--handoff-passes=40 --handoff-plant-slowdown="10:$planted" --handoff-plant-alternate=passes)
    threshold=0.05
    ;;
  samples)
    plant=(--handoff-passes=9 --handoff-plant-slowdown="5:$planted" --handoff-plant-alternate=samples)
    threshold=0.03
    ;;
  *)
    echo "cpu_detection.sh: the design is passes or samples, not '$design'" >&2
    exit 2
    ;;
esac
"$bench" --benchmark_filter="$planted|$controls" --handoff-timeout=0.15 --handoff-min-time=0.03 \
  "${plant[@]}" --benchmark_out="$work/run.json" >"$work/run.log" 2>&1 || {
  cat "$work/run.log"
  exit 1
}
"$python" "$here/detection_check.py" "$work/run.json" --alternating --planted "$planted" \
  --power 1 --threshold "$threshold"
