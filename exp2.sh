#!/usr/bin/env bash
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH CMAKE_BUILD_PARALLEL_LEVEL=16
[[ -d .deps/openblas/lib ]] && export LD_LIBRARY_PATH="$PWD/.deps/openblas/lib"
mkdir -p $OUT/r
(cmake --preset ci -DHANDOFF_GIT_COMMIT_OVERRIDE=$(cat .deps/git-commit) && cmake --build --preset ci) > $OUT/r/build.log 2>&1 || { tail -30 $OUT/r/build.log; exit 1; }
echo built $SECONDS
B=build/ci/bench/handoff_bench
F='^ceilings/pipe_between_processes/.*bytes:(4194304|268435456)/|^tensor_transfer/(pipe|queue)/memory:(host|device)/bytes:(4194304|268435456)/start:warm|^postproc_split/seed/target:device/elements:10000000/chunks:10/workers:4/start:warm'
$B --benchmark_filter="$F" --handoff-min-samples=7 --handoff-timeout=2 --benchmark_out=$OUT/r/q.json > $OUT/r/q.log 2>&1; echo "bench rc $? $SECONDS"
tail -25 $OUT/r/q.log
HANDOFF_REQUIRE_GPU=1 ctest --preset ci -R "tensor_transfer|ProcessQueue|FrameStream|PipeSink" > $OUT/r/ctest.log 2>&1; echo "ctest rc $? $SECONDS"; grep -E "tests passed|tests failed" $OUT/r/ctest.log
cd $OUT && tar czf r.tgz r && rm -rf r
