# queued_worker: conformance over the variant table and the worker_session's own tests with the
# host stand-in (cpu), including the recipe's two deadlocks shown with deadlines; the same
# conformance on the device (gpu). Both programs start themselves again as the GPU worker.
handoff_add_worker_gtest(handoff_queued_worker_tests cpu
  LABELS tsan
  SOURCES
    ${CMAKE_CURRENT_SOURCE_DIR}/queued_worker/conformance_test.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/queued_worker/queued_worker_host_test.cpp
  LIBRARIES handoff_reference)
handoff_add_worker_gtest(handoff_queued_worker_gpu_tests gpu
  SOURCES
    ${CMAKE_CURRENT_SOURCE_DIR}/queued_worker/conformance_gpu_test.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/queued_worker/queued_worker_gpu_test.cpp
  LIBRARIES handoff_reference)

# bench_smoke for both families, each row once at a tiny size and verified (wrong = 0): the host
# stand-in rows run in CI, so the orchestration the benchmarks time is exercised there too.
handoff_add_bench_smoke(queued_worker_host cpu 0 "^queued_worker/[a-z_]+/compute:host/")
handoff_add_bench_smoke(queued_worker_device gpu 1 "^queued_worker/[a-z_]+/compute:device/")
