#!/usr/bin/env bash
# Usage: tests/canned_variant/check.sh SOURCE_DIR WORK_DIR
#
# The proof that a new variant is one new file and one line of its pattern's variants.def. Copies
# the tree (the files git tracks, and those it does not ignore) into WORK_DIR, adds a canned
# variant to each pattern below (its own file, built from one of the pattern's variants under a
# new name, and HANDOFF_VARIANT(canned) at the end of variants.def), checks that nothing else
# changed, builds, and checks that:
#   - handoff_bench lists the variant's rows, as a machine with four GPUs would;
#   - a smoke run measures them here and verifies every one (wrong = 0);
#   - the pattern's conformance tests run for it and pass.
# multi_gpu's variants run on GPUs only: on a machine without one its canned rows must be listed
# (as four GPUs) and its conformance tests must exist and be skipped for that reason; the smoke run
# and the tests themselves need a GPU.
set -euo pipefail
if (($# != 2)); then
  echo "usage: tests/canned_variant/check.sh SOURCE_DIR WORK_DIR" >&2
  exit 2
fi
source_dir="$(cd "$1" && pwd)"
work="$2"
tree="$work/tree"
build="$work/build"

# pattern | folder of its variants | private header | namespace | row type | variant copied |
# member holding the table row (none: the row itself) | its conformance test program | where those
# run (cpu: anywhere; gpu: on a GPU only)
patterns=(
  "pool_prep|patterns/src/pool_prep|rows.hpp|handoff::patterns::pool_prep|row|cpu_pool|none|handoff_pool_prep_host_tests|cpu"
  "postproc_split|patterns/src/postproc_split|variant_rows.hpp|handoff::patterns::postproc_split|split_row|cpu_serial|none|handoff_postproc_split_host_tests|cpu"
  "independent_tasks|patterns/src/independent_tasks|variant_rows.hpp|handoff::patterns::independent_tasks|task_row|cpu_threads|none|handoff_independent_tasks_cpu_tests|cpu"
  "iterative|patterns/src/iterative|variant_rows.hpp|handoff::patterns::iterative|jacobi_row|cpu_serial|none|handoff_iterative_cpu_tests|cpu"
  "elementwise|patterns/src/elementwise/vector_add|vector_add_rows.hpp|handoff::patterns::elementwise|vector_add_row|cpu_threads|none|handoff_cpu_tests|cpu"
  "queued_worker|patterns/src/queued_worker|declared_variants.hpp|handoff::patterns::queued_worker|row|streamed|none|handoff_queued_worker_tests|cpu"
  "tensor_transfer|patterns/src/tensor_transfer|declared_variants.hpp|handoff::patterns|transfer_row|pipe|none|handoff_tensor_transfer_host_tests|cpu"
  "multi_gpu|patterns/src/multi_gpu|rows.hpp|handoff::patterns::multi_gpu|multi_gpu_row|kernel_only|none|handoff_multi_gpu_gpu_tests|gpu"
)

fail() {
  echo "canned_variant: FAILED: $*" >&2
  exit 1
}

if ! git -C "$source_dir" rev-parse --git-dir >/dev/null 2>&1; then
  echo "canned_variant: skipped: $source_dir is not a git checkout, so its files are not known"
  exit 77
fi
rm -rf "$work"
mkdir -p "$tree"
# Only the files that are there: a copy of a checkout whose git index is older than its files (as
# the GPU machine's copy can be) lists a file that was renamed since.
(cd "$source_dir" && git ls-files -co --exclude-standard | while IFS= read -r file; do
  if [[ -e $file || -L $file ]]; then printf '%s\n' "$file"; fi
done) | sort >"$work/files.txt"
tr '\n' '\0' <"$work/files.txt" | tar -C "$source_dir" --null -T - -cf - | tar -C "$tree" -xf -

canned_file() {  # HEADER NAMESPACE ROW_TYPE BASE MEMBER
  local header=$1 namespace=$2 row_type=$3 base=$4 member=$5 field="canned."
  [[ $member != none ]] && field="canned.$member."
  cat <<EOF
// A canned variant: $base's way under a new name.

#include "$header"

namespace $namespace {
namespace {

$row_type canned_row() {
  $row_type canned = ${base}_variant;
  ${field}name = "canned";
  ${field}description = "$base's way, added as one file and one line of variants.def";
  return canned;
}

}  // namespace

// Initialised before main, after the constant-initialised row it copies; tables are read once
// main has started.
const $row_type canned_variant = canned_row();

}  // namespace $namespace
EOF
}

targets=(handoff_bench)
for entry in "${patterns[@]}"; do
  IFS='|' read -r pattern folder header namespace row_type base member program _ <<<"$entry"
  [[ -f $tree/$folder/variants.def ]] || fail "$pattern has no $folder/variants.def"
  canned_file "$header" "$namespace" "$row_type" "$base" "$member" >"$tree/$folder/canned.cpp"
  echo "HANDOFF_VARIANT(canned)" >>"$tree/$folder/variants.def"
  targets+=("$program")
done

# Nothing else changed: one new file and one added line a pattern.
new_files=$(cd "$tree" && find . -type f | sed 's|^\./||' | sort | comm -13 "$work/files.txt" -)
changed_files=$(while read -r file; do
  cmp -s "$source_dir/$file" "$tree/$file" || echo "$file"
done <"$work/files.txt")
expected_new="" expected_changed=""
for entry in "${patterns[@]}"; do
  IFS='|' read -r _ folder _ <<<"$entry"
  expected_new+="$folder/canned.cpp"$'\n'
  expected_changed+="$folder/variants.def"$'\n'
done
[[ $new_files == "$(sort <<<"${expected_new%$'\n'}")" ]] ||
  fail "expected one new file a pattern, got:"$'\n'"$new_files"
[[ $changed_files == "$(sort <<<"${expected_changed%$'\n'}")" ]] ||
  fail "expected only the variants.def files to change, got:"$'\n'"$changed_files"
for entry in "${patterns[@]}"; do
  IFS='|' read -r pattern folder _ <<<"$entry"
  added=$(diff "$source_dir/$folder/variants.def" "$tree/$folder/variants.def" | grep -c '^>' || true)
  removed=$(diff "$source_dir/$folder/variants.def" "$tree/$folder/variants.def" | grep -c '^<' || true)
  ((added == 1 && removed == 0)) || fail "$pattern: variants.def changed by more than one line"
done
echo "canned_variant: ${#patterns[@]} patterns, each one new file and one line of variants.def"

# A machine that cannot install packages finds xxHash and OpenBLAS in the tree's .deps
# (ci/carry-deps), which git ignores and so the copy leaves out.
[[ -d $source_dir/.deps && ! -e $tree/.deps ]] && ln -s "$source_dir/.deps" "$tree/.deps"

export PATH="/usr/local/cuda/bin:$PATH"
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
cmake -S "$tree" -B "$build" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release \
  -DHANDOFF_WARNINGS_AS_ERRORS=ON >"$work/configure.log" 2>&1 ||
  { tail -30 "$work/configure.log"; fail "configure"; }
cmake --build "$build" --target "${targets[@]}" >"$work/build.log" 2>&1 ||
  { tail -40 "$work/build.log"; fail "build"; }

bench="$build/bench/handoff_bench"
gpus="$("$bench" --handoff-list-families 2>/dev/null | sed -n 's/^gpus: //p')"
[[ $gpus =~ ^[0-9]+$ ]] || gpus=0
measured_here=()
for entry in "${patterns[@]}"; do
  IFS='|' read -r pattern _ _ _ _ _ _ _ runs <<<"$entry"
  [[ $runs == cpu ]] || ((gpus > 0)) && measured_here+=("$pattern")
done
"$bench" --benchmark_list_tests --handoff-list-as-gpus=4 >"$work/list.txt"
"$bench" --handoff-smoke --benchmark_filter='/canned/' --benchmark_out="$work/smoke.json" \
  --benchmark_out_format=json >"$work/smoke.log" 2>&1 ||
  { tail -30 "$work/smoke.log"; fail "the smoke run of the canned rows"; }
python3 - "$work/smoke.json" "${measured_here[@]}" <<'EOF' || fail "the canned rows"
import json
import sys

results = json.load(open(sys.argv[1]))["benchmarks"]
for pattern in sys.argv[2:]:
    rows = [r for r in results if r["name"].startswith(f"{pattern}/canned/")]
    if not rows:
        sys.exit(f"{pattern}: no canned row was measured")
    for row in rows:
        if row.get("error_occurred") or row.get("wrong", 1) != 0 or not row.get("verified"):
            sys.exit(f"{row['name']}: not verified (wrong {row.get('wrong')})")
    print(f"canned_variant: {pattern}: {len(rows)} rows measured and verified")
EOF

for entry in "${patterns[@]}"; do
  IFS='|' read -r pattern _ _ _ _ _ _ program runs <<<"$entry"
  listed=$(grep -c "^$pattern/canned/" "$work/list.txt" || true)
  ((listed > 0)) || fail "$pattern: handoff_bench lists no canned row"
  log="$work/$pattern-conformance.log"
  "$build/tests/$program" --gtest_filter='*/canned' >"$log" 2>&1 ||
    { tail -30 "$log"; fail "$pattern: conformance tests"; }
  passed=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) tests\?.*/\1/p' "$log")
  skipped=$(sed -n 's/^\[  SKIPPED \] \([0-9]*\) tests\?.*/\1/p' "$log")
  if [[ $runs == gpu ]] && ((gpus == 0)); then
    # Without a GPU every one of them must be there, and skipped for that reason.
    ((${skipped:-0} > 0 && ${passed:-0} == 0)) ||
      fail "$pattern: its canned conformance tests should be skipped here, not $passed passed, ${skipped:-0} skipped"
    echo "canned_variant: $pattern: $listed rows listed as 4 GPUs, $skipped conformance tests skipped without a GPU"
    continue
  fi
  ((${passed:-0} > 0)) || fail "$pattern: no conformance test ran for the canned variant"
  echo "canned_variant: $pattern: $listed rows listed, $passed conformance tests passed"
done
