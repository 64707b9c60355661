# pool_prep: the orchestration of every variant on the CPU (host stand-in), and the same variants,
# a killed device worker and seed 000's fork bug on the GPU. Both programs start themselves again
# as pool_prep's workers.
handoff_add_worker_gtest(handoff_pool_prep_host_tests cpu
  SOURCES
    pool_prep/pool_prep_roles.cpp
    pool_prep/pool_prep_host_test.cpp)

handoff_add_worker_gtest(handoff_pool_prep_gpu_tests gpu
  SOURCES
    pool_prep/pool_prep_roles.cpp
    pool_prep/pool_prep_gpu_test.cpp)

# bench_smoke for pool_prep's two families, in the form of tests/CMakeLists.txt's
# handoff_add_bench_smoke (which is defined after the pattern hooks are read, so it is not
# callable from here).
if(HANDOFF_BENCH_BUILT)
  foreach(pool_prep_family IN ITEMS cpu gpu)
    if(pool_prep_family STREQUAL "cpu")
      set(pool_prep_gpus 0)
      set(pool_prep_filter "^pool_prep/cpu_")
      set(pool_prep_expect
        "pool_prep/cpu_serial/|pool_prep/cpu_pool/chunks:3/elements:1027/workers:2/start:warm|pool_prep/cpu_pool/chunks:3/elements:1027/workers:2/start:cold")
    else()
      set(pool_prep_gpus 1)
      set(pool_prep_filter "^pool_prep/(seed|shared_gpu|threads)/")
      set(pool_prep_expect
        "pool_prep/seed/chunks:3/elements:1027/workers:2/start:warm|pool_prep/seed/chunks:3/elements:1027/workers:2/start:cold|pool_prep/shared_gpu/chunks:3/elements:1027/workers:2/start:warm|pool_prep/shared_gpu/chunks:3/elements:1027/workers:2/start:cold|pool_prep/threads/")
    endif()
    add_test(NAME bench_smoke.pool_prep_${pool_prep_family}
      COMMAND ${CMAKE_COMMAND}
        -DBENCH=$<TARGET_FILE:handoff_bench>
        -DOUTPUT=${CMAKE_CURRENT_BINARY_DIR}/bench_smoke_pool_prep_${pool_prep_family}.json
        -DNEED_GPUS=${pool_prep_gpus}
        "-DFILTER=${pool_prep_filter}"
        "-DEXPECT_PREFIXES=${pool_prep_expect}"
        -P ${CMAKE_CURRENT_SOURCE_DIR}/bench_smoke.cmake)
    set_tests_properties(bench_smoke.pool_prep_${pool_prep_family} PROPERTIES
      LABELS "bench_smoke;${pool_prep_family}" SKIP_REGULAR_EXPRESSION "HANDOFF-SKIPPED"
      TIMEOUT 600)
  endforeach()
endif()
