#!/usr/bin/env bash
# Every row pattern of the packaged claims matches a row handoff_bench lists for a machine of four
# GPUs: a claim that names rows by a scheme no run produces any more fails here, not as a silent
# "not measured" in a report.
# Usage: claims_name_listed_rows.sh HANDOFF_BENCH PYTHON REPORTS_DIR
set -euo pipefail
bench=$1 python=$2 reports=$3
listing=$(mktemp)
trap 'rm -f "$listing"' EXIT
"$bench" --benchmark_list_tests --handoff-list-as-gpus=4 >"$listing"
[[ -s $listing ]] || { echo "FAIL: $bench listed no rows" >&2; exit 1; }
PYTHONPATH="$reports" "$python" -m handoff_reports claims --listed "$listing"
