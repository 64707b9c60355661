# queued_worker: conformance over the variant table and the worker_session's own tests with the
# host stand-in (cpu), including the recipe's two deadlocks shown with deadlines; the same
# conformance on the device (gpu). Both programs start themselves again as the GPU worker.
handoff_add_worker_gtest(handoff_queued_worker_tests cpu
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
foreach(queued_worker_compute IN ITEMS host device)
  set(queued_worker_rows "")
  foreach(queued_worker_variant IN ITEMS seed slots streamed)
    foreach(queued_worker_start IN ITEMS warm cold)
      list(APPEND queued_worker_rows
        "queued_worker/${queued_worker_variant}/compute:${queued_worker_compute}/items:10/elements:4099/start:${queued_worker_start}")
    endforeach()
  endforeach()
  list(JOIN queued_worker_rows "|" queued_worker_expected)
  if(queued_worker_compute STREQUAL "host")
    handoff_add_bench_smoke(queued_worker_host cpu 0 "^queued_worker/[a-z]+/compute:host/"
      "${queued_worker_expected}")
  else()
    handoff_add_bench_smoke(queued_worker_device gpu 1 "^queued_worker/[a-z]+/compute:device/"
      "${queued_worker_expected}")
  endif()
endforeach()
