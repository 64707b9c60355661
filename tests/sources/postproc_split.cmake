# postproc_split: the split and the sums on their own; the table's conformance and the process
# variants' orchestration with the host stand-in (CI); the same on the device.
handoff_add_gtest(handoff_postproc_split_unit_tests cpu
  SOURCES postproc_split/split_plan_test.cpp
  LIBRARIES handoff_patterns)
handoff_add_worker_gtest(handoff_postproc_split_host_tests cpu
  LABELS tsan
  SOURCES
    postproc_split/conformance_test.cpp
    postproc_split/split_host_test.cpp)
handoff_add_worker_gtest(handoff_postproc_split_gpu_tests gpu
  SOURCES
    postproc_split/conformance_gpu_test.cpp
    postproc_split/split_gpu_test.cpp)

handoff_add_bench_smoke(postproc_split_cpu cpu 0 "^postproc_split/(cpu_serial|[a-z]+/target:host)")
handoff_add_bench_smoke(postproc_split_gpu gpu 1 "^postproc_split/(gpu_reduce|[a-z]+/target:device)")
