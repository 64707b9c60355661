#!/usr/bin/env bash
# A rebuild during a run replaces handoff_bench on disk (the linker writes a new file in its
# place): every worker the run starts afterwards must still start, from the program that is
# running. Runs a copy of handoff_bench on cold host rows, which start a worker for every sample,
# replaces the copy as a linker would as soon as it runs, checks that the running process now
# reports its file as deleted, and that the run still ends well with every row verified.
#   relinked_binary.sh HANDOFF_BENCH
set -euo pipefail
bench="$1"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cp "$bench" "$work/handoff_bench"
"$work/handoff_bench" --benchmark_filter='^tensor_transfer/(pipe|shm)/memory:host/bytes:(4096|65536)/start:cold' \
  --benchmark_out="$work/results.json" >"$work/run.log" 2>&1 &
pid=$!
cp "$bench" "$work/relinked"
mv -f "$work/relinked" "$work/handoff_bench"
running_from="$(readlink "/proc/$pid/exe" || true)"
status=0
wait "$pid" || status=$?
if [[ "$running_from" != *"(deleted)" ]]; then
  echo "FAIL: the run ended before its binary was replaced (it ran from '$running_from')" >&2
  exit 1
fi
if ((status != 0)); then
  tail -n 20 "$work/run.log" >&2
  echo "FAIL: the run exited $status after its binary was replaced" >&2
  exit 1
fi
python3 - "$work/results.json" <<'PY'
import json, sys
rows = [r for r in json.load(open(sys.argv[1]))["benchmarks"] if r.get("run_type") != "aggregate"]
cold = [r for r in rows if "/start:cold" in r["name"]]
bad = [r["name"] for r in cold if r.get("error_occurred") or r.get("wrong", 1) != 0]
if not cold or bad:
    sys.exit(f"FAIL: {len(cold)} cold rows, not verified: {bad}")
print(f"ok: {len(cold)} cold rows verified after the binary was replaced mid-run")
PY
