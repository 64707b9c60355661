# pool_prep: the conformance of every row of its variant table on the CPU (host stand-in) and on
# the GPU, plus what conformance does not cover: how a batch is cut, bad input, deadlines, workers
# killed mid-batch, and seed 000's fork bug on the GPU. Both programs start themselves again as
# pool_prep's workers.
handoff_add_worker_gtest(handoff_pool_prep_host_tests cpu
  LABELS tsan
  SOURCES
    pool_prep/pool_prep_roles.cpp
    pool_prep/conformance_test.cpp
    pool_prep/pool_prep_host_test.cpp)

handoff_add_worker_gtest(handoff_pool_prep_gpu_tests gpu
  SOURCES
    pool_prep/pool_prep_roles.cpp
    pool_prep/conformance_gpu_test.cpp
    pool_prep/pool_prep_gpu_test.cpp)

handoff_add_bench_smoke(pool_prep_cpu cpu 0 "^pool_prep/cpu_")
handoff_add_bench_smoke(pool_prep_gpu gpu 1 "^pool_prep/([^c]|c[^p]|cp[^u])")
